//===- opuc/quant/accuracy.h - Quantized vs float outputs -------*- C++ -*-===//
//
// How close a quantized graph's outputs (dequantized) come to the float
// graph's on the same inputs, per output tensor, over all samples together:
//
//   sqnr_db       = 10·log10(Σ ref² / Σ (ref − q)²)   (+inf when equal)
//   cosine        = Σ ref·q / sqrt(Σ ref² · Σ q²)     (1 when both are zero)
//   max_abs_error = max |ref − q|
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_QUANT_ACCURACY_H
#define OPUC_QUANT_ACCURACY_H

#include <string>
#include <vector>

#include "opuc/ir/graph.h"
#include "opuc/status.h"
#include "opuc/tensor_io/host_tensor.h"

namespace opuc {

struct OutputAccuracy {
  std::string name;
  double sqnr_db = 0.0;
  double cosine = 0.0;
  double max_abs_error = 0.0;
};

/// Sums of one output's comparison; Add more samples, then Finish.
class AccuracyMeter {
 public:
  /// `reference` and `quantized` must both be f32 of one shape, every
  /// element finite (an error names the first that is not).
  Status Add(const HostTensor& reference, const HostTensor& quantized);
  OutputAccuracy Finish(std::string name) const;

 private:
  double signal_ = 0.0, noise_ = 0.0, dot_ = 0.0, quantized_energy_ = 0.0, max_abs_ = 0.0;
};

/// Runs both graphs (same inputs and outputs, in order) with the reference
/// executor on every sample and compares each output. Errors name the
/// sample and output.
Expected<std::vector<OutputAccuracy>> CompareWithFloat(
    const Graph& float_graph, const Graph& quantized_graph,
    const std::vector<std::vector<HostTensor>>& samples);

/// The same comparison for every activation (i8, u8 or i16) of the quantized graph
/// against the float tensor of the same name (a graph input's or output's
/// int8 twin is "<name>/int8"), in the quantized graph's order: where the
/// error comes from. Keeps one sample's float activations in memory.
Expected<std::vector<OutputAccuracy>> CompareActivations(
    const Graph& float_graph, const Graph& quantized_graph,
    const std::vector<std::vector<HostTensor>>& samples);

}  // namespace opuc

#endif  // OPUC_QUANT_ACCURACY_H
