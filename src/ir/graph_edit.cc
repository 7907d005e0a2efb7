//===- src/ir/graph_edit.cc - Small rewrites passes share -----------------===//
#include "opuc/ir/graph_edit.h"

#include <algorithm>
#include <unordered_set>

namespace opuc {

std::vector<int> CountUses(const Graph& graph) {
  std::vector<int> uses(graph.tensors.size(), 0);
  for (const Node& node : graph.nodes)
    for (TensorId in : node.inputs)
      if (in != kNoTensor) ++uses[static_cast<size_t>(in)];
  for (TensorId out : graph.outputs) ++uses[static_cast<size_t>(out)];
  return uses;
}

bool IsGraphOutput(const Graph& graph, TensorId id) {
  return std::find(graph.outputs.begin(), graph.outputs.end(), id) != graph.outputs.end();
}

void ReplaceUses(Graph& graph, TensorId from, TensorId to) {
  for (Node& node : graph.nodes) std::replace(node.inputs.begin(), node.inputs.end(), from, to);
  std::replace(graph.outputs.begin(), graph.outputs.end(), from, to);
}

void EraseNodes(Graph& graph, const std::vector<bool>& erase) {
  size_t kept = 0;
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    if (erase[i]) continue;
    if (kept != i) graph.nodes[kept] = std::move(graph.nodes[i]);  // never self-move
    ++kept;
  }
  graph.nodes.resize(kept);
}

size_t RemoveUnusedTensors(Graph& graph) {
  std::vector<bool> keep(graph.tensors.size(), false);
  auto mark = [&](TensorId id) {
    if (id != kNoTensor) keep[static_cast<size_t>(id)] = true;
  };
  for (const Node& node : graph.nodes) {
    for (TensorId id : node.inputs) mark(id);
    for (TensorId id : node.outputs) mark(id);
  }
  for (TensorId id : graph.inputs) mark(id);
  for (TensorId id : graph.outputs) mark(id);

  std::vector<TensorId> new_id(graph.tensors.size(), kNoTensor);
  size_t kept = 0;
  for (size_t i = 0; i < graph.tensors.size(); ++i) {
    if (!keep[i]) continue;
    new_id[i] = static_cast<TensorId>(kept);
    if (kept != i) graph.tensors[kept] = std::move(graph.tensors[i]);  // never self-move
    ++kept;
  }
  const size_t removed = graph.tensors.size() - kept;
  if (removed == 0) return 0;
  graph.tensors.resize(kept);
  auto remap = [&](TensorId& id) {
    if (id != kNoTensor) id = new_id[static_cast<size_t>(id)];
  };
  for (Node& node : graph.nodes) {
    for (TensorId& id : node.inputs) remap(id);
    for (TensorId& id : node.outputs) remap(id);
  }
  for (TensorId& id : graph.inputs) remap(id);
  for (TensorId& id : graph.outputs) remap(id);
  return removed;
}

std::string UniqueTensorName(const Graph& graph, std::string_view base) {
  std::unordered_set<std::string_view> names;
  for (const Tensor& t : graph.tensors) names.insert(t.name);
  std::string name(base);
  for (int suffix = 1; names.count(name); ++suffix)
    name = std::string(base) + "_" + std::to_string(suffix);
  return name;
}

}  // namespace opuc
