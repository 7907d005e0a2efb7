//===- src/codegen/tiling_search.h - The tilings the search weighs -*- C++ -*-===//
//
// Codegen emits each inner-product group under every tiling here and keeps
// the one the estimator finds fastest (docs/codegen.md, "Tiling"): from the
// fewest tiles, the same cut into more rows of tiles; with residual tiles,
// those kept per window; for a depthwise window with line buffers whose
// fewest tiles cut the width, whole-width tiles; each of them in post
// slices, four accumulator regions and with resident weights where they
// fit, and then with the feature map in four slots where those fit; and
// where a Store may write several blocks of a pixel, the tilings
// of whole-pixel stores, two or four store groups deep, each with the feature map in four slots
// too where those fit. PlanOptions turns each on, off or forces it. The fastest of them is then
// weighed again with tapered ends.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_CODEGEN_TILING_SEARCH_H
#define OPUC_SRC_CODEGEN_TILING_SEARCH_H

#include <vector>

#include "emit.h"
#include "opuc/codegen/codegen.h"
#include "tiling.h"

namespace opuc::codegen {

/// The tilings of `g` to weigh under `options`, `fewest` (ChooseTiling's)
/// first.
std::vector<Tiling> CandidateTilings(const InnerProductGroup& g, const Tiling& fewest,
                                     const OpuBufferUnits& units, const PlanOptions& options);

/// `t` with a shorter first tile, and with a shorter last tile too
/// (Tiling::tapered): nothing runs beside the first tile's loads or the
/// last tile's post stages and store, so shorter ends shorten the step
/// where its tiles are long (docs/codegen.md, "Tapered tiles"). The first
/// tile takes a half, a quarter or one row of `t`'s tile height, the last
/// none, a half, a quarter or one row, and the rows between `t`'s height.
/// None where a windowed pool or phases lay the rows out.
std::vector<Tiling> TaperedTilings(const InnerProductGroup& g, const Tiling& t);

/// A group's step as the search chose it: the tiling and the group's
/// variant (with or without pointwise pairs) it was emitted with.
struct SearchedStep {
  PlannedStep step;
  Tiling tiling;
  InnerProductGroup group;
};

/// The step of `g` (step_search.cc): emitted under each of
/// CandidateTilings(g, fewest, units) with and without pointwise pairs
/// where `g` may take them (dense_pairs.h), the fastest by the estimate
/// (the fewest tiles on a tie) then again with tapered ends. With
/// `to_feature_map` (a chained pair's first group) only tilings whose
/// Stores may write the feature-map buffer (ChainTilingRefusal).
Expected<SearchedStep> SearchStep(const InnerProductGroup& g, const Tiling& fewest,
                                  const OpuBufferUnits& units, const HwConfig& hw,
                                  const ConstantPlacement& constants, const GroupLayouts& layouts,
                                  const PlanOptions& options, bool prefetched);

}  // namespace opuc::codegen

#endif  // OPUC_SRC_CODEGEN_TILING_SEARCH_H
