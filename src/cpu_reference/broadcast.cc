//===- src/cpu_reference/broadcast.cc - NumPy broadcasting ----------------===//
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

Status AddSubInt(KernelContext& ctx, int sign) {
  return BinaryInt(ctx, "lhs", "rhs", [sign](const BinaryFractions& f, int32_t a, int32_t b) {
    const int top = std::max({f.lhs, f.rhs, f.out});
    // |s| <= 2 · 32768 · 2^(23 + 8) = 2^47: exact in int64 (numerics.md §5).
    const int64_t s = ShrRhu(a, f.lhs - top) + sign * ShrRhu(b, f.rhs - top);
    return ShrRhu(s, top - f.out);
  });
}

}  // namespace opuc::reference
