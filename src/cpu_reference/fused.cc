//===- src/cpu_reference/fused.cc - FUSED (a FuseOps function) ------------===//
//
// Runs the node's body with the node's inputs as the body's inputs: the ops
// inside compute exactly what they compute outside, so fusing a graph never
// changes what the reference gives.
//
//===----------------------------------------------------------------------===//
#include "kernel.h"
#include "opuc/cpu_reference/reference.h"
#include "opuc/ir/graph.h"

namespace opuc::reference {

Status EvalFused(KernelContext& ctx) {
  const Graph* body = ctx.node().body.get();
  if (!body) return InvalidArgument("has no body (a fused node carries its function)");
  std::vector<HostTensor> args;
  args.reserve(ctx.num_inputs());
  for (size_t i = 0; i < ctx.num_inputs(); ++i) {
    if (!ctx.input(i)) return InvalidArgument("an argument of a fused node is absent");
    args.push_back(*ctx.input(i));  // views stay views; owned values are copied
  }
  OPUC_ASSIGN_OR_RETURN(std::vector<HostTensor> results, RunReference(*body, args));
  if (results.size() != 1) return InternalError("a fused body gave other than one result");
  return ctx.SetOutput(0, std::move(results[0]));
}

}  // namespace opuc::reference
