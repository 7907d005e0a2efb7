//===- src/opu/codegen/emit.h - The instruction stream of a group -*- C++ -*-===//
#ifndef OPUC_SRC_OPU_CODEGEN_EMIT_H
#define OPUC_SRC_OPU_CODEGEN_EMIT_H

#include <vector>

#include "constants.h"
#include "estimate.h"
#include "opuc/opu/codegen.h"

namespace opuc::codegen {

/// The stream of an inner-product group: its units in order (tile, output
/// block, weight chunk), double-buffered, with the tokens that make the
/// overlap safe (docs/codegen.md), and the estimated cycles.
/// Where a group's values live in DRAM; null for what the group lacks.
struct GroupLayouts {
  const ActivationLayout* input = nullptr;
  const ActivationLayout* output = nullptr;  ///< Null when only the pool's result is stored.
  const ActivationLayout* residual = nullptr;
  const ActivationLayout* pool = nullptr;
};

Expected<OpuGroupCode> EmitInnerProduct(const InnerProductGroup& g, const Tiling& t,
                                        const HwConfig& hw, const ConstantPlacement& constants,
                                        const GroupLayouts& layouts);

/// Where one unit's tile sits on chip for the stages after the inner product.
struct PostTile {
  int64_t acc_base = 0, param_row = 0;
  /// With a residual add: where its tile is, and how many lanes read it.
  int64_t residual_row = 0, residual_lane = 0, residual_lanes = 0;
  int64_t table_row = 0;                                ///< With a lookup table.
  int64_t th = 1, tw = 1;                               ///< The tile's pixels.
  int64_t pool_base = 0, pool_rows = 0, pool_cols = 0;  ///< With a pool.
};

/// The output stage and every later stage of `g` over one tile, in order
/// (emit_post.cc), with their cycles.
void EmitPostStages(const InnerProductGroup& g, const PostTile& tile, CycleEstimate& estimate,
                    std::vector<isa::Instruction>& out);

}  // namespace opuc::codegen

#endif  // OPUC_SRC_OPU_CODEGEN_EMIT_H
