//===- src/cpu_reference/tanh.cc - TANH -----------------------------------===//
//
// out = std::tanh(x) in float.
// On a quantized input the quantizer replaces it with a lookup_table (docs/numerics.md §6).
//
//===----------------------------------------------------------------------===//
#include <cmath>

#include "integer_util.h"

namespace opuc::reference {

Status EvalTanh(KernelContext& ctx) {
  if (IsQuantizedInput(ctx)) return NeedsLookupTable(ctx);
  return UnaryF32(ctx, [](float x) { return std::tanh(x); });
}

}  // namespace opuc::reference
