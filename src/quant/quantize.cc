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
// float constants nothing reads → verify (the last three: quantize_steps.h).
// With QuantizeOptions::per_layer (`opuc compile`'s default),
// per_layer_choice.h chooses which layers keep 16-bit weights and which
// activations are i16, on photographs kept from the statistics.
//
//===----------------------------------------------------------------------===//
#include "opuc/quant/quantize.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <string>

#include "activation_bits.h"
#include "calibrate.h"
#include "equalize.h"
#include "formats.h"
#include "input_gram.h"
#include "mixed_precision.h"
#include "opuc/cpu/executor.h"
#include "opuc/ir/macs.h"
#include "opuc/ir/verifier.h"
#include "opuc/quant/accuracy.h"
#include "per_layer_choice.h"
#include "quantize_steps.h"
#include "refine_lengths.h"
#include "split_weights.h"
#include "support/format.h"
#include "weights.h"

namespace opuc {
namespace {

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

}  // namespace

QuantizeOptions DefaultQuantizeOptions() {
  QuantizeOptions options;
  options.precision = Precision::kMixed;
  options.per_layer = true;
  return options;
}

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
  if (options.per_layer && options.precision == Precision::kMixed && !options.wide_weights)
    return quant::QuantizePerLayer(equalized, pairs, calibration, options);
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
                                     options.i16_in_one_pass, partial_sums);
  const auto build = [&](const std::vector<bool>& wide) {
    return quant::Lower(equalized, planner.Plan(wide), grams, options.threads);
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
