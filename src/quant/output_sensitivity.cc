//===- src/quant/output_sensitivity.cc - What one candidate's 8 bits cost the outputs ===//
#include "output_sensitivity.h"

#include <map>
#include <string>

#include "opuc/cpu/executor.h"
#include "opuc/ir/graph_edit.h"

namespace opuc::quant {
namespace {

/// `graph` with the candidate's tensors rounded and nodes rewired.
Graph WithCandidate(const Graph& graph, const EightBitCandidate& c) {
  Graph out = graph;
  std::vector<Node> nodes;
  std::map<TensorId, TensorId> remap;
  const auto add_tensor = [&](DType dtype, const Shape& shape, int bits) {
    Tensor t;
    t.name = UniqueTensorName(out, "eight_bit");
    t.dtype = dtype;
    t.shape = shape;
    if (dtype != DType::kF32) t.fixed_point = FixedPoint{{bits}, -1};
    return out.AddTensor(std::move(t));
  };
  const auto step = [&](OpKind op, std::vector<TensorId> in, DType dtype, int bits) {
    Node n;
    n.op = op;
    n.name = "eight_bit/" + std::to_string(nodes.size());
    const Shape shape = out.tensor(in[0]).shape;
    n.inputs = std::move(in);
    n.outputs = {add_tensor(dtype, shape, bits)};
    nodes.push_back(n);
    return n.outputs[0];
  };
  const auto after = [&](TensorId t) {
    for (const RoundedTensor& r : c.rounded)
      if (r.tensor == t) {
        const TensorId q = step(OpKind::kQuantize, {t}, r.format, r.bits);
        remap[t] = step(OpKind::kDequantize, {q}, DType::kF32, 0);
      }
  };
  const auto mapped = [&](TensorId t) {
    const auto it = remap.find(t);
    return it == remap.end() ? t : it->second;
  };
  for (TensorId t : graph.inputs) after(t);
  for (size_t k = 0; k < graph.nodes.size(); ++k) {
    Node node = graph.nodes[k];
    const auto rewired = c.inputs.find(static_cast<NodeId>(k));
    if (rewired != c.inputs.end()) node.inputs = rewired->second;
    for (TensorId& in : node.inputs)
      if (in != kNoTensor) in = mapped(in);
    const std::vector<TensorId> outputs = node.outputs;
    nodes.push_back(std::move(node));
    for (TensorId t : outputs) after(t);
  }
  for (TensorId& t : out.outputs) t = mapped(t);
  out.nodes.clear();
  for (Node& n : nodes) out.AddNode(std::move(n));
  return out;
}

}  // namespace

Expected<std::vector<std::vector<OutputNoise>>> OutputNoiseSums(
    const Graph& graph, const std::vector<EightBitCandidate>& candidates,
    const std::vector<std::vector<HostTensor>>& samples) {
  std::vector<std::vector<HostTensor>> references;
  for (const std::vector<HostTensor>& sample : samples) {
    OPUC_ASSIGN_OR_RETURN(std::vector<HostTensor> out, RunCpu(graph, sample));
    references.push_back(std::move(out));
  }
  std::vector<std::vector<OutputNoise>> sums;
  for (const EightBitCandidate& c : candidates) {
    const Graph g = WithCandidate(graph, c);
    std::vector<OutputNoise> out(graph.outputs.size());
    for (size_t s = 0; s < samples.size(); ++s) {
      OPUC_ASSIGN_OR_RETURN(const std::vector<HostTensor> got, RunCpu(g, samples[s]));
      for (size_t o = 0; o < got.size(); ++o) {
        const float* y = references[s][o].data<float>();
        const float* q = got[o].data<float>();
        for (int64_t i = 0; i < got[o].elements(); ++i) {
          const double e = static_cast<double>(y[i]) - static_cast<double>(q[i]);
          out[o].signal += static_cast<double>(y[i]) * static_cast<double>(y[i]);
          out[o].noise += e * e;
        }
      }
    }
    sums.push_back(std::move(out));
  }
  return sums;
}

Expected<std::vector<std::vector<double>>> OutputNoiseRatios(
    const Graph& graph, const std::vector<EightBitCandidate>& candidates,
    const std::vector<std::vector<HostTensor>>& samples) {
  OPUC_ASSIGN_OR_RETURN(const std::vector<std::vector<OutputNoise>> sums,
                        OutputNoiseSums(graph, candidates, samples));
  std::vector<std::vector<double>> ratios;
  for (const std::vector<OutputNoise>& per_output : sums) {
    ratios.emplace_back();
    for (const OutputNoise& o : per_output)
      ratios.back().push_back(o.signal > 0.0 ? o.noise / o.signal : 0.0);
  }
  return ratios;
}

}  // namespace opuc::quant
