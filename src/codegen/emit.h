//===- src/codegen/emit.h - The instruction stream of a group -*- C++ -*-===//
#ifndef OPUC_SRC_CODEGEN_EMIT_H
#define OPUC_SRC_CODEGEN_EMIT_H

#include <deque>
#include <vector>

#include "constants.h"
#include "estimate.h"
#include "opuc/codegen/codegen.h"

namespace opuc::codegen {

/// Where a group's values live in DRAM; null for what the group lacks.
struct GroupLayouts {
  std::vector<const ActivationLayout*> inputs;     ///< One per piece (input_blocks.h).
  const ActivationLayout* output = nullptr;        ///< Null when only the pool's result is stored.
  std::vector<const ActivationLayout*> residuals;  ///< As InnerProductGroup::residuals.
  const ActivationLayout* pool = nullptr;       ///< Null when only the upsample's result is stored.
  const ActivationLayout* upsampled = nullptr;  ///< The doubled map of the last value.
  /// A chained pair (docs/codegen.md, "Chained pairs"): the first group's
  /// `output` is the feature-map buffer's rows from its address / L, a row
  /// a pixel, block after block; the second group reads its input there,
  /// from row `input_fm_row` (-1: from DRAM, as `inputs` say).
  bool output_to_fm = false;
  int64_t input_fm_row = -1;
};

/// The OPU step of an inner-product group: its units in order (tile, output
/// block, weight chunk), each the load, compute and store engines' part,
/// double-buffered, with the tokens that make the overlap safe
/// (docs/codegen.md), and the estimated cycles: `prefetched` when an OPU
/// step runs before it, while which the fetch unit reads its first words.
/// Without `words`, the estimate and the tiling alone (a search's
/// candidate: encoding is most of the search's time).
Expected<PlannedStep> EmitInnerProduct(const InnerProductGroup& group, const Tiling& tiling,
                                       const HwConfig& hw, const ConstantPlacement& constants,
                                       const GroupLayouts& layouts, bool prefetched,
                                       bool words = true);

/// Where `g`'s values live in `plan`'s DRAM; a packed group's loads read
/// views of its input and residuals (packed_rows.h), kept in `views`.
GroupLayouts DramLayouts(const StepPlan& plan, const InnerProductGroup& g,
                         const OpuBufferUnits& units, std::deque<ActivationLayout>& views);

/// One group of a run, with what EmitInnerProduct takes.
struct RunGroup {
  const InnerProductGroup& group;
  const Tiling& tiling;
  const ConstantPlacement& constants;
  const GroupLayouts& layouts;
};

/// One OPU step of several groups in order (docs/codegen.md, "Runs" and
/// "Chained pairs"): each group's units, then the next's. At each seam
/// the group before's last computation and last Store give the tokens the
/// next one's first load and first Gemm wait for; a load that reads what
/// a Store of the step wrote waits for it behind a Fence. A chained
/// pair's first group stores into the feature-map buffer
/// (GroupLayouts::output_to_fm), and the second reads it there
/// (GroupLayouts::input_fm_row).
Expected<PlannedStep> EmitRun(const std::vector<RunGroup>& groups, const HwConfig& hw,
                              bool prefetched);

/// Where one unit's tile sits on chip for the stages after the inner product.
struct PostTile {
  int64_t acc_base = 0, param_row = 0;
  /// With residual adds: where the first's tile is, the rows from one to
  /// the next, the lane of the pair's first channel, and the pair's
  /// channels: [c0, c0 + Co).
  int64_t residual_row = 0, residual_pitch = 0, residual_lane = 0, c0 = 0, co = 0;
  int64_t table_row = 0;     ///< With a lookup table.
  int64_t constant_row = 0;  ///< With per-channel constants (Tiling::constant_row).
  int64_t lanes = 1;         ///< L: lanes of a feature-map row.
  int64_t th = 1, tw = 1;    ///< The tile's pixels.
  /// With a pool: where its entries go, the first of them in the pooled
  /// map, and how far before the tile its window starts. A global pool's
  /// one window gathers every tile of an output block into one entry:
  /// `accumulate` after the first, `last` at the end.
  int64_t pool_base = 0, pool_rows = 0, pool_cols = 0, pool_y0 = 0, pool_x0 = 0;
  int64_t pool_pad_y = 0, pool_pad_x = 0;
  bool pool_accumulate = false, pool_last = true;
};

/// The output stage and every later stage of `g` over one tile, in order
/// (emit_post.cc), with their cycles.
void EmitPostStages(const InnerProductGroup& g, const PostTile& tile, CycleEstimate& estimate,
                    std::vector<isa::Instruction>& out);

}  // namespace opuc::codegen

#endif  // OPUC_SRC_CODEGEN_EMIT_H
