//===- src/quant/quantize.cc - Float graph to OPU fixed point -------------===//
//
// Equalize channel ranges (equalize.h) → with wide weights, split each inner
// product into two int8 ones (split_weights.h) → calibrate (calibrate.h) → choose
// activation lengths (activation_bits.h) → measure what each inner product
// sees (input_gram.h) → optionally refine the lengths against the outputs,
// with the weights rounded ahead (refine_lengths.h) → choose each
// activation's format, i8, u8 or i16 (formats.h; mixed_precision.h measures
// candidates on the calibration samples) → retype every activation in place
// → lower each node (lower.h, weights rounded with compensation) → wrap the
// graph's inputs in `quantize` and its outputs in `dequantize` → drop the
// float constants nothing reads → verify.
//
//===----------------------------------------------------------------------===//
#include "opuc/quant/quantize.h"

#include <algorithm>
#include <limits>

#include "activation_bits.h"
#include "calibrate.h"
#include "equalize.h"
#include "formats.h"
#include "input_gram.h"
#include "lower.h"
#include "mixed_precision.h"
#include "opuc/cpu/executor.h"
#include "opuc/ir/graph_edit.h"
#include "opuc/ir/macs.h"
#include "opuc/ir/verifier.h"
#include "opuc/quant/accuracy.h"
#include "refine_lengths.h"
#include "split_weights.h"
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

/// The float graph's outputs for every calibration sample (seen while
/// calibrating), and the quantized graph's least SQNR against them.
class FloatOutputs {
 public:
  explicit FloatOutputs(const Graph& graph) : outputs_(graph.outputs) {}

  void Observe(TensorId id, const HostTensor& value) {
    const auto it = std::find(outputs_.begin(), outputs_.end(), id);
    if (it == outputs_.end()) return;
    if (samples_.empty() || samples_.back().size() == outputs_.size()) samples_.emplace_back();
    samples_.back().push_back(value);
    order_.push_back(static_cast<size_t>(it - outputs_.begin()));
  }

  Expected<double> LeastSqnr(const Graph& quantized,
                             const std::vector<std::vector<HostTensor>>& samples) const {
    std::vector<AccuracyMeter> meters(outputs_.size());
    for (size_t s = 0; s < samples.size() && s < samples_.size(); ++s) {
      Expected<std::vector<HostTensor>> got = RunCpu(quantized, samples[s]);
      if (!got.ok()) return got.status().WithContext(Cat("calibration sample ", s));
      for (size_t j = 0; j < samples_[s].size(); ++j) {
        const size_t o = order_[s * outputs_.size() + j];
        OPUC_RETURN_IF_ERROR(meters[o].Add(samples_[s][j], (*got)[o]));
      }
    }
    double least = std::numeric_limits<double>::infinity();
    for (const AccuracyMeter& m : meters) least = std::min(least, m.Finish("").sqnr_db);
    return least;
  }

 private:
  std::vector<TensorId> outputs_;
  std::vector<std::vector<HostTensor>> samples_;  ///< Per sample, in the order seen.
  std::vector<size_t> order_;                     ///< Output index of each one seen.
};

/// The integer graph for the activation formats and lengths of `plan`.
Expected<QuantizedGraph> Lower(const Graph& equalized, const quant::ActivationFormats& plan,
                               const std::map<NodeId, quant::InputGram>& grams, int threads) {
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
  quant::LowerContext ctx{result.reference, q, plan.bits, plan.format, result.report, grams};
  quant::RoundAllWeights(ctx, threads);
  for (size_t k = 0; k < q.nodes.size(); ++k)
    OPUC_RETURN_IF_ERROR(quant::LowerNode(ctx, static_cast<NodeId>(k)));
  WrapInputsAndOutputs(q);
  RemoveUnusedTensors(q);
  Status verified = Verify(q);
  if (!verified.ok()) return verified.WithContext("the quantized graph fails verification");
  return result;
}

}  // namespace

