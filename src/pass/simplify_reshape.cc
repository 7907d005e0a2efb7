//===- src/pass/simplify_reshape.cc - Remove data movement that moves nothing ===//
//
//   reshape(reshape(x, s1), s2)  =>  reshape(x, s2)
//   reshape(x, shape of x)       =>  x
//   pad(x, all zeros)            =>  x
//
// A node is only bypassed when its output is not a graph output (the output
// keeps its name) and nodes it leaves unread are removed with it.
//
//===----------------------------------------------------------------------===//
#include <algorithm>

#include "opuc/ir/graph_edit.h"
#include "opuc/ir/op_attrs.h"
#include "passes.h"

namespace opuc {
namespace {

bool IsIdentity(const Graph& graph, const Node& node) {
  const Tensor& in = graph.tensor(node.inputs[0]);
  if (node.op == OpKind::kReshape) return in.shape == ReshapeAttrs::Of(node.attrs).new_shape;
  if (node.op != OpKind::kPad) return false;
  const Ints pads = PadAttrs::Of(node.attrs).pads;
  return std::all_of(pads.begin(), pads.end(), [](int64_t p) { return p == 0; });
}

bool IsMovement(const Node& node) { return node.op == OpKind::kReshape || node.op == OpKind::kPad; }

Expected<bool> SimplifyReshape(Graph& graph, PassContext&, PassCounters& counters) {
  const std::vector<NodeId> producer = graph.Producers();
  // Tensors that lost a reader here; their producers may now be unread.
  std::vector<bool> touched(graph.tensors.size(), false);
  bool changed = false;
  for (Node& node : graph.nodes) {
    if (node.op != OpKind::kReshape) continue;
    const NodeId p = producer[static_cast<size_t>(node.inputs[0])];
    if (p < 0 || graph.nodes[static_cast<size_t>(p)].op != OpKind::kReshape) continue;
    touched[static_cast<size_t>(node.inputs[0])] = true;
    node.inputs[0] = graph.nodes[static_cast<size_t>(p)].inputs[0];  // skip the inner reshape
    counters.Add("reshape chains shortened");
    changed = true;
  }
  for (const Node& node : graph.nodes) {
    if (!IsMovement(node) || IsGraphOutput(graph, node.outputs[0]) || !IsIdentity(graph, node))
      continue;
    ReplaceUses(graph, node.outputs[0], node.inputs[0]);
    touched[static_cast<size_t>(node.outputs[0])] = true;
    counters.Add(node.op == OpKind::kPad ? "zero pads removed" : "identity reshapes removed");
    changed = true;
  }
  if (!changed) return false;
  // Remove the reshapes and pads this left unread, consumers first so that
  // whole chains go; other dead code is DeadCodeElimination's business.
  std::vector<int> uses = CountUses(graph);
  std::vector<bool> erase(graph.nodes.size(), false);
  for (size_t n = graph.nodes.size(); n-- > 0;) {
    const Node& node = graph.nodes[n];
    const auto out = static_cast<size_t>(node.outputs[0]);
    if (!IsMovement(node) || !touched[out] || uses[out] != 0) continue;
    erase[n] = true;
    const auto in = static_cast<size_t>(node.inputs[0]);
    --uses[in];
    touched[in] = true;
  }
  EraseNodes(graph, erase);
  RemoveUnusedTensors(graph);
  return true;
}

}  // namespace

std::unique_ptr<Pass> CreateSimplifyReshapePass() {
  return MakeFunctionPass({"SimplifyReshape", 1, {}}, SimplifyReshape);
}

}  // namespace opuc
