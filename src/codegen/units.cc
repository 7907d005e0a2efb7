//===- src/codegen/units.cc - The order a group runs in ---------------===//
#include "units.h"

#include <algorithm>

namespace opuc::codegen {

std::vector<Unit> Units(const InnerProductGroup& g, const Tiling& t, const OpuBufferUnits& u) {
  std::vector<Unit> units;
  int64_t pair = 0, window = -1, last_block = -1;
  for (const Span& row : t.rows) {
    for (const Span& col : t.cols) {
      last_block = -1;
      for (int64_t ob = 0; ob < t.out_blocks; ++ob, ++pair) {
        const int64_t block = InputBlock(g, u, ob, 0);
        const bool new_window = last_block < 0 || (g.depthwise && block != last_block);
        if (new_window) ++window;
        last_block = block;
        for (int64_t r = 0; r < t.rows_per_out_block; r += t.chunk_rows) {
          Unit unit{row,
                    col,
                    ob,
                    r,
                    std::min(t.chunk_rows, t.rows_per_out_block - r),
                    pair,
                    window,
                    new_window && r == 0,
                    r == 0,
                    r + t.chunk_rows >= t.rows_per_out_block,
                    block};
          units.push_back(unit);
        }
      }
    }
  }
  return units;
}

}  // namespace opuc::codegen
