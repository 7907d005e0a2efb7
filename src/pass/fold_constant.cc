//===- src/pass/fold_constant.cc - Evaluate constant subgraphs ------------===//
//
// TVM's FoldConstant (seed 004): a node whose inputs are all constants is
// evaluated now, with the float reference kernels, and becomes a constant.
// No op in opuc's IR has state, so the only exclusions are nodes without
// inputs and results above FoldConstant.max_output_bytes.
//
//===----------------------------------------------------------------------===//
#include "fold_util.h"
#include "opuc/pass/pass_context.h"
#include "passes.h"

namespace opuc {
namespace {

Expected<bool> FoldConstant(Graph& graph, PassContext& ctx, PassCounters& counters) {
  OPUC_ASSIGN_OR_RETURN(int64_t folded, FoldConstantNodes(
                                            graph, [](const Node&) { return true; },
                                            ctx.config.GetInt("FoldConstant.max_output_bytes")));
  if (folded) counters.Add("nodes folded", folded);
  return folded > 0;
}

}  // namespace

std::unique_ptr<Pass> CreateFoldConstantPass() {
  return MakeFunctionPass({"FoldConstant", 2, {}}, FoldConstant);
}

}  // namespace opuc
