//===- src/codegen/runs.h - Consecutive OPU steps as one program -*- C++ -*-===//
//
// Between two CPU steps the OPU steps run as one program, a run (docs/
// codegen.md, "Runs"): the next group's first loads and Gemms wait at the
// seam for the tokens of the group before, not for its whole step to end,
// so its first loads run beside the last tile's post stages and store,
// and a load of what a Store of the run wrote waits for it behind a Fence.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_CODEGEN_RUNS_H
#define OPUC_SRC_CODEGEN_RUNS_H

#include <vector>

#include "emit.h"

namespace opuc::codegen {

/// An OPU step as settled: its groups as searched (two for a chained
/// pair), `step` the index of its last group's step in StepPlan::steps.
struct SettledStep {
  size_t step = 0;
  std::vector<RunGroup> groups;
};

/// Emits each run of `settled` steps with no CPU step between them (the
/// steps' indices follow each other) as one program, into its last
/// group's step; the groups before say which step holds their words
/// (PlannedStep::chained_into) and keep their own estimate and tiling.
Status JoinRuns(const std::vector<SettledStep>& settled, const HwConfig& hw, StepPlan& code);

}  // namespace opuc::codegen

#endif  // OPUC_SRC_CODEGEN_RUNS_H
