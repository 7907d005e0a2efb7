//===- src/quant/output_sensitivity.h - 8 bits' cost at the outputs (private) -*- C++ -*-===//
//
// The per-layer precision choice (QuantizeOptions::per_layer) orders its
// candidates by their measured effect on the outputs: the float graph is run
// with only one candidate at 8 bits — an activation group's tensors rounded
// to their i8 or u8 format and length (a quantize and a dequantize after
// each), or a layer reading its int8 weights and bias as the program would
// hold them (weights.h: compensated rounding at the chosen lengths) — and
// every output's noise-to-signal ratio against the float graph is taken
// over the samples.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_QUANT_OUTPUT_SENSITIVITY_H
#define OPUC_SRC_QUANT_OUTPUT_SENSITIVITY_H

#include <map>
#include <vector>

#include "opuc/ir/graph.h"
#include "opuc/status.h"
#include "opuc/tensor_io/host_tensor.h"

namespace opuc::quant {

struct RoundedTensor {
  TensorId tensor = kNoTensor;
  DType format = DType::kI8;  ///< kI8 or kU8.
  int bits = 0;               ///< Fraction length.
};

/// One candidate at 8 bits: tensors rounded, and nodes that read other
/// inputs (a layer's rounded weights and bias, constants of the graph).
struct EightBitCandidate {
  std::vector<RoundedTensor> rounded;
  std::map<NodeId, std::vector<TensorId>> inputs;
};

/// One output's squared error and squared signal over some samples: the
/// sums, so that calls on different samples (the folds' photographs,
/// each priced with its own fold's lengths) pool into one ratio.
struct OutputNoise {
  double noise = 0.0;   ///< Σ (y − ŷ)².
  double signal = 0.0;  ///< Σ y².
};

/// Per candidate, per output of `graph` (f32), the sums over `samples` with
/// only that candidate at 8 bits.
Expected<std::vector<std::vector<OutputNoise>>> OutputNoiseSums(
    const Graph& graph, const std::vector<EightBitCandidate>& candidates,
    const std::vector<std::vector<HostTensor>>& samples);

/// Per candidate, per output, Σ (y − ŷ)² / Σ y² (0 where Σ y² is 0).
Expected<std::vector<std::vector<double>>> OutputNoiseRatios(
    const Graph& graph, const std::vector<EightBitCandidate>& candidates,
    const std::vector<std::vector<HostTensor>>& samples);

}  // namespace opuc::quant

#endif  // OPUC_SRC_QUANT_OUTPUT_SENSITIVITY_H
