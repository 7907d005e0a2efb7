//===- src/cpu_reference/relu6.cc - RELU6 ---------------------------------===//
//
// out = x > 6 ? 6 : (x < 0 ? 0 : x) (a NaN stays NaN).
// Quantized: requant(q, f_in - f_out), then the clamp of docs/numerics.md §3 (the
// same as its §6 table, by monotonicity).
//
//===----------------------------------------------------------------------===//
#include "integer_util.h"

namespace opuc::reference {

Status EvalRelu6(KernelContext& ctx) {
  if (IsQuantizedInput(ctx)) return ActivationInt(ctx, Activation::kRelu6);
  return UnaryF32(ctx, [](float x) { return x > 6.0f ? 6.0f : (x < 0.0f ? 0.0f : x); });
}

}  // namespace opuc::reference
