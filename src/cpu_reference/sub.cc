//===- src/cpu_reference/sub.cc - SUB -------------------------------------===//
//
// out = act(lhs - rhs), with NumPy broadcasting (broadcast.h). f32: in float.
// Quantized: aligned up to the finest fraction length, subtracted exactly, rounded
// once (docs/numerics.md §5, AddSubI8).
//
//===----------------------------------------------------------------------===//
#include "broadcast.h"

namespace opuc::reference {

Status EvalSub(KernelContext& ctx) {
  if (IsQuantizedInput(ctx)) return AddSubInt(ctx, -1);
  return BinaryF32(ctx, [](float a, float b) { return a - b; });
}

}  // namespace opuc::reference
