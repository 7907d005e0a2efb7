//===- src/pass/sequential.cc - Ordered pipelines of passes ---------------===//
#include "opuc/pass/sequential.h"

#include <map>

#include "opuc/pass/pass_context.h"
#include "opuc/pass/registry.h"
#include "support/format.h"

namespace opuc {
namespace {

/// Tracks, within one Sequential run, when the graph last changed and when
/// each pass last ran, so a required pass is not repeated needlessly.
struct RunState {
  int64_t epoch = 0;                        // bumped whenever a pass changes the graph
  std::map<std::string, int64_t> last_run;  // pass name -> epoch after its run
};

/// Requirements nest (A needs B needs C); deeper than this is a cycle.
constexpr int kMaxRequirementDepth = 16;

Expected<bool> RunInstrumented(Pass& pass, Graph& graph, PassContext& ctx, RunState& state) {
  const PassInfo& info = pass.info();
  for (const auto& instrument : ctx.instruments) instrument->BeforePass(info, graph);
  PassCounters counters;
  Expected<bool> changed = pass.Run(graph, ctx, counters);
  if (!changed.ok()) return changed.status().WithContext("pass " + info.name);
  for (const auto& instrument : ctx.instruments)
    OPUC_RETURN_IF_ERROR(instrument->AfterPass(info, graph, *changed, counters));
  if (*changed) ++state.epoch;
  state.last_run[info.name] = state.epoch;
  return changed;
}

Expected<bool> RunWithRequirements(Pass& pass, Graph& graph, PassContext& ctx, RunState& state,
                                   int depth) {
  const PassInfo& info = pass.info();
  if (depth > kMaxRequirementDepth)
    return InvalidArgument(Cat("the passes required by ", info.name, " form a cycle"));
  bool changed = false;
  for (const std::string& name : info.required) {
    if (ctx.IsDisabled(name))
      return InvalidArgument(Cat("pass ", info.name, " requires ", name, ", which is disabled"));
    auto last = state.last_run.find(name);
    if (last != state.last_run.end() && last->second == state.epoch) continue;  // still valid
    OPUC_ASSIGN_OR_RETURN(std::unique_ptr<Pass> required, CreatePass(name));
    OPUC_ASSIGN_OR_RETURN(bool c, RunWithRequirements(*required, graph, ctx, state, depth + 1));
    changed |= c;
  }
  OPUC_ASSIGN_OR_RETURN(bool c, RunInstrumented(pass, graph, ctx, state));
  return changed || c;
}

}  // namespace

Sequential::Sequential(std::string name, std::vector<std::unique_ptr<Pass>> passes)
    : passes_(std::move(passes)) {
  info_.name = std::move(name);
}

Expected<bool> Sequential::Run(Graph& graph, PassContext& ctx, PassCounters&) {
  OPUC_RETURN_IF_ERROR(ctx.Validate());
  RunState state;
  bool changed = false;
  for (const auto& pass : passes_) {
    if (!ctx.ShouldRun(pass->info())) continue;
    OPUC_ASSIGN_OR_RETURN(bool c, RunWithRequirements(*pass, graph, ctx, state, 0));
    changed |= c;
  }
  return changed;
}

}  // namespace opuc
