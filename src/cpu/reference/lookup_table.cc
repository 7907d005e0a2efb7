//===- src/cpu/reference/lookup_table.cc - LOOKUP_TABLE -------------------===//
//
// y = table[q + 128] (docs/numerics.md §6). The table's entries are already
// at the output's fraction length; the executor never recomputes them.
//
//===----------------------------------------------------------------------===//
#include "integer_util.h"

namespace opuc::reference {

Status EvalLookupTable(KernelContext& ctx) {
  const int8_t* table = ctx.input(1)->data<int8_t>();
  return UnaryI8(ctx, [table](int8_t q) { return table[q + 128]; });
}

}  // namespace opuc::reference
