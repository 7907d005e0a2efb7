//===- src/cpu/float_unary.cc - LOGISTIC, HARD_SWISH, TANH, SOFTMAX in vector lanes -===//
//
// Float activations and softmax. The quantizer turns the activations into
// tables (a quantized input gets the reference kernel's error); a quantized
// softmax runs on the reference's kernel.
//
// Sigmoid: the reference's rule (sigmoid.cc: TFLite's reference Logistic,
// 1 / (1 + exp(-x)), exactly 1 above 16.619..., exp(x) below -9) with
// FastExp in place of std::exp, every branch a select, so the loop
// vectorizes; NaN stays NaN (the clamps and the arithmetic keep it).
// Within a few ulp of the reference (the executor's float tolerance).
//
// Hard swish: the reference's expression, x · min(6, max(0, x + 3)) / 6, in
// a loop the compiler vectorizes: the same bits.
//
// Tanh: below |x| = 0.625 Cephes' odd polynomial x + x³·P(x²), where
// 1 − 2 / (e^2|x| + 1) would cancel; above, that form with FastExp and the
// sign put back; selects, so the loop vectorizes. Within a few ulp of
// std::tanh (the reference's), ±1 at ±inf, NaN for NaN.
//
// Softmax (float; the integer rule runs on the reference's kernel): the
// reference's steps per row (the maximum, e = exp((x − max) · beta), their
// sum in order, e / sum) with FastExp in a loop that vectorizes: within a
// few ulp of the reference.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <cmath>
#include <limits>

#include "fast_exp.h"
#include "integer_util.h"
#include "kernels.h"

namespace opuc::cpu {
namespace {

float LogisticOf(float v) {
  constexpr float kUpper = 16.619047164916992188f;
  constexpr float kLower = -9.0f;
  const bool small = v < kLower;
  const float e = FastExp(small ? v : -v);
  const float logistic = 1.0f / (1.0f + e);  // computed either way: selects, no branches
  const float out = small ? e : logistic;
  return v > kUpper ? 1.0f : out;  // NaN compares false throughout and stays NaN
}

float HardSwishOf(float v) { return v * std::min(6.0f, std::max(0.0f, v + 3.0f)) / 6.0f; }

float TanhOf(float v) {
  const float a = std::fabs(v);
  const float z = v * v;
  const float odd = ((((-5.70498872745e-3f * z + 2.06390887954e-2f) * z - 5.37397155531e-2f) * z +
                      1.33314422036e-1f) *
                         z -
                     3.33332819422e-1f) *
                        z * v +
                    v;
  const float far = std::copysign(1.0f - 2.0f / (FastExp(a + a) + 1.0f), v);
  return a < 0.625f ? odd : far;  // NaN compares false and takes `far`, NaN
}

// The loops are not inlined: inlined, GCC 12 drops restrict and leaves them scalar.

template <float (*F)(float)>
[[gnu::noinline]] void MapTo(const float* __restrict x, float* __restrict y, int64_t count) {
  for (int64_t i = 0; i < count; ++i) y[i] = F(x[i]);
}

template <float (*F)(float)>
[[gnu::noinline]] void MapInPlace(float* __restrict x, int64_t count) {
  for (int64_t i = 0; i < count; ++i) x[i] = F(x[i]);
}

/// `loop` over a float input's elements; a quantized input gets the
/// reference kernel's error (the quantizer makes these ops tables).
Status FloatActivation(reference::KernelContext& ctx, reference::KernelFn reference_kernel,
                       void (*loop)(const float*, float*, int64_t)) {
  if (reference::IsQuantizedInput(ctx)) return reference_kernel(ctx);
  OPUC_RETURN_IF_ERROR(reference::RequireF32(ctx, 0, "input"));
  OPUC_ASSIGN_OR_RETURN(HostTensor * out, ctx.AllocateOutput());
  loop(ctx.input(0)->data<float>(), out->data<float>(), out->elements());
  return OkStatus();
}

}  // namespace

Status HardSwish(reference::KernelContext& ctx) {
  return FloatActivation(ctx, &reference::EvalHardSwish, &MapTo<HardSwishOf>);
}

Status Tanh(reference::KernelContext& ctx) {
  return FloatActivation(ctx, &reference::EvalTanh, &MapTo<TanhOf>);
}

Status Sigmoid(reference::KernelContext& ctx) {
  return FloatActivation(ctx, &reference::EvalSigmoid, &MapTo<LogisticOf>);
}

namespace {

/// One softmax row: y = exp((x − max) · beta), returning their sum in order.
[[gnu::noinline]] float ExpRow(const float* __restrict x, float* __restrict y, int64_t n, float max,
                               float beta) {
  for (int64_t c = 0; c < n; ++c) y[c] = FastExp((x[c] - max) * beta);
  float sum = 0.0f;
  for (int64_t c = 0; c < n; ++c) sum += y[c];  // the reference's order
  return sum;
}

}  // namespace

Status Softmax(reference::KernelContext& ctx) {
  if (reference::IsQuantizedInput(ctx)) return reference::EvalSoftmax(ctx);
  OPUC_RETURN_IF_ERROR(reference::RequireF32(ctx, 0, "input"));
  const HostTensor& input = *ctx.input(0);
  OPUC_ASSIGN_OR_RETURN(HostTensor * output, ctx.AllocateOutput());
  const auto beta = static_cast<float>(SoftmaxAttrs::Of(ctx.attrs()).beta);
  const int64_t depth = input.shape().empty() ? 1 : input.shape().back();
  if (depth == 0) return OkStatus();
  for (int64_t r = 0; r < input.elements() / depth; ++r) {
    const float* x = input.data<float>() + r * depth;
    float* y = output->data<float>() + r * depth;
    float max = std::numeric_limits<float>::lowest();
    for (int64_t c = 0; c < depth; ++c) max = std::max(max, x[c]);
    const float sum = ExpRow(x, y, depth, max, beta);
    for (int64_t c = 0; c < depth; ++c) y[c] = y[c] / sum;
  }
  return OkStatus();
}

bool FloatUnaryInPlace(OpKind op, float* x, int64_t count) {
  switch (op) {
    case OpKind::kSigmoid: MapInPlace<LogisticOf>(x, count); return true;
    case OpKind::kHardSwish: MapInPlace<HardSwishOf>(x, count); return true;
    case OpKind::kTanh: MapInPlace<TanhOf>(x, count); return true;
    default: return false;
  }
}

}  // namespace opuc::cpu
