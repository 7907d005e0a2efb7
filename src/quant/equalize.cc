//===- src/quant/equalize.cc - Cross-layer channel equalization -----------===//
#include "equalize.h"

#include <algorithm>
#include <cmath>
#include <map>

#include "opuc/cpu/executor.h"
#include "opuc/ir/graph_edit.h"
#include "opuc/ir/op_attrs.h"

namespace opuc::quant {
namespace {

struct Pair {
  NodeId producer = -1, consumer = -1;
  TensorId feed = kNoTensor;  ///< What the consumer reads: A's output or the relu's.
  int64_t channels = 0;
};

bool IsConv(OpKind op) { return op == OpKind::kConv2D || op == OpKind::kDepthwiseConv2D; }

/// Ops with f(x / s) = f(x) / s for s > 0, per channel.
bool CommutesWithScale(const Node& node) {
  return node.op == OpKind::kRelu || node.op == OpKind::kLeakyRelu || node.op == OpKind::kPRelu;
}

bool IsFloatConstant(const Graph& g, TensorId t) {
  return t != kNoTensor && g.tensor(t).is_constant() && !g.tensor(t).sparsity &&
         g.tensor(t).dtype == DType::kF32;
}

std::vector<Pair> FindPairs(const Graph& g) {
  std::vector<std::vector<NodeId>> readers(g.tensors.size());
  for (size_t k = 0; k < g.nodes.size(); ++k)
    for (TensorId t : g.nodes[k].inputs)
      if (t != kNoTensor) readers[static_cast<size_t>(t)].push_back(static_cast<NodeId>(k));
  auto only_reader = [&](TensorId t) -> NodeId {
    const auto& r = readers[static_cast<size_t>(t)];
    return r.size() == 1 && !IsGraphOutput(g, t) ? r[0] : -1;
  };
  std::vector<Pair> pairs;
  for (size_t k = 0; k < g.nodes.size(); ++k) {
    const Node& a = g.nodes[k];
    if (!IsConv(a.op) || !IsFloatConstant(g, a.inputs[1])) continue;
    if (a.inputs.size() > 2 && a.inputs[2] != kNoTensor && !IsFloatConstant(g, a.inputs[2]))
      continue;
    const Activation act = FusedActivation(a.attrs);
    if (act != Activation::kNone && act != Activation::kRelu) continue;
    Pair pair;
    pair.producer = static_cast<NodeId>(k);
    pair.feed = a.outputs[0];
    NodeId next = only_reader(pair.feed);
    if (next >= 0 && CommutesWithScale(g.node(next)) && g.node(next).inputs[0] == pair.feed) {
      pair.feed = g.node(next).outputs[0];
      next = only_reader(pair.feed);
    }
    if (next < 0) continue;
    const Node& b = g.node(next);
    if (!IsConv(b.op) || b.inputs[0] != pair.feed || !IsFloatConstant(g, b.inputs[1])) continue;
    pair.consumer = next;
    pair.channels = g.tensor(pair.feed).shape.back();
    pairs.push_back(pair);
  }
  return pairs;
}

std::vector<float> Values(const Graph& g, TensorId t) {
  const Tensor& tensor = g.tensor(t);
  std::vector<float> v(tensor.constant->size() / sizeof(float));
  std::copy_n(reinterpret_cast<const float*>(HostTensor::FromConstant(tensor)->data<float>()),
              v.size(), v.begin());
  return v;
}

void Replace(Graph& g, NodeId node, size_t index, const std::vector<float>& values) {
  const Tensor& old = g.tensor(g.node(node).inputs[index]);
  const std::string name = UniqueTensorName(g, old.name + "/equalized");
  const Shape shape = old.shape;
  const TensorId id = g.AddConstant(
      name, DType::kF32, shape, ConstantData::Copy(values.data(), values.size() * sizeof(float)));
  g.nodes[static_cast<size_t>(node)].inputs[index] = id;
}

/// Max |weight| of consumer input channel c: conv2d [O,H,W,I] along I;
/// depthwise [1,H,W,C·M] over channels c·M … c·M + M − 1.
std::vector<double> ConsumerRanges(const Graph& g, const Pair& p, const std::vector<float>& w) {
  std::vector<double> r(static_cast<size_t>(p.channels), 0.0);
  const int64_t last = g.tensor(g.node(p.consumer).inputs[1]).shape.back();
  const int64_t per_input =
      g.node(p.consumer).op == OpKind::kDepthwiseConv2D ? last / p.channels : 1;
  for (size_t i = 0; i < w.size(); ++i) {
    const auto c = static_cast<size_t>((static_cast<int64_t>(i) % last) / per_input);
    r[c] = std::max(r[c], static_cast<double>(std::fabs(w[i])));
  }
  return r;
}

void Apply(Graph& g, const Pair& p, const std::vector<double>& s) {
  const Node a = g.node(p.producer);
  const Node b = g.node(p.consumer);
  // A: output channel c is axis 0 (conv2d) or the last axis (depthwise).
  std::vector<float> wa = Values(g, a.inputs[1]);
  const int64_t per_channel = static_cast<int64_t>(wa.size()) / p.channels;
  for (size_t i = 0; i < wa.size(); ++i) {
    const auto c = static_cast<size_t>(a.op == OpKind::kDepthwiseConv2D
                                           ? static_cast<int64_t>(i) % p.channels
                                           : static_cast<int64_t>(i) / per_channel);
    wa[i] = static_cast<float>(wa[i] / s[c]);
  }
  Replace(g, p.producer, 1, wa);
  if (a.inputs.size() > 2 && a.inputs[2] != kNoTensor) {
    std::vector<float> bias = Values(g, a.inputs[2]);
    for (size_t c = 0; c < bias.size(); ++c) bias[c] = static_cast<float>(bias[c] / s[c]);
    Replace(g, p.producer, 2, bias);
  }
  std::vector<float> wb = Values(g, b.inputs[1]);
  const int64_t last = g.tensor(b.inputs[1]).shape.back();
  const int64_t per_input = b.op == OpKind::kDepthwiseConv2D ? last / p.channels : 1;
  for (size_t i = 0; i < wb.size(); ++i)
    wb[i] = static_cast<float>(
        wb[i] * s[static_cast<size_t>((static_cast<int64_t>(i) % last) / per_input)]);
  Replace(g, p.consumer, 1, wb);
}

}  // namespace

Expected<int> EqualizeChannels(Graph& graph, const std::vector<std::vector<HostTensor>>& samples) {
  const std::vector<Pair> pairs = FindPairs(graph);
  if (pairs.empty()) return 0;
  std::map<TensorId, std::vector<double>> ranges;
  for (const Pair& p : pairs) ranges[p.feed].assign(static_cast<size_t>(p.channels), 0.0);
  const TensorObserver observe = [&](TensorId t, const HostTensor& v) {
    auto it = ranges.find(t);
    if (it == ranges.end() || v.dtype() != DType::kF32) return OkStatus();
    const size_t channels = it->second.size();
    const float* x = v.data<float>();
    for (int64_t i = 0; i < v.elements(); ++i) {
      double& r = it->second[static_cast<size_t>(i) % channels];
      r = std::max(r, static_cast<double>(std::fabs(x[i])));
    }
    return OkStatus();
  };
  for (const auto& sample : samples) OPUC_RETURN_IF_ERROR(RunCpu(graph, sample, observe).status());

  int changed = 0;
  for (const Pair& p : pairs) {
    const std::vector<double>& ra = ranges[p.feed];
    const std::vector<double> rw =
        ConsumerRanges(graph, p, Values(graph, graph.node(p.consumer).inputs[1]));
    const bool depthwise = graph.node(p.consumer).op == OpKind::kDepthwiseConv2D;
    std::vector<double> s(ra.size(), 1.0);
    double largest = 0.0;
    for (size_t c = 0; c < ra.size(); ++c) {
      if (ra[c] <= 0.0 || rw[c] <= 0.0) continue;
      s[c] = depthwise ? ra[c] : std::sqrt(ra[c] / rw[c]);
      largest = std::max(largest, ra[c] / s[c]);
    }
    if (largest <= 0.0) continue;
    // Normalize: the widest channel keeps the tensor's original range.
    const double widest = *std::max_element(ra.begin(), ra.end());
    for (size_t c = 0; c < s.size(); ++c)
      if (ra[c] > 0.0 && rw[c] > 0.0) s[c] *= largest / widest;
    Apply(graph, p, s);
    ++changed;
  }
  return changed;
}

}  // namespace opuc::quant
