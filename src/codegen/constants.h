//===- src/codegen/constants.h - Weights and params in the array's order -*- C++ -*-===//
//
// For each block of Co output channels: its weight rows, tap by tap (ky,
// then kx), each tap's input blocks in order, one Co x L matrix W[j][l] per
// row (zero past the channels; a depthwise row is diagonal, and of
// multiplier 1 only its L bytes of lanes, CompactWeightRows; a depthwise
// window's row holds W[j][t], tap t of the Gemm's kernel rows on lane t,
// a row per Gemm, depthwise_window.h); then, for
// every output block, one param row: per lane the bias (i32), M (i16, 1:
// power-of-two mode), S (i8) and a prelu's slope (i8) or 0, little-endian;
// then a lookup table's entries as i16, little-endian, zero to a whole row.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_CODEGEN_CONSTANTS_H
#define OPUC_SRC_CODEGEN_CONSTANTS_H

#include <cstdint>
#include <vector>

#include "tiling.h"

namespace opuc::codegen {

struct ConstantPlacement {
  int64_t weights = 0;            ///< Byte address of the first weight row.
  int64_t params = 0;             ///< Byte address of the first param row.
  int64_t table = 0;              ///< Of a lookup table's table_rows x L bytes.
  int64_t channel_constants = 0;  ///< Of the constant_rows x L bytes of per-channel constants.
};

/// Whether the group's weight rows travel compact: a depthwise product of
/// multiplier 1 has one weight per output in a row, on lane l with l mod Co
/// = j for output j, so its row is the L bytes of those lanes in DRAM and a
/// diagonal Load spreads it over the Co x L matrix (docs/isa.md).
inline bool CompactWeightRows(const InnerProductGroup& g, const OpuBufferUnits& u) {
  return g.depthwise && g.window_rows == 0 && g.multiplier == 1 && u.lanes % u.out_lanes == 0;
}
/// DRAM bytes of one of the group's weight rows: L compact, else Co x L.
inline int64_t WeightRowBytes(const InnerProductGroup& g, const OpuBufferUnits& u) {
  return CompactWeightRows(g, u) ? u.lanes : u.lanes * u.out_lanes;
}

/// The input block that weight row `block_row` (0 .. t.blocks-1) of output
/// block `ob` reads.
int64_t InputBlock(const InnerProductGroup& g, const OpuBufferUnits& u, int64_t ob,
                   int64_t block_row);

/// Appends the group's weight and param rows to `blob` (aligned to `align`).
ConstantPlacement PackConstants(const InnerProductGroup& g, const Tiling& t,
                                const OpuBufferUnits& u, int64_t align, std::vector<uint8_t>& blob);

/// Writes the group's weight rows again at `at.weights` in `blob` (their
/// size does not change): after a choice that changes their contents, such
/// as InnerProductGroup::dense_pairs.
void RepackWeights(const InnerProductGroup& g, const Tiling& t, const OpuBufferUnits& u,
                   const ConstantPlacement& at, std::vector<uint8_t>& blob);

}  // namespace opuc::codegen

#endif  // OPUC_SRC_CODEGEN_CONSTANTS_H
