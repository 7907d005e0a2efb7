//===- src/cpu_reference/sigmoid.cc - LOGISTIC ----------------------------===//
//
// TFLite's reference Logistic: out = 1 / (1 + exp(-x)) in float, except
// that x > 16.619047164916992188 gives exactly 1 and x < -9 gives exp(x)
// (where 1 + exp(-x) would lose the small result's precision).
// On a quantized input the quantizer replaces it with a lookup_table (docs/numerics.md §6).
//
//===----------------------------------------------------------------------===//
#include <cmath>

#include "integer_util.h"

namespace opuc::reference {

Status EvalSigmoid(KernelContext& ctx) {
  if (IsQuantizedInput(ctx)) return NeedsLookupTable(ctx);
  return UnaryF32(ctx, [](float x) {
    constexpr float kUpper = 16.619047164916992188f;
    constexpr float kLower = -9.0f;
    if (x > kUpper) return 1.0f;
    if (x < kLower) return std::exp(x);
    return 1.0f / (1.0f + std::exp(-x));
  });
}

}  // namespace opuc::reference
