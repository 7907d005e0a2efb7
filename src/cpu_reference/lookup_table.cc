//===- src/cpu_reference/lookup_table.cc - LOOKUP_TABLE -------------------===//
//
// docs/numerics.md §6. An 8-bit input indexes a 256-entry table: T[q + 128]
// (i8) or T[q] (u8). An i16 input interpolates a 257-entry table between
// the knots of its high byte: with q = 256·high + low (SplitInt16),
// y = Interpolate(T[high + 128], T[high + 129], low). The table's format is
// the output's and its entries are at the output's fraction length; the
// executor never recomputes them.
//
//===----------------------------------------------------------------------===//
#include "integer_util.h"

namespace opuc::reference {

Status EvalLookupTable(KernelContext& ctx) {
  const std::vector<int32_t> table = Widened(*ctx.input(1));
  switch (ctx.input(0)->dtype()) {
    case DType::kI8:
      return UnaryInt(ctx, [&](int32_t q) { return table[static_cast<size_t>(q + 128)]; });
    case DType::kU8: return UnaryInt(ctx, [&](int32_t q) { return table[static_cast<size_t>(q)]; });
    default:
      return UnaryInt(ctx, [&](int32_t q) {
        const Int16Bytes b = SplitInt16(q);
        const auto k = static_cast<size_t>(b.high + 128);
        return Interpolate(table[k], table[k + 1], b.low);
      });
  }
}

}  // namespace opuc::reference
