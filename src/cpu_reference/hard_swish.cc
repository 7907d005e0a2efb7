//===- src/cpu_reference/hard_swish.cc - HARD_SWISH -----------------------===//
//
// out = x · min(6, max(0, x + 3)) / 6, evaluated left to right in float
// (x · relu6(x + 3), then the division), as TFLite's reference HardSwish.
// On a quantized input the quantizer replaces it with a lookup_table (docs/numerics.md §6).
//
//===----------------------------------------------------------------------===//
#include <algorithm>

#include "integer_util.h"

namespace opuc::reference {

Status EvalHardSwish(KernelContext& ctx) {
  if (IsQuantizedInput(ctx)) return NeedsLookupTable(ctx);
  return UnaryF32(ctx, [](float x) { return x * std::min(6.0f, std::max(0.0f, x + 3.0f)) / 6.0f; });
}

}  // namespace opuc::reference
