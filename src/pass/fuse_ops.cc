//===- src/pass/fuse_ops.cc - FuseOps: fuse ops into CPU functions --------===//
//
// TVM's FuseOps as a pass (src/fusion/ does the work; docs/fusion.md):
// registered at opt level 0 like TVM's, but at opt level 0 it fuses nothing,
// and it needs InferShape (the edge patterns compare shapes). Options:
// FuseOps.max_depth and FuseOps.max_function_args (config_options.def).
//
//===----------------------------------------------------------------------===//
#include "opuc/fusion/fuse_mutator.h"
#include "opuc/pass/pass_context.h"
#include "passes.h"

namespace opuc {
namespace {

void Count(PassCounters& counters, std::string_view what, int64_t count) {
  if (count > 0) counters.Add(what, count);
}

Expected<bool> FuseOpsPass(Graph& graph, PassContext& ctx, PassCounters& counters) {
  FuseOptions options;
  options.opt_level = ctx.opt_level;
  options.max_fuse_depth = ctx.config.GetInt("FuseOps.max_depth");
  options.max_function_args = ctx.config.GetInt("FuseOps.max_function_args");
  Partition partition;
  OPUC_ASSIGN_OR_RETURN(FuseCounts counts, FuseOps(graph, options, &partition));
  int64_t refused_depth = 0, refused_args = 0;
  for (const FuseDecision& decision : partition.decisions) {
    refused_depth += decision.reason == FuseReason::kMaxFuseDepth;
    refused_args += decision.reason == FuseReason::kMaxFunctionArgs;
  }
  Count(counters, "fused nodes", counts.fused_nodes);
  Count(counters, "ops fused", counts.ops_fused);
  Count(counters, "fusions refused by max_depth", refused_depth);
  Count(counters, "fusions refused by max_function_args", refused_args);
  return counts.fused_nodes > 0;
}

}  // namespace

std::unique_ptr<Pass> CreateFuseOpsPass() {
  return MakeFunctionPass({"FuseOps", 0, {"InferShape"}}, FuseOpsPass);
}

}  // namespace opuc
