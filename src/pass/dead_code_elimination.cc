//===- src/pass/dead_code_elimination.cc - Drop what no output needs ------===//
//
// Walks the nodes backwards from the graph outputs: a node is live when one
// of its outputs is read by a live node or is a graph output. Dead nodes go,
// and so do the constants and tensors only they used. Graph inputs stay,
// read or not: they are the graph's interface.
//
//===----------------------------------------------------------------------===//
#include "opuc/ir/graph_edit.h"
#include "passes.h"

namespace opuc {
namespace {

Expected<bool> DeadCodeElimination(Graph& graph, PassContext&, PassCounters& counters) {
  std::vector<bool> live_tensor(graph.tensors.size(), false);
  for (TensorId out : graph.outputs) live_tensor[static_cast<size_t>(out)] = true;
  std::vector<bool> dead(graph.nodes.size(), true);
  size_t removed_nodes = 0;
  for (size_t n = graph.nodes.size(); n-- > 0;) {
    const Node& node = graph.nodes[n];
    for (TensorId out : node.outputs)
      if (live_tensor[static_cast<size_t>(out)]) dead[n] = false;
    if (dead[n]) {
      ++removed_nodes;
      continue;
    }
    for (TensorId in : node.inputs)
      if (in != kNoTensor) live_tensor[static_cast<size_t>(in)] = true;
  }
  if (removed_nodes) EraseNodes(graph, dead);
  const size_t removed_tensors = RemoveUnusedTensors(graph);
  if (removed_nodes) counters.Add("nodes removed", static_cast<int64_t>(removed_nodes));
  if (removed_tensors) counters.Add("tensors removed", static_cast<int64_t>(removed_tensors));
  return removed_nodes + removed_tensors > 0;
}

}  // namespace

std::unique_ptr<Pass> CreateDeadCodeEliminationPass() {
  return MakeFunctionPass({"DeadCodeElimination", 1, {}}, DeadCodeElimination);
}

}  // namespace opuc
