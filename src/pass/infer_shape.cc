//===- src/pass/infer_shape.cc - Recompute every output type --------------===//
//
// Sets each node's output dtypes and shapes to what the op registry infers
// from its inputs, in topological order, so a rewrite upstream (a folded
// reshape, a new input shape) propagates. Errors name the node.
//
//===----------------------------------------------------------------------===//
#include "opuc/ir/op_registry.h"
#include "passes.h"

namespace opuc {
namespace {

Expected<bool> InferShape(Graph& graph, PassContext&, PassCounters& counters) {
  bool changed = false;
  for (size_t n = 0; n < graph.nodes.size(); ++n) {
    const Node& node = graph.nodes[n];
    InferContext ctx;
    ctx.attrs = &node.attrs;
    ctx.body = node.body.get();
    for (TensorId in : node.inputs)
      ctx.inputs.push_back(in == kNoTensor ? nullptr : &graph.tensor(in));
    for (TensorId out : node.outputs) ctx.outputs.push_back(&graph.tensor(out));
    Expected<std::vector<TensorType>> types = InferOutputTypes(node.op, ctx);
    if (!types.ok()) return types.status().WithContext(DescribeNode(graph, static_cast<NodeId>(n)));
    for (size_t i = 0; i < node.outputs.size() && i < types->size(); ++i) {
      Tensor& out = graph.tensor(node.outputs[i]);
      const TensorType& want = (*types)[i];
      if (out.dtype == want.dtype && out.shape == want.shape) continue;
      out.dtype = want.dtype;
      out.shape = want.shape;
      counters.Add("tensor types updated");
      changed = true;
    }
  }
  return changed;
}

}  // namespace

std::unique_ptr<Pass> CreateInferShapePass() {
  return MakeFunctionPass({"InferShape", 0, {}}, InferShape);
}

}  // namespace opuc
