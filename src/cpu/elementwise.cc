//===- src/cpu/elementwise.cc - relu, relu6, relu_n1_to_1, add, sub ===//
//
// The reference's rules (relu*.cc, add.cc, numerics.md §3 and §5) in typed
// loops the compiler vectorizes: no per-element dispatch on the format, no
// widened copies, no broadcast offsets when both operands have the output's
// shape (a broadcasting add or sub runs on the reference's kernel).
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <limits>

#include "epilogue.h"
#include "kernels.h"
#include "requant32.h"
#include "typed_map.h"

namespace opuc::cpu {
namespace {

/// A float clamp as the reference writes it, or the integer one of §3.
template <typename FloatFn>
Status ActivationKernel(reference::KernelContext& ctx, Activation activation, FloatFn float_fn) {
  const HostTensor& x = *ctx.input(0);
  if (!reference::IsQuantizedInput(ctx)) {
    OPUC_RETURN_IF_ERROR(reference::RequireF32(ctx, 0, "input"));
    OPUC_ASSIGN_OR_RETURN(HostTensor * y, ctx.AllocateOutput());
    Map<float, float>(x, y, float_fn);
    return OkStatus();
  }
  OPUC_ASSIGN_OR_RETURN(int f_in, reference::InputFraction(ctx, 0, "input"));
  OPUC_ASSIGN_OR_RETURN(int f_out, reference::OutputFraction(ctx));
  OPUC_ASSIGN_OR_RETURN(reference::IntRange range,
                        reference::ActivationRange(activation, f_out, ctx.output_tensor().dtype));
  OPUC_ASSIGN_OR_RETURN(HostTensor * y, ctx.AllocateOutput());
  const int shift = f_in - f_out;
  return VisitFormats(x.dtype(), y->dtype(), [&](auto in, auto out) {
    using Out = decltype(out);
    if (Requant32::Covers(shift)) {
      const FixedRequant requant(shift, range.lo, range.hi);
      Map<decltype(in), Out>(x, y, [&](auto q) { return static_cast<Out>(requant(q)); });
      return OkStatus();
    }
    Map<decltype(in), Out>(
        x, y, [&](auto q) { return static_cast<Out>(RequantTo(q, shift, range.lo, range.hi)); });
    return OkStatus();
  });
}

/// z = requant(x · sa + y · sb), every sum within int32 (sb < 0 subtracts). Not inlined: once
/// inlined into Add's lambda, GCC 12 no longer treats the pointers as
/// restrict and leaves the loop scalar (the face detector's int8 adds took
/// ten times as long).
template <typename In, typename Out>
[[gnu::noinline]] void AddInt32(const In* __restrict x, const In* __restrict y, Out* __restrict z,
                                int64_t count, int32_t sa, int32_t sb, FixedRequant requant) {
  for (int64_t i = 0; i < count; ++i) z[i] = static_cast<Out>(requant(x[i] * sa + y[i] * sb));
}

}  // namespace

Status Relu(reference::KernelContext& ctx) {
  return ActivationKernel(ctx, Activation::kRelu, [](float x) { return x < 0.0f ? 0.0f : x; });
}

Status Relu6(reference::KernelContext& ctx) {
  return ActivationKernel(ctx, Activation::kRelu6,
                          [](float x) { return x > 6.0f ? 6.0f : (x < 0.0f ? 0.0f : x); });
}

Status ReluN1To1(reference::KernelContext& ctx) {
  return ActivationKernel(ctx, Activation::kReluN1To1,
                          [](float x) { return x > 1.0f ? 1.0f : (x < -1.0f ? -1.0f : x); });
}

namespace {

/// add (`sign` +1) or sub (-1): lhs + sign · rhs.
Status AddSub(reference::KernelContext& ctx, int sign) {
  const HostTensor& a = *ctx.input(0);
  const HostTensor& b = *ctx.input(1);
  if (!(a.shape() == b.shape()) || !(a.shape() == ctx.output_tensor().shape))
    return sign > 0 ? reference::EvalAdd(ctx) : reference::EvalSub(ctx);
  if (!reference::IsQuantizedInput(ctx)) {
    OPUC_RETURN_IF_ERROR(reference::RequireF32(ctx, 0, "lhs"));
    OPUC_ASSIGN_OR_RETURN(HostTensor * out, ctx.AllocateOutput());
    const float* __restrict x = a.data<float>();
    const float* __restrict y = b.data<float>();
    float* __restrict z = out->data<float>();
    if (sign > 0)
      for (int64_t i = 0; i < out->elements(); ++i) z[i] = x[i] + y[i];
    else
      for (int64_t i = 0; i < out->elements(); ++i) z[i] = x[i] - y[i];
    FloatEpilogue(ctx).Apply(z, 1, out->elements());
    return OkStatus();
  }
  // §5: both operands shifted up exactly to F = max(f_lhs, f_rhs, f_out),
  // combined, rounded once to f_out, clamped to the output (and its activation).
  OPUC_ASSIGN_OR_RETURN(int f_a, reference::InputFraction(ctx, 0, "lhs"));
  OPUC_ASSIGN_OR_RETURN(int f_b, reference::InputFraction(ctx, 1, "rhs"));
  OPUC_ASSIGN_OR_RETURN(int f_out, reference::OutputFraction(ctx));
  OPUC_ASSIGN_OR_RETURN(const reference::IntRange range, reference::OutputRange(ctx, f_out));
  if (b.dtype() != a.dtype()) return sign > 0 ? reference::EvalAdd(ctx) : reference::EvalSub(ctx);
  OPUC_ASSIGN_OR_RETURN(HostTensor * out, ctx.AllocateOutput());
  const int top = std::max({f_a, f_b, f_out});
  const int64_t scale_a = int64_t{1} << (top - f_a), scale_b = int64_t{1} << (top - f_b);
  const int down = top - f_out;
  return VisitFormats(a.dtype(), out->dtype(), [&](auto in, auto result) {
    using In = decltype(in);
    using Out = decltype(result);
    const In* __restrict x = a.data<In>();
    const In* __restrict y = b.data<In>();
    Out* __restrict z = out->data<Out>();
    const int64_t count = out->elements();
    // Both operands shifted up and combined within int32: the branch-free stage.
    const int64_t largest = int64_t{std::numeric_limits<In>::max()} + 1;
    if (largest * (scale_a + scale_b) <= std::numeric_limits<int32_t>::max() &&
        Requant32::Covers(down)) {
      AddInt32(x, y, z, count, static_cast<int32_t>(scale_a), static_cast<int32_t>(sign * scale_b),
               FixedRequant(down, range.lo, range.hi));
      return OkStatus();
    }
    for (int64_t i = 0; i < count; ++i) {
      const int64_t s = x[i] * scale_a + sign * y[i] * scale_b;  // |s| <= 2^47 (§5)
      z[i] = static_cast<Out>(range.Clamp(ShrRhu(s, down)));
    }
    return OkStatus();
  });
}

}  // namespace

Status Add(reference::KernelContext& ctx) { return AddSub(ctx, 1); }

Status Sub(reference::KernelContext& ctx) { return AddSub(ctx, -1); }

}  // namespace opuc::cpu
