//===- src/codegen/step_searches.h - Each OPU group's tiling, searched -*- C++ -*-===//
//
// The last of codegen's passes (codegen.cc): every group rewritten, tiled
// at its fewest tiles and its constants placed (a ReadyGroup), each
// group's tiling search runs on the threads, a chained pair's both ways,
// and each step is settled in order.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_CODEGEN_STEP_SEARCHES_H
#define OPUC_SRC_CODEGEN_STEP_SEARCHES_H

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "constants.h"
#include "inner_product_group.h"
#include "input_fold.h"
#include "opuc/codegen/codegen.h"
#include "tiling.h"

namespace opuc::codegen {

/// An OPU group ready for its search.
struct ReadyGroup {
  size_t step = 0;  ///< Index into code.steps.
  InnerProductGroup group;
  Tiling tiling;
  ConstantPlacement constants;
  std::optional<InputFold> fold;
  bool doubles_output = false, pairs_input = false;
  /// A chained pair's (chained_pairs.h): the first group's output, which
  /// the second reads, in the feature-map rows from chain_row (-1: none).
  int64_t chain_row = -1;
  bool chain_first = false;
  std::string chain_note;      ///< Why a depthwise group is not chained.
  Tiling chain_tiling;         ///< Its fewest tiles above chain_row.
  OpuBufferUnits chain_units;  ///< The buffers but the map's rows.
};

/// Searches every group's tiling and writes its step into `code`: a
/// chained pair as one step where that is faster than the two alone (its
/// first group's output then in `on_chip`, never in DRAM).
Status SearchSteps(const Graph& graph, const HwConfig& hw, const OpuBufferUnits& units,
                   const PlanOptions& options, const std::vector<ReadyGroup>& ready, StepPlan& code,
                   std::set<TensorId>& on_chip);

}  // namespace opuc::codegen

#endif  // OPUC_SRC_CODEGEN_STEP_SEARCHES_H
