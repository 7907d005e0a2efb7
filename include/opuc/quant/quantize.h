//===- opuc/quant/quantize.h - Float graph to OPU fixed point ---*- C++ -*-===//
//
// Quantize turns an optimized float graph (the default pass pipeline's
// output) into a quantized graph that the integer reference executor runs
// (docs/numerics.md is its semantics, docs/quantization.md how it is built):
//
//   - every activation becomes i8, or with Precision::kMixed u8 (when the
//     graph proves it non-negative) or i16 (the fewest 16-bit tensors that
//     reach a target SQNR), with a per-tensor fraction length chosen on
//     calibration samples by least squared error, unified where the OPU
//     needs one binary point (concat, moves, residual operands, clamps),
//     optionally refined against the outputs (QuantizeOptions);
//   - inner-product weights become int8 with a fraction length per output
//     channel, rounded as a whole against the inputs they meet on the
//     calibration samples; biases int32 at the accumulator's length, and
//     every channel provably accumulates in int32; with `wide_weights` each
//     layer becomes two int8 inner products and an add (16-bit weights);
//   - sigmoid, tanh, hard_swish and leaky_relu become lookup_table nodes and
//     softmax gets its exp table;
//   - graph inputs and outputs stay f32 under their names: a `quantize` node
//     follows each input and a `dequantize` node precedes each output, so the
//     quantized graph takes and gives what the float one does.
//
//   OPUC_ASSIGN_OR_RETURN(QuantizedGraph q, Quantize(graph, calibration));
//   OPUC_ASSIGN_OR_RETURN(auto outputs, RunReference(q.graph, inputs));
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_QUANT_QUANTIZE_H
#define OPUC_QUANT_QUANTIZE_H

#include <cstdint>
#include <string>
#include <vector>

#include "opuc/ir/graph.h"
#include "opuc/status.h"
#include "opuc/tensor_io/host_tensor.h"

