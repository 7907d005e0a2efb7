//===- src/cpu/kernels/sigmoid.cc - LOGISTIC in vector lanes --------------===//
//
// The reference's float rule (sigmoid.cc: TFLite's reference Logistic,
// 1 / (1 + exp(-x)), exactly 1 above 16.619..., exp(x) below -9) with
// FastExp in place of std::exp, every branch a select, so the loop
// vectorizes; NaN stays NaN (the clamps and the arithmetic keep it). Within a few ulp of the
// reference (the executor's float tolerance). Quantized inputs never reach it: the quantizer makes
// sigmoids lookup tables.
//
//===----------------------------------------------------------------------===//
#include "fast_exp.h"
#include "integer_util.h"
#include "kernels.h"

namespace opuc::cpu {
namespace {

/// Not inlined: inlined, GCC 12 drops restrict and leaves the loop scalar.
[[gnu::noinline]] void Logistic(const float* __restrict x, float* __restrict y, int64_t count) {
  constexpr float kUpper = 16.619047164916992188f;
  constexpr float kLower = -9.0f;
  for (int64_t i = 0; i < count; ++i) {
    const float v = x[i];
    const bool small = v < kLower;
    const float e = FastExp(small ? v : -v);
    const float logistic = 1.0f / (1.0f + e);  // computed either way: selects, no branches
    const float out = small ? e : logistic;
    y[i] = v > kUpper ? 1.0f : out;  // NaN compares false throughout and stays NaN
  }
}

}  // namespace

Status Sigmoid(reference::KernelContext& ctx) {
  if (reference::IsQuantizedInput(ctx)) return reference::EvalSigmoid(ctx);  // its error
  OPUC_RETURN_IF_ERROR(reference::RequireF32(ctx, 0, "input"));
  OPUC_ASSIGN_OR_RETURN(HostTensor * out, ctx.AllocateOutput());
  Logistic(ctx.input(0)->data<float>(), out->data<float>(), out->elements());
  return OkStatus();
}

}  // namespace opuc::cpu
