//===- src/quant/refine_lengths.h - Lengths chosen against the outputs (private) -*- C++ -*-===//
//
// The least-error length of each tensor (calibrate.h) weighs every rounding
// and clipping error alike, but the outputs do not: clipping the rare large
// values of a mid-network feature can cost an output far more than coarser
// steps would, and the first layer's steps can cost more than its clipping.
// So the unified groups' lengths are refined against the outputs themselves:
// with the weights as the integer graph holds them and every activation
// rounded at its length, each group in graph order tries one step finer and
// one coarser and keeps a change that lowers
//
//   E = Σ_outputs  Σ (y − ŷ)² / Σ y²      (y: the float graph; over the calibration samples)
//
// A trial recomputes only the nodes from the group's first producer on.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_QUANT_REFINE_LENGTHS_H
#define OPUC_SRC_QUANT_REFINE_LENGTHS_H

#include <cstdint>
#include <vector>

#include "opuc/ir/graph.h"
#include "opuc/status.h"
#include "opuc/tensor_io/host_tensor.h"

namespace opuc::quant {

struct RefineReport {
  int64_t groups_changed = 0;
  int64_t trials = 0;
  double error_before = 0.0, error_after = 0.0;  ///< E above.
};

/// Refines `bits` (ChooseActivationBits's result for `graph`) in place over
/// `samples`: `graph`'s outputs are the targets, and `rounded` — the same
/// graph with the weights as the integer graph will hold them, same tensor
/// ids for the activations — is the graph whose activations are rounded.
/// Errors name the sample.
Expected<RefineReport> RefineActivationBits(const Graph& graph, const Graph& rounded,
                                            const std::vector<std::vector<HostTensor>>& samples,
                                            std::vector<int>& bits,
                                            const std::vector<TensorId>& partial_sums = {});

}  // namespace opuc::quant

#endif  // OPUC_SRC_QUANT_REFINE_LENGTHS_H
