//===- src/quant/mixed_precision.h - Which activations get 16 bits (private) -*- C++ -*-===//
//
// The fewest i16 groups, weighted by the extra array passes they cost, that
// bring every output to the target SQNR on the calibration samples
// (docs/quantization.md, "Mixed precision"). Greedy by measured sensitivity:
// each group's own 8-bit noise-to-signal ratio (from calibration) per unit of
// extra MACs orders the candidates; a model that output noise is the sum of
// the groups' ratios sizes each round's batch; and every round is measured
// on the real quantized graph. The search keeps the best configuration it
// measured and stops at the target, when nothing is left to widen, or when
// two rounds in a row gain less than 0.1 dB (the weights, not the
// activations, then limit the outputs).
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_QUANT_MIXED_PRECISION_H
#define OPUC_SRC_QUANT_MIXED_PRECISION_H

#include <functional>
#include <vector>

#include "formats.h"
#include "opuc/status.h"

namespace opuc::quant {

/// The least SQNR over the outputs, in dB, of the graph quantized with the
/// groups marked in `wide` as i16 (one flag per FormatPlanner group).
using MeasureSqnr = std::function<Expected<double>(const std::vector<bool>& wide)>;

struct MixedPrecision {
  std::vector<bool> wide;  ///< One flag per group.
  double sqnr_db = 0.0;    ///< Measured for `wide`.
  int rounds = 0;          ///< Configurations measured.
};

Expected<MixedPrecision> ChooseWideGroups(const FormatPlanner& planner, double target_db,
                                          const MeasureSqnr& measure);

/// A candidate for 16 bits in the per-layer choice (QuantizeOptions::
/// per_layer): an activation group or a layer's weights.
struct WideCandidate {
  double ratio = 0.0;  ///< Its 8-bit noise-to-signal ratio on the calibration samples.
  int64_t cost = 0;    ///< The extra MACs (array passes) 16 bits cost it.
  bool head = false;   ///< It makes or holds a graph output: taken first.
};

/// The candidates' order: heads first, then by ratio per unit of extra MACs
/// (`total_macs`: the model's), ties in the given order.
std::vector<size_t> BenefitPerCostOrder(const std::vector<WideCandidate>& candidates,
                                        int64_t total_macs);

/// The least output SQNR with the first `count` candidates of the order wide.
using MeasurePrefix = std::function<Expected<double>(size_t count)>;

struct PrefixChoice {
  size_t count = 0;      ///< Candidates taken.
  double sqnr_db = 0.0;  ///< Measured for them.
  int rounds = 0;        ///< Prefixes measured.
};

/// The shortest prefix of `size` candidates whose measured SQNR reaches
/// `target_db`, by bisection (the SQNR taken to grow with the prefix):
/// none when none are needed, all when even all miss.
Expected<PrefixChoice> ChooseShortestPrefix(size_t size, double target_db,
                                            const MeasurePrefix& measure);

}  // namespace opuc::quant

#endif  // OPUC_SRC_QUANT_MIXED_PRECISION_H
