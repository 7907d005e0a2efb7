//===- src/codegen/tiling_search.h - The tilings the search weighs -*- C++ -*-===//
//
// Codegen emits each inner-product group under every tiling here and keeps
// the one the estimator finds fastest (docs/codegen.md, "Tiling"): from the
// fewest tiles, the same cut into more rows of tiles; with residual tiles,
// those kept per window; for a depthwise window with line buffers whose
// fewest tiles cut the width, whole-width tiles; each of them in post
// slices, four accumulator regions and with resident weights where they
// fit; and where a Store may write several blocks of a pixel, the tilings
// of whole-pixel stores. PlanOptions turns each on, off or forces it.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_CODEGEN_TILING_SEARCH_H
#define OPUC_SRC_CODEGEN_TILING_SEARCH_H

#include <vector>

#include "opuc/codegen/codegen.h"
#include "tiling.h"

namespace opuc::codegen {

/// The tilings of `g` to weigh under `options`, `fewest` (ChooseTiling's)
/// first.
std::vector<Tiling> CandidateTilings(const InnerProductGroup& g, const Tiling& fewest,
                                     const OpuBufferUnits& units, const PlanOptions& options);

}  // namespace opuc::codegen

#endif  // OPUC_SRC_CODEGEN_TILING_SEARCH_H
