//===- src/codegen/dense_pairs.h - Pointwise output pixels in pairs -*- C++ -*-===//
//
// A 1x1 product of at most L / 2 input channels keeps half the array's
// lanes busy. In pairs (docs/codegen.md, "Pointwise in pairs") each Gemm
// issue reads two neighbouring pixels' rows (the feature-map buffer's two
// banks): pixel 2i's lanes below L / 2 meet the weights there, 2i + 1's
// the same weights again L / 2 on, and the adder tree's halves are the two
// pixels' sums, written as an entry pair (Gemm.init PairsFromBias): half
// the array's cycles.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_CODEGEN_DENSE_PAIRS_H
#define OPUC_SRC_CODEGEN_DENSE_PAIRS_H

#include "inner_product_group.h"
#include "opuc/opu/buffer_units.h"
#include "tiling.h"

namespace opuc::codegen {

/// Whether `g` is a product that could take output pixels in pairs on `u`:
/// dense (not depthwise, the identity pass or the diagonal mapping), 1x1 at
/// stride 1 over a map of its own pixels (no packing, fold, doubled map,
/// phases or inserted zeros), at most L / 2 input channels of bytes, and a
/// feature-map buffer of two banks.
bool UsesDensePairs(const InnerProductGroup& g, const OpuBufferUnits& u);

/// Whether every Gemm of `g` under tiling `t` can take its pixels in pairs:
/// one input block and plane, every tile's width even and every unit's
/// accumulator region on an even entry. Its weight rows then hold each
/// weight twice, so a Gemm that could not would read the upper lanes of
/// its own pixel against them: codegen pairs a group's Gemms all or none.
bool DensePairsFit(const InnerProductGroup& g, const Tiling& t, const OpuBufferUnits& u);

}  // namespace opuc::codegen

#endif  // OPUC_SRC_CODEGEN_DENSE_PAIRS_H
