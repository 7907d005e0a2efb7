//===- src/quant/quantize_steps.h - Steps both quantizers share (private) -*- C++ -*-===//
//
// The steps of Quantize (quantize.cc) that the per-layer choice
// (per_layer_choice.h) runs once per configuration it measures: one
// calibration run of a graph (statistics and input Gram matrices), lowering a
// float graph to integers for given activation formats and lengths, and the
// least output SQNR of a quantized graph against given float outputs.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_QUANT_QUANTIZE_STEPS_H
#define OPUC_SRC_QUANT_QUANTIZE_STEPS_H

#include <map>
#include <vector>

#include "calibrate.h"
#include "formats.h"
#include "input_gram.h"
#include "opuc/ir/graph.h"
#include "opuc/quant/accuracy.h"
#include "opuc/quant/quantize.h"
#include "opuc/status.h"
#include "opuc/tensor_io/host_tensor.h"

namespace opuc::quant {

/// Statistics and input Gram matrices of one calibration run of a graph.
struct Calibrated {
  std::vector<TensorStats> stats;
  std::map<NodeId, InputGram> grams;
};

/// Calibrates `graph` on `samples` (calibrate.h, input_gram.h).
Expected<Calibrated> CalibrateGraph(const Graph& graph,
                                    const std::vector<std::vector<HostTensor>>& samples,
                                    int threads);

/// The integer graph of `equalized` for the activation formats and lengths
/// of `plan`: weights rounded, nodes lowered, ends wrapped, verified.
Expected<QuantizedGraph> Lower(const Graph& equalized, const ActivationFormats& plan,
                               const std::map<NodeId, InputGram>& grams, int threads);

/// Adds the errors of `quantized`'s outputs on `samples` against
/// `references` (the float graph's outputs, one list per sample) into
/// `meters` (one per output).
Status AddOutputErrors(const Graph& quantized, const std::vector<std::vector<HostTensor>>& samples,
                       const std::vector<std::vector<HostTensor>>& references,
                       std::vector<AccuracyMeter>& meters);

/// The least SQNR of `meters`, in dB.
double LeastSqnr(const std::vector<AccuracyMeter>& meters);

/// The least SQNR over the outputs of `quantized` on `samples`, against
/// `references` (the float graph's outputs, one list per sample).
Expected<double> LeastSqnrOn(const Graph& quantized,
                             const std::vector<std::vector<HostTensor>>& samples,
                             const std::vector<std::vector<HostTensor>>& references);

}  // namespace opuc::quant

#endif  // OPUC_SRC_QUANT_QUANTIZE_STEPS_H