namespace opuc {

/// What quantization did, for reports.
struct QuantizeReport {
  int64_t calibration_samples = 0;
  int64_t equalized_pairs = 0;       ///< Inner-product pairs whose channel ranges were balanced.
  int64_t activations = 0;           ///< Tensors given a fraction length.
  int64_t weights = 0;               ///< Weight elements quantized.
  int64_t saturated_weights = 0;     ///< Of those, clipped to int8 by the chosen length.
  int64_t lowered_channels = 0;      ///< Channels whose length was lowered for bias or bound.
  int64_t compensated_channels = 0;  ///< Channels whose weights were rounded as a whole.
  int64_t tables = 0;                ///< lookup_table nodes and softmax exp tables built.
  int64_t refined_groups = 0;        ///< Unified groups whose length refine_lengths changed.
  int64_t u8_tensors = 0;            ///< Activations per format (numerics.md §1b).
  int64_t i8_tensors = 0;
  int64_t i16_tensors = 0;
  /// Layers whose weights are 16-bit (QuantizeOptions::wide_weights).
  int64_t wide_weight_layers = 0;
  /// Extra array passes of the i16 inputs and the wide weights' low bytes,
  /// in percent of the MACs of the model with all 8-bit operands (an i16
  /// input is two passes, a wide-weight layer two inner products).
  double extra_mac_passes_percent = 0.0;
  /// Mixed precision: the least output SQNR measured on the calibration
  /// samples for the chosen formats, and how many configurations were run.
  double calibration_sqnr_db = 0.0;
  int64_t precision_rounds = 0;
  /// QuantizeOptions::per_layer: the least output SQNR of the chosen
  /// formats against the program with every candidate at 16 bits, each
  /// calibration photograph measured on programs calibrated without it
  /// (NaN when there was no such split), and what was chosen: i16 groups
  /// and layers with 16-bit weights among the candidates.
  double held_out_sqnr_db = 0.0;
  int64_t held_out_samples = 0;
  int64_t wide_groups = 0;
  int64_t candidate_groups = 0;
  int64_t candidate_layers = 0;
};

/// Which activation formats the quantizer may use (numerics.md §1b).
enum class Precision : uint8_t {
  kInt8,   ///< i8 only: every array operand one signed pass (the numbers of numerics v1).
  kMixed,  ///< u8 where proved non-negative, i8, and i16 where the target SQNR needs it.
  kInt16,  ///< i16 everywhere a 16-bit input is allowed (softmax reads 8 bits), else u8/i8.
};

struct QuantizeOptions {
  /// Refine the activation lengths against the graph's outputs on the
  /// calibration samples (docs/quantization.md, step 4b). It lowers the
  /// output error on those samples, often by several dB, but follows them:
  /// use it when the calibration samples show what the model will see.
  /// Keeps every activation of every sample in memory and runs the graph
  /// from each group on twice per group.
  bool refine_lengths = false;
  Precision precision = Precision::kInt8;
  /// kMixed: the least output SQNR, in dB, to reach on the calibration samples.
  double target_sqnr_db = 25.0;
  /// Every conv2d, depthwise conv and fully connected layer with 16-bit
  /// weights: two int8 inner products over its input, the high byte and the
  /// residual, and an add (docs/numerics.md §1c). Needs kMixed or kInt16
  /// (the partial sums are i16); a second pass of the array per layer.
  bool wide_weights = false;
  /// The array reads an i16 input whole (a feature-map buffer of two banks,
  /// FeatureMapPairs: opu1024), so an i16 activation costs a second array
  /// pass only where a depthwise conv of a kernel wider than 4 taps reads it
  /// (the window keeps the low bytes 4 taps after the high); false:
  /// wherever an inner product reads it (tiny). CompileModel sets it from
  /// the hardware.
  bool i16_in_one_pass = true;
  /// With kMixed (and not `wide_weights`): choose 16-bit weights per layer
  /// together with the i16 activations, and make the choice on photographs
  /// the statistics did not see (docs/quantization.md, "A choice that
  /// holds on new photographs"): each calibration photograph (up to six
  /// folds of them) is measured on programs whose statistics come from the
  /// others, the candidates — activation groups and layers — ordered by
  /// their 8-bit noise-to-signal ratio per extra array pass (the outputs'
  /// own producers first), and the shortest prefix of that order whose
  /// least output SQNR against the all-16-bit program, pooled over the
  /// folds, reaches target_sqnr_db + margin_db is taken; the program is
  /// then calibrated on every sample.
  bool per_layer = false;
  /// With per_layer: dB above the target the kept photographs must show.
  double margin_db = 1.0;
  /// With per_layer: price each candidate on each calibration photograph at
  /// its fold's lengths, and search a knapsack under a noise budget beside
  /// the prefix, keeping the cheaper (docs/quantization.md, "Benefit per
  /// cost"). Cheaper on two of the three target models, but the face
  /// detector's program then moves the astronaut's box (IoU 0.885), so
  /// not the default; `quant_heldout_bench --budget` measures it.
  bool budget_search = false;
  /// With per_layer: the samples come as this many views of each photograph
  /// in turn (opuc/image/augment.h); the split keeps a photograph's views
  /// together.
  int views_per_photograph = 1;
  /// Threads for the weights' rounding factors, the costliest part of a
  /// large model (0: one per core). The result is the same for any count.
  int threads = 0;
};

struct QuantizedGraph {
  Graph graph;
  QuantizeReport report;
  /// The float graph after channel equalization: the same function as the
  /// input graph, and the one whose activations `graph`'s integer tensors
  /// stand for (same names), so per-tensor comparisons use it.
  Graph reference;
};

/// `opuc compile`'s default: kMixed with per_layer, target 25 dB, margin
/// 1 dB (the calibration views are set by the caller).
QuantizeOptions DefaultQuantizeOptions();

/// Quantizes `graph` (f32, verified, no dequantize/densify/fused nodes left:
/// run the default pipeline first). `calibration` holds one list of graph
/// inputs per sample, in graph-input order, typed as the graph declares
/// (at least one sample). Errors name the node, tensor or channel at fault.
Expected<QuantizedGraph> Quantize(const Graph& graph,
                                  const std::vector<std::vector<HostTensor>>& calibration,
                                  const QuantizeOptions& options = {});

}  // namespace opuc

#endif  // OPUC_QUANT_QUANTIZE_H
