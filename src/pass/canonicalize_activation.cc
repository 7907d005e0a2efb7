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
#include "opuc/ir/graph_edit.h"
#include "opuc/ir/op_attrs.h"
#include "passes.h"

namespace opuc {
namespace {

OpKind ActivationOp(Activation activation) {
  switch (activation) {
    case Activation::kRelu: return OpKind::kRelu;
    case Activation::kRelu6: return OpKind::kRelu6;
    case Activation::kReluN1To1: return OpKind::kReluN1To1;
    case Activation::kTanh: return OpKind::kTanh;
    case Activation::kNone: break;
  }
  return OpKind::kRelu;  // not reached: kNone is never split
}

Expected<bool> CanonicalizeActivation(Graph& graph, PassContext&, PassCounters& counters) {
  std::vector<Node> nodes;
  nodes.reserve(graph.nodes.size());
  bool changed = false;
  for (Node& node : graph.nodes) {
    const Activation activation = FusedActivation(node.attrs);
    if (activation == Activation::kNone) {
      nodes.push_back(std::move(node));
      continue;
    }
    const std::string name(ActivationName(activation));
    if (node.outputs.size() != 1)
      return Unsupported("node '" + node.name + "': cannot make activation '" + name +
                         "' explicit");
    const TensorId out = node.outputs[0];
    Tensor pre = graph.tensor(out);
    pre.name = UniqueTensorName(graph, pre.name + "/pre_activation");
    const TensorId pre_id = graph.AddTensor(std::move(pre));

    Node act;
    act.op = ActivationOp(activation);
    act.name = node.name + "/" + name;
    act.inputs = {pre_id};
    act.outputs = {out};
    node.outputs = {pre_id};
    SetFusedActivation(node.attrs, Activation::kNone);
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
