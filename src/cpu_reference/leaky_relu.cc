//===- src/cpu_reference/leaky_relu.cc - LEAKY_RELU -----------------------===//
//
// out = x > 0 ? x : x · alpha, with alpha (a double attribute) rounded to
// float first, as TFLite stores it.
// On a quantized input the quantizer replaces it with a lookup_table (docs/numerics.md §6).
//
//===----------------------------------------------------------------------===//
#include "integer_util.h"

namespace opuc::reference {

Status EvalLeakyRelu(KernelContext& ctx) {
  if (IsQuantizedInput(ctx)) return NeedsLookupTable(ctx);
  const auto alpha = static_cast<float>(LeakyReluAttrs::Of(ctx.attrs()).alpha);
  return UnaryF32(ctx, [alpha](float x) { return x > 0.0f ? x : x * alpha; });
}

}  // namespace opuc::reference
