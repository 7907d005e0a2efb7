//===- src/ir/macs.cc - MACs of an inner product -------------------===//
#include "opuc/ir/macs.h"

#include <limits>

namespace opuc {
namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

/// The product of `factors`, saturating; 0 when any factor is negative.
int64_t Product(std::initializer_list<int64_t> factors) {
  int64_t p = 1;
  for (int64_t f : factors) {
    if (f < 0) return 0;
    if (f == 0) return 0;
    if (p > kMax / f)
      p = kMax;
    else
      p *= f;
  }
  return p;
}

const Shape* ShapeOf(const Graph& graph, TensorId id) {
  if (id < 0 || static_cast<size_t>(id) >= graph.tensors.size()) return nullptr;
  return &graph.tensor(id).shape;
}

}  // namespace

bool IsInnerProduct(OpKind op) {
  return op == OpKind::kConv2D || op == OpKind::kDepthwiseConv2D ||
         op == OpKind::kTransposeConv2D || op == OpKind::kFullyConnected;
}

int64_t NodeMacs(const Graph& graph, NodeId id) {
  if (id < 0 || static_cast<size_t>(id) >= graph.nodes.size()) return 0;
  const Node& node = graph.node(id);
  if (node.body) {  // a fused function: its ops'
    int64_t macs = 0;
    for (size_t n = 0; n < node.body->nodes.size(); ++n)
      macs += NodeMacs(*node.body, static_cast<NodeId>(n));
    return macs;
  }
  if (node.inputs.size() < 2 || node.outputs.empty()) return 0;
  const Shape* in = ShapeOf(graph, node.inputs[0]);
  const Shape* w = ShapeOf(graph, node.inputs[1]);
  const Shape* out = ShapeOf(graph, node.outputs[0]);
  if (!in || !w || !out) return 0;
  switch (node.op) {
    case OpKind::kConv2D:  // out [N,Ho,Wo,Co], w [Co,Kh,Kw,Ci]
      if (out->size() != 4 || w->size() != 4) return 0;
      return Product({(*out)[0], (*out)[1], (*out)[2], (*out)[3], (*w)[1], (*w)[2], (*w)[3]});
    case OpKind::kDepthwiseConv2D:  // out [N,Ho,Wo,C*M], w [1,Kh,Kw,C*M]
      if (out->size() != 4 || w->size() != 4) return 0;
      return Product({(*out)[0], (*out)[1], (*out)[2], (*out)[3], (*w)[1], (*w)[2]});
    case OpKind::kTransposeConv2D:  // in [N,H,W,Ci], w [Co,Kh,Kw,Ci]
      if (in->size() != 4 || w->size() != 4) return 0;
      return Product({(*in)[0], (*in)[1], (*in)[2], (*in)[3], (*w)[1], (*w)[2], (*w)[0]});
    case OpKind::kFullyConnected: {  // w [Co,Ci]; rows = elements / Ci
      if (w->size() != 2) return 0;
      const std::optional<int64_t> elements = NumElements(*in);
      if (!elements || (*w)[1] <= 0 || *elements % (*w)[1] != 0) return 0;
      return Product({*elements, (*w)[0]});
    }
    default: return 0;
  }
}

int64_t I16Passes(const Graph& graph, NodeId id, bool reads_whole) {
  const Node& node = graph.node(id);
  const bool wide_window = node.op == OpKind::kDepthwiseConv2D && node.inputs.size() > 1 &&
                           graph.tensor(node.inputs[1]).shape.size() == 4 &&
                           graph.tensor(node.inputs[1]).shape[2] > kI16WindowTaps;
  return reads_whole && !wide_window ? 1 : 2;
}

}  // namespace opuc
