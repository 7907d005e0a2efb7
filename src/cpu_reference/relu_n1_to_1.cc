//===- src/cpu_reference/relu_n1_to_1.cc - RELU_N1_TO_1 -------------------===//
//
// out = x > 1 ? 1 : (x < -1 ? -1 : x) (a NaN stays NaN).
// Quantized: requant(q, f_in - f_out), then the clamp of docs/numerics.md §3 (the
// same as its §6 table, by monotonicity).
//
//===----------------------------------------------------------------------===//
#include "integer_util.h"

namespace opuc::reference {

Status EvalReluN1To1(KernelContext& ctx) {
  if (IsQuantizedInput(ctx)) return ActivationInt(ctx, Activation::kReluN1To1);
  return UnaryF32(ctx, [](float x) { return x > 1.0f ? 1.0f : (x < -1.0f ? -1.0f : x); });
}

}  // namespace opuc::reference
