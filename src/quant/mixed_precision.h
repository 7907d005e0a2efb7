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
// activations, then limit the outputs). The per-layer choice
// (per_layer_choice.h) searches its candidates — activation groups and
// layers' weights, each priced by its measured effect at the outputs — by
// the shortest prefix of the order by noise per MAC and, with
// budget_search, by a knapsack under a noise budget, the budget bisected
// on measured settings.
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

/// Steps of the noise budget in WideUnderBudget's knapsack: each
/// candidate's ratio is rounded up to a whole step, so a set that fits in
/// steps fits the budget.
inline constexpr int kBudgetSteps = 10000;

/// Which candidates take 16 bits when the 8-bit ones may add at most
/// `budget` of noise (their ratios summed: the model of output noise): the
/// set left at 8 bits is the one whose extra MACs are the most among those
/// whose ratios fit the budget — a 0/1 knapsack, solved exactly over
/// kBudgetSteps steps, so that an expensive candidate can stay at 8 bits
/// while cheaper ones with more noise per MAC are widened. Heads and
/// candidates that cost nothing are always wide, candidates without noise
/// never; ties keep the wider setting (less noise for the same MACs).
std::vector<bool> WideUnderBudget(const std::vector<WideCandidate>& candidates, double budget);

/// The least output SQNR with the candidates marked in `wide` at 16 bits.
using MeasureWide = std::function<Expected<double>(const std::vector<bool>& wide)>;

struct BudgetChoice {
  std::vector<bool> wide;  ///< Per candidate.
  double sqnr_db = 0.0;    ///< Measured for `wide`.
  int rounds = 0;          ///< Settings measured.
};

/// Budget steps of the search, in dB of the budget: it stops when the
/// budgets that miss and reach are closer.
inline constexpr double kBudgetResolutionDb = 0.1;

/// The cheapest setting of WideUnderBudget that reaches `target_db`, by
/// bisection over the budget in dB (the SQNR taken to fall as the budget
/// grows); a setting met twice is measured once. None wide when none are
/// needed, all when even all miss.
Expected<BudgetChoice> ChooseByNoiseBudget(const std::vector<WideCandidate>& candidates,
                                           double target_db, const MeasureWide& measure);

}  // namespace opuc::quant

#endif  // OPUC_SRC_QUANT_MIXED_PRECISION_H
