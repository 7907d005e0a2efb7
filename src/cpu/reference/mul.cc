//===- src/cpu/reference/mul.cc - MUL -------------------------------------===//
//
// out = act(lhs · rhs), with NumPy broadcasting (broadcast.h). f32: in float.
// i8 (docs/numerics.md §5): the exact product, fraction f_lhs + f_rhs, then
// requant(p, f_lhs + f_rhs - f_out) and the fused clamp.
//
//===----------------------------------------------------------------------===//
#include "broadcast.h"

namespace opuc::reference {

Status EvalMul(KernelContext& ctx) {
  if (ctx.input(0)->dtype() == DType::kI8)
    return BinaryI8(ctx, "lhs", "rhs", [](const BinaryFractions& f, int8_t a, int8_t b) {
      return Requant(int64_t{a} * b, f.lhs + f.rhs - f.out);
    });
  return BinaryF32(ctx, [](float a, float b) { return a * b; });
}

}  // namespace opuc::reference
