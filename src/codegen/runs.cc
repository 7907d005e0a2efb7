//===- src/codegen/runs.cc - Consecutive OPU steps as one program -----===//
#include "runs.h"

namespace opuc::codegen {

Status JoinRuns(const std::vector<SettledStep>& settled, const HwConfig& hw, StepPlan& code) {
  for (size_t first = 0; first < settled.size();) {
    // The steps that follow one another from `first` on.
    size_t end = first + 1;
    while (end < settled.size() &&
           settled[end].step - (settled[end].groups.size() - 1) == settled[end - 1].step + 1)
      ++end;
    if (end - first > 1) {
      std::vector<RunGroup> groups;
      for (size_t k = first; k < end; ++k)
        for (const RunGroup& g : settled[k].groups) groups.push_back(g);
      // The runtime names each OPU step but the first to the fetch unit
      // while the OPU step before runs (sim/rtl_device.cc).
      Expected<PlannedStep> run = EmitRun(groups, hw, first > 0);
      if (!run.ok()) return run.status();
      const size_t from = settled[first].step - (settled[first].groups.size() - 1);
      const size_t last = settled[end - 1].step;
      for (size_t s = from; s < last; ++s) {
        code.steps[s].words.clear();
        code.steps[s].parts.clear();
        code.steps[s].chained_into = code.steps[s + 1].group;
      }
      PlannedStep& step = code.steps[last];  // its tiling stays its group's
      step.words = std::move(run->words);
      step.estimated_cycles = run->estimated_cycles;
      step.parts = std::move(run->parts);
    }
    first = end;
  }
  return OkStatus();
}

}  // namespace opuc::codegen