Expected<QuantizedGraph> Quantize(const Graph& graph,
                                  const std::vector<std::vector<HostTensor>>& calibration,
                                  const QuantizeOptions& options) {
  OPUC_RETURN_IF_ERROR(CheckFloatGraph(graph));
  if (calibration.empty())
    return InvalidArgument("quantization needs at least one calibration sample");
  if (options.wide_weights && options.precision == Precision::kInt8)
    return InvalidArgument(
        "16-bit weights need 16-bit partial sums: use them with precision mixed or int16");
  Graph equalized = graph;
  OPUC_ASSIGN_OR_RETURN(const int pairs, quant::EqualizeChannels(equalized, calibration));
  std::vector<quant::SplitLayer> split;
  if (options.wide_weights) {
    OPUC_ASSIGN_OR_RETURN(split, quant::SplitWeights(equalized));
  }
  const std::vector<TensorId> partial_sums = quant::PartialSums(equalized, split);
  // One run per sample gives the lengths' statistics and the Gram matrices,
  // each node's factored as soon as the last sample has shown it its input
  // (Take waits for the factors still in the making).
  quant::InputGramCollector collector(equalized, options.threads,
                                      static_cast<int64_t>(calibration.size()));
  FloatOutputs float_outputs(equalized);
  OPUC_ASSIGN_OR_RETURN(std::vector<quant::TensorStats> stats,
                        quant::Calibrate(
                            equalized, calibration,
                            [&](TensorId t, const HostTensor& value) {
                              float_outputs.Observe(t, value);
                              return collector.Observe(t, value);
                            },
                            options.threads));
  const std::map<NodeId, quant::InputGram> grams = std::move(collector).Take();
  std::vector<int> bits = quant::ChooseActivationBits(equalized, stats, partial_sums);
  int64_t refined_groups = 0;
  if (options.refine_lengths) {
    OPUC_ASSIGN_OR_RETURN(const Graph rounded, quant::WithRoundedWeights(equalized, bits, grams));
    OPUC_ASSIGN_OR_RETURN(
        const quant::RefineReport refined,
        quant::RefineActivationBits(equalized, rounded, calibration, bits, partial_sums));
    refined_groups = refined.groups_changed;
  }

  const quant::FormatPlanner planner(equalized, stats, bits, options.precision != Precision::kInt8,
                                     partial_sums);
  const auto build = [&](const std::vector<bool>& wide) {
    return Lower(equalized, planner.Plan(wide), grams, options.threads);
  };
  std::vector<bool> wide(planner.groups().size(), options.precision == Precision::kInt16);
  quant::MixedPrecision mixed{wide, 0.0, 0};
  if (options.precision == Precision::kMixed) {
    OPUC_ASSIGN_OR_RETURN(
        mixed, quant::ChooseWideGroups(planner, options.target_sqnr_db,
                                       [&](const std::vector<bool>& w) -> Expected<double> {
                                         OPUC_ASSIGN_OR_RETURN(QuantizedGraph q, build(w));
                                         return float_outputs.LeastSqnr(q.graph, calibration);
                                       }));
    wide = mixed.wide;
  }
  OPUC_ASSIGN_OR_RETURN(QuantizedGraph result, build(wide));
  QuantizeReport& report = result.report;
  report.calibration_samples = static_cast<int64_t>(calibration.size());
  report.equalized_pairs = pairs;
  report.refined_groups = refined_groups;
  report.calibration_sqnr_db = mixed.sqnr_db;
  report.precision_rounds = mixed.rounds;
  // The low halves of split layers are extra passes over the model's own
  // MACs (their i16 inputs' second passes are counted with the groups).
  int64_t extra = 0, low_macs = 0;
  for (size_t k = 0; k < wide.size(); ++k)
    if (wide[k] && planner.groups()[k].may_widen) extra += planner.groups()[k].extra_macs;
  for (const quant::SplitLayer& layer : split) low_macs += NodeMacs(equalized, layer.low);
  const int64_t model_macs = planner.total_macs() - low_macs;
  report.wide_weight_layers = static_cast<int64_t>(split.size());
  report.extra_mac_passes_percent = model_macs > 0 ? 100.0 * static_cast<double>(extra + low_macs) /
                                                         static_cast<double>(model_macs)
                                                   : 0.0;
  return result;
}

}  // namespace opuc
