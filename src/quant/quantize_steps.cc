//===- src/quant/quantize_steps.cc - Steps both quantizers share ----------===//
#include "quantize_steps.h"

#include <algorithm>
#include <limits>
#include <string>
#include <utility>

#include "activation_bits.h"
#include "lower.h"
#include "opuc/cpu/executor.h"
#include "opuc/ir/graph_edit.h"
#include "opuc/ir/verifier.h"
#include "opuc/quant/accuracy.h"
#include "support/format.h"

namespace opuc::quant {
namespace {

/// A new tensor `like` `original` (f32, same shape) that takes over its name;
/// the original is renamed "<name>/int8".
TensorId SplitFloatTwin(Graph& graph, TensorId original) {
  Tensor twin;
  twin.name = graph.tensor(original).name;
  twin.dtype = DType::kF32;
  twin.shape = graph.tensor(original).shape;
  graph.tensor(original).name = UniqueTensorName(graph, twin.name + "/int8");
  return graph.AddTensor(std::move(twin));
}

Node Convert(OpKind op, const std::string& name, TensorId in, TensorId out) {
  Node node;
  node.op = op;
  node.name = name;
  node.inputs = {in};
  node.outputs = {out};
  return node;
}

/// Inputs: f32 → quantize → (the old id, now i8). Outputs: (old id, i8) →
/// dequantize → f32 under the old name.
void WrapInputsAndOutputs(Graph& graph) {
  std::vector<Node> front, back;
  for (TensorId& input : graph.inputs) {
    const TensorId f32 = SplitFloatTwin(graph, input);
    front.push_back(Convert(OpKind::kQuantize, graph.tensor(f32).name + "/quantize", f32, input));
    input = f32;
  }
  for (TensorId& output : graph.outputs) {
    const TensorId f32 = SplitFloatTwin(graph, output);
    back.push_back(
        Convert(OpKind::kDequantize, graph.tensor(f32).name + "/dequantize", output, f32));
    output = f32;
  }
  std::vector<Node> nodes = std::move(front);
  for (Node& node : graph.nodes) nodes.push_back(std::move(node));
  for (Node& node : back) nodes.push_back(std::move(node));
  graph.nodes.clear();
  for (Node& node : nodes) graph.AddNode(std::move(node));
}

}  // namespace

Expected<QuantizedGraph> Lower(const Graph& equalized, const ActivationFormats& plan,
                               const std::map<NodeId, InputGram>& grams, int threads) {
  QuantizedGraph result{equalized, QuantizeReport(), equalized};
  Graph& q = result.graph;
  for (size_t t = 0; t < q.tensors.size(); ++t) {
    if (plan.bits[t] == kNoBits) continue;
    q.tensors[t].dtype = plan.format[t];
    q.tensors[t].fixed_point = FixedPoint{{plan.bits[t]}, -1};
    ++result.report.activations;
    ++(plan.format[t] == DType::kU8    ? result.report.u8_tensors
       : plan.format[t] == DType::kI16 ? result.report.i16_tensors
                                       : result.report.i8_tensors);
  }
  LowerContext ctx{result.reference, q, plan.bits, plan.format, result.report, grams};
  RoundAllWeights(ctx, threads);
  for (size_t k = 0; k < q.nodes.size(); ++k)
    OPUC_RETURN_IF_ERROR(LowerNode(ctx, static_cast<NodeId>(k)));
  WrapInputsAndOutputs(q);
  RemoveUnusedTensors(q);
  Status verified = Verify(q);
  if (!verified.ok()) return verified.WithContext("the quantized graph fails verification");
  return result;
}

Expected<Calibrated> CalibrateGraph(const Graph& graph,
                                    const std::vector<std::vector<HostTensor>>& samples,
                                    int threads) {
  InputGramCollector collector(graph, threads, static_cast<int64_t>(samples.size()));
  Calibrated result;
  OPUC_ASSIGN_OR_RETURN(
      result.stats,
      Calibrate(
          graph, samples, [&](TensorId t, const HostTensor& v) { return collector.Observe(t, v); },
          threads));
  result.grams = std::move(collector).Take();
  return result;
}

Status AddOutputErrors(const Graph& quantized, const std::vector<std::vector<HostTensor>>& samples,
                       const std::vector<std::vector<HostTensor>>& references,
                       std::vector<AccuracyMeter>& meters) {
  for (size_t s = 0; s < samples.size(); ++s) {
    OPUC_ASSIGN_OR_RETURN(const std::vector<HostTensor> got, RunCpu(quantized, samples[s]));
    for (size_t o = 0; o < meters.size(); ++o)
      OPUC_RETURN_IF_ERROR(meters[o].Add(references[s][o], got[o]));
  }
  return OkStatus();
}

double LeastSqnr(const std::vector<AccuracyMeter>& meters) {
  double least = std::numeric_limits<double>::infinity();
  for (const AccuracyMeter& m : meters) least = std::min(least, m.Finish("").sqnr_db);
  return least;
}

Expected<double> LeastSqnrOn(const Graph& quantized,
                             const std::vector<std::vector<HostTensor>>& samples,
                             const std::vector<std::vector<HostTensor>>& references) {
  std::vector<AccuracyMeter> meters(references.empty() ? 0 : references[0].size());
  OPUC_RETURN_IF_ERROR(AddOutputErrors(quantized, samples, references, meters));
  return LeastSqnr(meters);
}

}  // namespace opuc::quant
