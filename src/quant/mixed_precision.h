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

}  // namespace opuc::quant

#endif  // OPUC_SRC_QUANT_MIXED_PRECISION_H
