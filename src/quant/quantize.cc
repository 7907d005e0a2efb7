//===- src/quant/quantize.cc - Float graph to OPU fixed point -------------===//
//
// Equalize channel ranges (equalize.h) → calibrate (calibrate.h) → choose
// activation lengths (activation_bits.h) → measure what each inner product
// sees (input_gram.h) → optionally refine the lengths against the outputs,
// with the weights rounded ahead (refine_lengths.h) → retype every
// activation to i8 in place → lower each node (lower.h, weights rounded with
// compensation) → wrap the graph's inputs in `quantize` and its outputs in
// `dequantize` → drop the float constants nothing reads → verify.
//
//===----------------------------------------------------------------------===//
#include "opuc/quant/quantize.h"

#include "activation_bits.h"
#include "calibrate.h"
#include "equalize.h"
#include "input_gram.h"
#include "lower.h"
#include "opuc/ir/graph_edit.h"
#include "opuc/ir/verifier.h"
#include "refine_lengths.h"
#include "support/format.h"
#include "weights.h"

namespace opuc {
namespace {

using quant::kNoBits;

Status CheckFloatGraph(const Graph& graph) {
  OPUC_RETURN_IF_ERROR(Verify(graph));
  for (size_t t = 0; t < graph.tensors.size(); ++t) {
    const Tensor& tensor = graph.tensors[t];
    if (!tensor.is_constant() && tensor.dtype != DType::kF32)
      return InvalidArgument(Cat(DescribeTensor(graph, static_cast<TensorId>(t)), " is ",
                                 DTypeName(tensor.dtype),
                                 "; the quantizer takes a float graph (f32 activations)"));
  }
  return OkStatus();
}

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

Expected<QuantizedGraph> Quantize(const Graph& graph,
                                  const std::vector<std::vector<HostTensor>>& calibration,
                                  const QuantizeOptions& options) {
  OPUC_RETURN_IF_ERROR(CheckFloatGraph(graph));
  if (calibration.empty())
    return InvalidArgument("quantization needs at least one calibration sample");
  Graph equalized = graph;
  OPUC_ASSIGN_OR_RETURN(const int pairs, quant::EqualizeChannels(equalized, calibration));
  // One run per sample gives the lengths' statistics and the Gram matrices.
  quant::InputGramCollector collector(equalized);
  OPUC_ASSIGN_OR_RETURN(
      std::vector<quant::TensorStats> stats,
      quant::Calibrate(equalized, calibration, [&](TensorId t, const HostTensor& value) {
        return collector.Observe(t, value);
      }));
  const std::map<NodeId, quant::InputGram> grams = std::move(collector).Take();
  std::vector<int> bits = quant::ChooseActivationBits(equalized, stats);
  int64_t refined_groups = 0;
  if (options.refine_lengths) {
    OPUC_ASSIGN_OR_RETURN(const Graph rounded, quant::WithRoundedWeights(equalized, bits, grams));
    OPUC_ASSIGN_OR_RETURN(const quant::RefineReport refined,
                          quant::RefineActivationBits(equalized, rounded, calibration, bits));
    refined_groups = refined.groups_changed;
  }

  QuantizedGraph result{equalized, QuantizeReport(), std::move(equalized)};
  result.report.calibration_samples = static_cast<int64_t>(calibration.size());
  result.report.equalized_pairs = pairs;
  result.report.refined_groups = refined_groups;
  Graph& q = result.graph;
  for (size_t t = 0; t < q.tensors.size(); ++t) {
    if (bits[t] == kNoBits) continue;
    q.tensors[t].dtype = DType::kI8;
    q.tensors[t].fixed_point = FixedPoint{{bits[t]}, -1};
    ++result.report.activations;
  }
  quant::LowerContext ctx{result.reference, q, bits, result.report, grams};
  for (size_t k = 0; k < q.nodes.size(); ++k)
    OPUC_RETURN_IF_ERROR(quant::LowerNode(ctx, static_cast<NodeId>(k)));
  WrapInputsAndOutputs(q);
  RemoveUnusedTensors(q);
  Status verified = Verify(q);
  if (!verified.ok()) return verified.WithContext("the quantized graph fails verification");
  return result;
}

}  // namespace opuc
