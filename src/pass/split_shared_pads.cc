//===- src/pass/split_shared_pads.cc - A pad for each convolution that reads it ===//
//
//   p = pad(x); a = conv(p); b = conv(p)
//     =>  a = conv(pad(x)); b = conv(pad'(x))
//
// The OPU pads a convolution's input as its loads write the feature-map
// buffer, for nothing; a pad that two convolutions read is instead a value
// of its own, which the datapath must pass through the array and store
// (docs/hdfg.md: a group stores only what enters a pool or an upsample).
// Each convolution after the first gets a copy of the pad, right after it
// in the node order; the copy reads the same input, so the values are the
// same bits. Only where every reader is a convolution reading the pad as
// its feature map and the pad is no graph output.
//
//===----------------------------------------------------------------------===//
#include <string>
#include <utility>
#include <vector>

#include "opuc/ir/graph_edit.h"
#include "passes.h"

namespace opuc {
namespace {

bool IsConvolution(OpKind op) { return op == OpKind::kConv2D || op == OpKind::kDepthwiseConv2D; }

/// Every node reading `t` if each reads it as its feature map (input 0)
/// only and is a convolution; else none. `uses[t]`: (node, input) pairs.
std::vector<NodeId> ConvolutionReaders(
    const Graph& graph, const std::vector<std::vector<std::pair<NodeId, size_t>>>& uses,
    TensorId t) {
  std::vector<NodeId> readers;
  for (const auto& [n, k] : uses[static_cast<size_t>(t)]) {
    if (k != 0 || !IsConvolution(graph.node(n).op)) return {};
    readers.push_back(n);
  }
  return readers;
}

Expected<bool> SplitSharedPads(Graph& graph, PassContext&, PassCounters& counters) {
  std::vector<std::vector<std::pair<NodeId, size_t>>> uses(graph.tensors.size());
  for (size_t n = 0; n < graph.nodes.size(); ++n)
    for (size_t k = 0; k < graph.nodes[n].inputs.size(); ++k)
      if (graph.nodes[n].inputs[k] != kNoTensor)
        uses[static_cast<size_t>(graph.nodes[n].inputs[k])].emplace_back(static_cast<NodeId>(n), k);
  // Per node, the copies to place right after it.
  std::vector<std::vector<Node>> copies(graph.nodes.size());
  bool changed = false;
  for (size_t n = 0; n < graph.nodes.size(); ++n) {
    if (graph.nodes[n].op != OpKind::kPad || IsGraphOutput(graph, graph.nodes[n].outputs[0]))
      continue;
    const Node pad = graph.nodes[n];  // a copy: AddTensor and the rewiring touch the graph
    const std::vector<NodeId> readers = ConvolutionReaders(graph, uses, pad.outputs[0]);
    for (size_t r = 1; r < readers.size(); ++r) {
      Node& reader = graph.nodes[static_cast<size_t>(readers[r])];
      Tensor value = graph.tensor(pad.outputs[0]);
      value.name = UniqueTensorName(graph, value.name + "/for/" + reader.name);
      const TensorId out = graph.AddTensor(std::move(value));
      Node copy = pad;
      copy.name = graph.tensor(out).name;
      copy.outputs = {out};
      copies[n].push_back(std::move(copy));
      reader.inputs[0] = out;
      counters.Add("pads copied for a second reader");
      changed = true;
    }
  }
  if (!changed) return false;
  std::vector<Node> nodes;
  for (size_t n = 0; n < graph.nodes.size(); ++n) {
    nodes.push_back(std::move(graph.nodes[n]));
    for (Node& copy : copies[n]) nodes.push_back(std::move(copy));
  }
  graph.nodes = std::move(nodes);
  return true;
}

}  // namespace

std::unique_ptr<Pass> CreateSplitSharedPadsPass() {
  return MakeFunctionPass({"SplitSharedPads", 1, {}}, SplitSharedPads);
}

}  // namespace opuc
