//===- src/pass/channel_affine.cc - Per-channel constants after inner products ===//
#include "channel_affine.h"

#include <cstring>

#include "opuc/ir/graph_edit.h"
#include "opuc/ir/macs.h"
#include "opuc/ir/op_attrs.h"

namespace opuc {
namespace {

bool IsF32Constant(const Graph& graph, TensorId id) {
  if (id == kNoTensor) return true;  // an absent bias is fine
  const Tensor& t = graph.tensor(id);
  return t.is_constant() && !t.sparsity && t.dtype == DType::kF32;
}

/// The constant's values spread over `channels`, if it varies at most along
/// the last axis of `out_shape` and broadcasting it leaves that shape alone.
std::optional<std::vector<float>> PerChannel(const Tensor& c, const Shape& out_shape) {
  if (c.shape.size() > out_shape.size() || out_shape.empty()) return std::nullopt;
  for (size_t i = 0; i + 1 < c.shape.size(); ++i)
    if (c.shape[i] != 1) return std::nullopt;
  const int64_t channels = out_shape.back();
  const int64_t last = c.shape.empty() ? 1 : c.shape.back();
  if (last != 1 && last != channels) return std::nullopt;
  const std::vector<float> values = ConstantValues(c);
  std::vector<float> per_channel(static_cast<size_t>(channels));
  for (int64_t ch = 0; ch < channels; ++ch)
    per_channel[static_cast<size_t>(ch)] = values[last == 1 ? 0 : static_cast<size_t>(ch)];
  return per_channel;
}

}  // namespace

std::vector<float> ConstantValues(const Tensor& tensor) {
  std::vector<float> values(tensor.constant->size() / sizeof(float));
  if (!values.empty()) std::memcpy(values.data(), tensor.constant->data(), tensor.constant->size());
  return values;
}

std::optional<ChannelAffine> MatchChannelAffine(const Graph& graph, NodeId consumer,
                                                const std::vector<NodeId>& producer,
                                                const std::vector<int>& uses) {
  const Node& node = graph.node(consumer);
  if (node.op != OpKind::kMul && node.op != OpKind::kAdd && node.op != OpKind::kSub)
    return std::nullopt;
  // The inner product is the lhs, or the rhs of a commutative op.
  for (size_t side = 0; side < 2; ++side) {
    if (side == 1 && node.op == OpKind::kSub) break;
    const TensorId x = node.inputs[side];
    const TensorId c = node.inputs[1 - side];
    const NodeId p = producer[static_cast<size_t>(x)];
    if (p < 0) continue;
    const Node& ip = graph.node(p);
    if (!IsInnerProduct(ip.op) || FusedActivation(ip.attrs) != Activation::kNone) continue;
    if (uses[static_cast<size_t>(x)] != 1 || IsGraphOutput(graph, x)) continue;
    const TensorId bias = ip.inputs.size() > 2 ? ip.inputs[2] : kNoTensor;
    if (!IsF32Constant(graph, ip.inputs[1]) || !IsF32Constant(graph, bias)) continue;
    if (c == kNoTensor || !IsF32Constant(graph, c) || graph.tensor(x).dtype != DType::kF32)
      continue;
    std::optional<std::vector<float>> values = PerChannel(graph.tensor(c), graph.tensor(x).shape);
    if (!values) continue;
    return ChannelAffine{p, consumer, std::move(*values)};
  }
  return std::nullopt;
}

void ReplaceWithConstant(Graph& graph, NodeId node, size_t index, const std::string& name,
                         Shape shape, const std::vector<float>& values) {
  const TensorId id =
      graph.AddConstant(UniqueTensorName(graph, name), DType::kF32, std::move(shape),
                        ConstantData::Copy(values.data(), values.size() * sizeof(float)));
  Node& n = graph.nodes[static_cast<size_t>(node)];
  if (n.inputs.size() <= index) n.inputs.resize(index + 1, kNoTensor);
  n.inputs[index] = id;
}

void BypassConsumer(Graph& graph, const ChannelAffine& match, std::vector<bool>& erase) {
  Node& consumer = graph.nodes[static_cast<size_t>(match.consumer)];
  Node& ip = graph.nodes[static_cast<size_t>(match.inner_product)];
  ip.outputs = consumer.outputs;
  SetFusedActivation(ip.attrs, FusedActivation(consumer.attrs));
  erase[static_cast<size_t>(match.consumer)] = true;
}

int64_t FoldAllChannelAffine(Graph& graph, bool (*takes)(OpKind consumer),
                             void (*fold)(Graph&, const ChannelAffine&, std::vector<bool>& erase)) {
  int64_t total = 0;
  for (bool folded = true; folded;) {
    folded = false;
    const std::vector<NodeId> producer = graph.Producers();
    const std::vector<int> uses = CountUses(graph);
    std::vector<bool> erase(graph.nodes.size(), false);
    std::vector<bool> touched(graph.nodes.size(), false);
    for (size_t n = 0; n < graph.nodes.size(); ++n) {
      if (!takes(graph.nodes[n].op)) continue;
      auto match = MatchChannelAffine(graph, static_cast<NodeId>(n), producer, uses);
      if (!match || touched[static_cast<size_t>(match->inner_product)]) continue;
      touched[static_cast<size_t>(match->inner_product)] = true;
      fold(graph, *match, erase);
      ++total;
      folded = true;
    }
    if (!folded) break;
    EraseNodes(graph, erase);
    RemoveUnusedTensors(graph);
  }
  return total;
}

}  // namespace opuc
