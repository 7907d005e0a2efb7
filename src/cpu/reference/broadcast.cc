//===- src/cpu/reference/broadcast.cc - NumPy broadcasting ----------------===//
#include "broadcast.h"

#include <algorithm>

namespace opuc::reference {

std::vector<int64_t> BroadcastOffsets(const Shape& operand, const Shape& output) {
  const size_t rank = output.size();
  const size_t lead = rank - operand.size();  // inference guarantees operand rank <= rank
  // The operand's stride along each output dimension; 0 where it broadcasts.
  std::vector<int64_t> stride(rank, 0);
  int64_t step = 1;
  for (size_t d = operand.size(); d-- > 0;) {
    stride[lead + d] = operand[d] == 1 ? 0 : step;
    step *= operand[d];
  }
  const int64_t count = NumElements(output).value_or(0);
  std::vector<int64_t> offsets(static_cast<size_t>(count));
  std::vector<int64_t> index(rank, 0);
  int64_t offset = 0;
  for (int64_t i = 0; i < count; ++i) {
    offsets[static_cast<size_t>(i)] = offset;
    // Advance the output index like an odometer, keeping the offset in step.
    for (size_t d = rank; d-- > 0;) {
      offset += stride[d];
      if (++index[d] < output[d]) break;
      offset -= stride[d] * output[d];
      index[d] = 0;
    }
  }
  return offsets;
}

Status AddSubI8(KernelContext& ctx, int sign) {
  return BinaryI8(ctx, "lhs", "rhs", [sign](const BinaryFractions& f, int8_t a, int8_t b) {
    const int top = std::max({f.lhs, f.rhs, f.out});
    // |s| <= 255 · 2^(15 + 8): exact in int64 (numerics.md §5).
    const int64_t s = ShrRhu(a, f.lhs - top) + sign * ShrRhu(b, f.rhs - top);
    return Requant(s, top - f.out);
  });
}

}  // namespace opuc::reference
