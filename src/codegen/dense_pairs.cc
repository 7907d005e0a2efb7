//===- src/codegen/dense_pairs.cc - Pointwise output pixels in pairs --===//
#include "dense_pairs.h"

#include "units.h"

namespace opuc::codegen {

bool UsesDensePairs(const InnerProductGroup& g, const OpuBufferUnits& u) {
  return !g.depthwise && !g.identity && !g.diagonal && g.window_rows == 0 && g.kh == 1 &&
         g.kw == 1 && g.sx == 1 && g.gap_x == 1 && g.gap_y == 1 && g.Phases() == 1 && !g.packed &&
         !g.pairs && g.in_c <= u.lanes / 2 && g.in_format != DType::kI16 && !g.i16_whole &&
         u.fm_pairs;
}

bool DensePairsFit(const InnerProductGroup& g, const Tiling& t, const OpuBufferUnits& u) {
  if (t.blocks != 1 || t.planes != 1) return false;
  for (const Unit& unit : Units(g, t, u))
    if (unit.col.size % 2 != 0 || t.AccBase(unit.pair) % 2 != 0) return false;
  return true;
}

}  // namespace opuc::codegen
