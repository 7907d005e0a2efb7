//===- src/cpu_reference/mul.cc - MUL -------------------------------------===//
//
// out = act(lhs · rhs), with NumPy broadcasting (broadcast.h). f32: in float.
// Quantized (docs/numerics.md §5): the exact product, fraction f_lhs + f_rhs, then
// requant(p, f_lhs + f_rhs - f_out) and the fused clamp.
//
//===----------------------------------------------------------------------===//
#include "broadcast.h"

namespace opuc::reference {

Status EvalMul(KernelContext& ctx) {
  if (IsQuantizedInput(ctx))
    return BinaryInt(ctx, "lhs", "rhs", [](const BinaryFractions& f, int32_t a, int32_t b) {
      return ShrRhu(int64_t{a} * b, f.lhs + f.rhs - f.out);
    });
  return BinaryF32(ctx, [](float a, float b) { return a * b; });
}

}  // namespace opuc::reference
