//===- src/pass/densify.cc - Sparse constants to dense ones ---------------===//
//
// A DENSIFY node whose input is a sparse constant becomes the dense constant
// (decoded by DensifyConstant, sparsity.h); the sparse one is dropped when
// nothing else reads it.
//
//===----------------------------------------------------------------------===//
#include "opuc/ir/graph_edit.h"
#include "opuc/ir/sparsity.h"
#include "passes.h"

namespace opuc {
namespace {

Expected<bool> Densify(Graph& graph, PassContext&, PassCounters& counters) {
  std::vector<bool> erase(graph.nodes.size(), false);
  int64_t densified = 0;
  for (size_t n = 0; n < graph.nodes.size(); ++n) {
    const Node& node = graph.nodes[n];
    if (node.op != OpKind::kDensify) continue;
    const Tensor& input = graph.tensor(node.inputs[0]);
    if (!input.is_constant()) continue;
    ConstantData dense;
    if (input.sparsity) {
      Expected<ConstantData> decoded = DensifyConstant(input);
      if (!decoded.ok())
        return decoded.status().WithContext(DescribeNode(graph, static_cast<NodeId>(n)));
      dense = std::move(decoded).value();
    } else {
      dense = *input.constant;  // already dense: share the bytes
    }
    graph.tensor(node.outputs[0]).constant = std::move(dense);
    erase[n] = true;
    ++densified;
  }
  if (densified == 0) return false;
  EraseNodes(graph, erase);
  RemoveUnusedTensors(graph);
  counters.Add("constants densified", densified);
  return true;
}

}  // namespace

std::unique_ptr<Pass> CreateDensifyPass() { return MakeFunctionPass({"Densify", 0, {}}, Densify); }

}  // namespace opuc
