//===- src/cpu_reference/relu.cc - RELU -----------------------------------===//
//
// out = x < 0 ? 0 : x (a NaN stays NaN).
// Quantized: requant(q, f_in - f_out), then the clamp of docs/numerics.md §3 (the
// same as its §6 table, by monotonicity).
//
//===----------------------------------------------------------------------===//
#include "integer_util.h"

namespace opuc::reference {

Status EvalRelu(KernelContext& ctx) {
  if (IsQuantizedInput(ctx)) return ActivationInt(ctx, Activation::kRelu);
  return UnaryF32(ctx, [](float x) { return x < 0.0f ? 0.0f : x; });
}

}  // namespace opuc::reference
