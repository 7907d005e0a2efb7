//===- src/quant/split_weights.cc - 16-bit weights as two 8-bit inner products ===//
#include "split_weights.h"

#include <cmath>

#include "opuc/ir/graph_edit.h"
#include "opuc/ir/verifier.h"
#include "opuc/tensor_io/host_tensor.h"
#include "support/format.h"
#include "weights.h"

namespace opuc::quant {
namespace {

bool Splittable(const Graph& graph, const Node& node) {
  if (node.op != OpKind::kConv2D && node.op != OpKind::kDepthwiseConv2D &&
      node.op != OpKind::kTransposeConv2D && node.op != OpKind::kFullyConnected)
    return false;
  const Tensor& w = graph.tensor(node.inputs[1]);
  return w.is_constant() && !w.sparsity && w.dtype == DType::kF32;
}

/// The weights' high and low parts, channel by channel (the output channel
/// is the first axis, a depthwise conv's the last).
struct Parts {
  std::vector<float> high, low;
};

Parts SplitValues(const float* w, int64_t count, int64_t channels, bool channel_last) {
  Parts parts{std::vector<float>(static_cast<size_t>(count)),
              std::vector<float>(static_cast<size_t>(count))};
  const int64_t per_channel = count / channels;
  for (int64_t c = 0; c < channels; ++c) {
    const int64_t first = channel_last ? c : c * per_channel, stride = channel_last ? channels : 1;
    const int f = NoClipBits(w + first, per_channel, stride, kMinWeightBits, kMaxWeightBits);
    for (int64_t i = 0; i < per_channel; ++i) {
      const auto k = static_cast<size_t>(first + i * stride);
      const double q = std::floor(std::ldexp(static_cast<double>(w[k]), f) + 0.5);  // no clip at f
      parts.high[k] = static_cast<float>(std::ldexp(q, -f));                        // exact: 8 bits
      parts.low[k] = w[k] - parts.high[k];
    }
  }
  return parts;
}

TensorId AddPartialSum(Graph& graph, TensorId like, const std::string& suffix) {
  Tensor sum;
  sum.name = UniqueTensorName(graph, graph.tensor(like).name + suffix);
  sum.dtype = DType::kF32;
  sum.shape = graph.tensor(like).shape;
  return graph.AddTensor(std::move(sum));
}

}  // namespace

Expected<std::vector<SplitLayer>> SplitWeights(Graph& graph, const std::set<std::string>* only) {
  std::vector<Node> nodes;
  std::vector<SplitLayer> layers;
  for (Node& node : graph.nodes) {
    if (!Splittable(graph, node) || (only && only->count(node.name) == 0)) {
      nodes.push_back(std::move(node));
      continue;
    }
    const Tensor weights = graph.tensor(node.inputs[1]);
    OPUC_ASSIGN_OR_RETURN(const HostTensor w, HostTensor::FromConstant(weights));
    const bool depthwise = node.op == OpKind::kDepthwiseConv2D;
    const int64_t channels = depthwise ? weights.shape.back() : weights.shape.front();
    if (channels <= 0 || w.elements() % channels != 0)
      return InvalidArgument(
          Cat("weights '", weights.name, "' do not split into ", channels, " output channels"));
    const Parts parts = SplitValues(w.data<float>(), w.elements(), channels, depthwise);
    const auto constant = [&](const std::vector<float>& values, const char* suffix) {
      return graph.AddConstant(UniqueTensorName(graph, weights.name + suffix), DType::kF32,
                               weights.shape,
                               ConstantData::Copy(values.data(), values.size() * sizeof(float)));
    };
    const TensorId output = node.outputs[0];
    Node high = node, low = node, sum;
    high.name += "/high";
    high.inputs[1] = constant(parts.high, "/high");
    high.outputs = {AddPartialSum(graph, output, "/high")};
    high.attrs.Erase("activation");  // AddNode restores the default: none
    low.name += "/low";
    low.inputs = {node.inputs[0], constant(parts.low, "/low")};  // the bias is high's
    low.outputs = {AddPartialSum(graph, output, "/low")};
    low.attrs.Erase("activation");
    sum.op = OpKind::kAdd;
    sum.name = node.name + "/sum";
    sum.inputs = {high.outputs[0], low.outputs[0]};
    sum.outputs = {output};
    if (const AttrValue* activation = node.attrs.Find("activation"))
      sum.attrs.Set("activation", *activation);
    const auto next = static_cast<NodeId>(nodes.size());
    layers.push_back({next, next + 1});
    nodes.push_back(std::move(high));
    nodes.push_back(std::move(low));
    nodes.push_back(std::move(sum));
  }
  graph.nodes.clear();
  for (Node& node : nodes) graph.AddNode(std::move(node));
  RemoveUnusedTensors(graph);
  Status verified = Verify(graph);
  if (!verified.ok()) return verified.WithContext("the graph with split weights");
  return layers;
}

std::vector<TensorId> PartialSums(const Graph& graph, const std::vector<SplitLayer>& layers) {
  std::vector<TensorId> sums;
  for (const SplitLayer& layer : layers) {
    sums.push_back(graph.node(layer.high).outputs[0]);
    sums.push_back(graph.node(layer.low).outputs[0]);
  }
  return sums;
}

}  // namespace opuc::quant
