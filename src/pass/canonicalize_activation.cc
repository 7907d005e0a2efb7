//===- src/pass/canonicalize_activation.cc - Fused activations as nodes ---===//
//
// TFLite fuses an activation into conv, pool, add, concat, ... through an
// attribute. Fusion (generic and hardware) reasons about ops, so each fused
// activation becomes its own node after the op:
//
//   %y = conv2d(%x, %w, %b) {activation="relu"}
//     =>
//   %y/pre_activation = conv2d(%x, %w, %b) {activation="none"}
//   %y = relu(%y/pre_activation)
//
// The activation node writes the original tensor, so consumers and graph
// outputs keep their names.
//
//===----------------------------------------------------------------------===//
#include <optional>

#include "opuc/ir/graph_edit.h"
#include "passes.h"

namespace opuc {
namespace {

std::optional<OpKind> ActivationOp(const std::string& activation) {
  if (activation == "relu") return OpKind::kRelu;
  if (activation == "relu6") return OpKind::kRelu6;
  if (activation == "relu_n1_to_1") return OpKind::kReluN1To1;
  if (activation == "tanh") return OpKind::kTanh;
  return std::nullopt;
}

Expected<bool> CanonicalizeActivation(Graph& graph, PassContext&, PassCounters& counters) {
  std::vector<Node> nodes;
  nodes.reserve(graph.nodes.size());
  bool changed = false;
  for (Node& node : graph.nodes) {
    const AttrValue* value = node.attrs.Find("activation");
    const std::string activation = node.attrs.GetString("activation", "none");
    if (!value || activation == "none") {
      nodes.push_back(std::move(node));
      continue;
    }
    std::optional<OpKind> op = ActivationOp(activation);
    if (!op || node.outputs.size() != 1)
      return Unsupported("node '" + node.name + "': cannot make activation '" + activation +
                         "' explicit");
    const TensorId out = node.outputs[0];
    Tensor pre = graph.tensor(out);
    pre.name = UniqueTensorName(graph, pre.name + "/pre_activation");
    const TensorId pre_id = graph.AddTensor(std::move(pre));

    Node act;
    act.op = *op;
    act.name = node.name + "/" + activation;
    act.inputs = {pre_id};
    act.outputs = {out};
    node.outputs = {pre_id};
    node.attrs.Set("activation", std::string("none"));
    nodes.push_back(std::move(node));
    nodes.push_back(std::move(act));
    counters.Add("activations made explicit");
    changed = true;
  }
  graph.nodes = std::move(nodes);
  return changed;
}

}  // namespace

std::unique_ptr<Pass> CreateCanonicalizeActivationPass() {
  return MakeFunctionPass({"CanonicalizeActivation", 0, {}}, CanonicalizeActivation);
}

}  // namespace opuc
