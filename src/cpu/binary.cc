//===- src/cpu/binary.cc - MUL and PRELU --------------------------===//
//
// The reference's rules (mul.cc, prelu.cc, numerics.md §5) over the
// broadcasts the models use: the second operand of the output's shape, or
// repeating along it (one value per channel, per row, or one value) — the
// squeeze-and-excitation scale of selfie_segmentation, the per-channel
// slopes of palm_detection's PReLUs. The output runs as flat loops over
// each repetition, so the compiler vectorizes them; any other broadcast
// runs on the reference's kernel. Integer products of 8- and 16-bit values
// fit int32, so the output stage is requant32.h's.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <vector>

#include "broadcast.h"
#include "epilogue.h"
#include "kept_buffer.h"
#include "kernels.h"
#include "requant32.h"
#include "typed_map.h"

namespace opuc::cpu {
namespace {

/// How many elements the rhs has when it repeats along the output as a
/// whole (its extents, leading 1s dropped, are the output's last ones): then
/// output element i reads rhs element i mod that count. -1 otherwise.
int64_t RepeatPeriod(const Shape& rhs, const Shape& out) {
  if (rhs.size() > out.size()) return -1;
  size_t first = 0;  // the rhs's first extent other than 1
  while (first < rhs.size() && rhs[first] == 1) ++first;
  int64_t period = 1;
  for (size_t d = first; d < rhs.size(); ++d) {
    if (rhs[d] != out[out.size() - rhs.size() + d]) return -1;
    period *= rhs[d];
  }
  return period;
}

/// z[i] = op(x[i], y[i]). A function of its own, not inlined: inlined, GCC
/// 12 drops the pointers' restrict and leaves the loop scalar.
template <typename X, typename Y, typename Z, typename Op>
[[gnu::noinline]] void Span(const X* __restrict x, const Y* __restrict y, Z* __restrict z,
                            int64_t n, Op op) {
  for (int64_t i = 0; i < n; ++i) z[i] = op(x[i], y[i]);
}
template <typename X, typename Y, typename Z, typename Op>
[[gnu::noinline]] void SpanOne(const X* __restrict x, Y y, Z* __restrict z, int64_t n, Op op) {
  for (int64_t i = 0; i < n; ++i) z[i] = op(x[i], y);
}

struct RepeatedOperand;  // KeptBuffer tag

/// z[i] = op(x[i], y[i mod period]) over `count` elements. A short period
/// (a few dozen channels) is laid out several times over first, so each
/// loop is long enough for whole vectors.
template <typename X, typename Y, typename Z, typename Op>
void Repeating(const X* x, const Y* y, Z* z, int64_t count, int64_t period, Op op) {
  if (period == 1) return SpanOne(x, y[0], z, count, op);
  constexpr int64_t kLongEnough = 256;
  if (period < kLongEnough && count > period) {
    std::vector<Y>& copies = KeptBuffer<Y, RepeatedOperand>();
    const int64_t times = std::min((kLongEnough + period - 1) / period, count / period);
    copies.resize(static_cast<size_t>(times * period));
    for (int64_t t = 0; t < times; ++t) std::copy(y, y + period, copies.data() + t * period);
    y = copies.data();
    period *= times;
  }
  for (int64_t r = 0; r < count; r += period)
    Span(x + r, y, z + r, std::min(period, count - r), op);
}

/// The operands in the order the loop reads them: `full` of the output's
/// shape, `other` repeating with `period`; swapped when the op commutes.
struct Operands {
  const HostTensor* full;
  const HostTensor* other;
  int64_t period;
};
Operands Arrange(const reference::KernelContext& ctx, bool commutes) {
  const Shape& out = ctx.output_tensor().shape;
  const HostTensor* a = ctx.input(0);
  const HostTensor* b = ctx.input(1);
  if (a->shape() == out) return {a, b, RepeatPeriod(b->shape(), out)};
  if (commutes && b->shape() == out) return {b, a, RepeatPeriod(a->shape(), out)};
  return {nullptr, nullptr, -1};
}

/// Calls fn(X{}, Y{}, Z{}) with the element types of three quantized formats.
template <typename Fn>
void VisitThree(DType x, DType y, DType z, Fn fn) {
  reference::VisitFormat(x, [&](auto a) {
    reference::VisitFormat(
        y, [&](auto b) { reference::VisitFormat(z, [&](auto c) { fn(a, b, c); }); });
  });
}

}  // namespace

Status Mul(reference::KernelContext& ctx) {
  const Operands ops = Arrange(ctx, /*commutes=*/true);
  if (ops.period < 1) return reference::EvalMul(ctx);
  if (!reference::IsQuantizedInput(ctx)) {
    OPUC_RETURN_IF_ERROR(reference::RequireF32(ctx, 0, "lhs"));
    OPUC_ASSIGN_OR_RETURN(HostTensor * out, ctx.AllocateOutput());
    float* z = out->data<float>();
    Repeating(ops.full->data<float>(), ops.other->data<float>(), z, out->elements(), ops.period,
              [](float a, float b) { return a * b; });
    FloatEpilogue(ctx).Apply(z, 1, out->elements());  // the fused clamp, as the reference's
    return OkStatus();
  }
  OPUC_ASSIGN_OR_RETURN(const reference::BinaryFractions f,
                        reference::ReadBinaryFractions(ctx, "lhs", "rhs", /*alpha=*/false));
  OPUC_ASSIGN_OR_RETURN(const reference::IntRange range, reference::OutputRange(ctx, f.out));
  const int shift = f.lhs + f.rhs - f.out;  // the exact product's fraction is f_lhs + f_rhs
  if (!Requant32::Covers(shift)) return reference::EvalMul(ctx);
  OPUC_ASSIGN_OR_RETURN(HostTensor * out, ctx.AllocateOutput());
  const FixedRequant requant(shift, range.lo, range.hi);
  VisitThree(ops.full->dtype(), ops.other->dtype(), out->dtype(), [&](auto x, auto y, auto z) {
    using Z = decltype(z);
    Repeating(ops.full->data<decltype(x)>(), ops.other->data<decltype(y)>(), out->data<Z>(),
              out->elements(), ops.period, [requant](int32_t a, int32_t b) {
                return static_cast<Z>(requant(a * b));  // |a · b| <= 2^30
              });
  });
  return OkStatus();
}

Status PRelu(reference::KernelContext& ctx) {
  const Operands ops = Arrange(ctx, /*commutes=*/false);
  if (ops.period < 1) return reference::EvalPRelu(ctx);
  if (!reference::IsQuantizedInput(ctx)) {
    OPUC_RETURN_IF_ERROR(reference::RequireF32(ctx, 0, "input"));
    OPUC_ASSIGN_OR_RETURN(HostTensor * out, ctx.AllocateOutput());
    Repeating(ops.full->data<float>(), ops.other->data<float>(), out->data<float>(),
              out->elements(), ops.period, [](float x, float a) { return x >= 0.0f ? x : x * a; });
    return OkStatus();
  }
  OPUC_ASSIGN_OR_RETURN(const reference::BinaryFractions f,
                        reference::ReadBinaryFractions(ctx, "input", "alpha", /*alpha=*/true));
  OPUC_ASSIGN_OR_RETURN(const reference::IntRange range, reference::OutputRange(ctx, f.out));
  // q >= 0: requant(q, f_in − f_out); q < 0: requant(q · α, f_in + f_α − f_out).
  const int up = f.lhs - f.out, down = f.lhs + f.rhs - f.out;
  if (!Requant32::Covers(up) || !Requant32::Covers(down) || ops.other->dtype() != DType::kI8)
    return reference::EvalPRelu(ctx);
  OPUC_ASSIGN_OR_RETURN(HostTensor * out, ctx.AllocateOutput());
  const FixedRequant positive(up, range.lo, range.hi), negative(down, range.lo, range.hi);
  return VisitFormats(ops.full->dtype(), out->dtype(), [&](auto x, auto z) {
    using Z = decltype(z);
    Repeating(ops.full->data<decltype(x)>(), ops.other->data<int8_t>(), out->data<Z>(),
              out->elements(), ops.period, [positive, negative](int32_t q, int32_t a) {
                return static_cast<Z>(q >= 0 ? positive(q) : negative(q * a));
              });
    return OkStatus();
  });
}

}  // namespace opuc::cpu
