//===- src/quant/mixed_precision.cc - Which activations get 16 bits -------===//
#include "mixed_precision.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

namespace opuc::quant {
namespace {

constexpr int kMaxRounds = 12;
constexpr double kLeastGainDb = 0.1;

/// Noise-to-signal ratio of a group at 8 bits.
double Ratio(const FormatGroup& g) { return g.signal > 0.0 ? g.noise / g.signal : 0.0; }

}  // namespace

Expected<MixedPrecision> ChooseWideGroups(const FormatPlanner& planner, double target_db,
                                          const MeasureSqnr& measure) {
  const std::vector<FormatGroup>& groups = planner.groups();
  MixedPrecision best{std::vector<bool>(groups.size(), false), 0.0, 1};
  OPUC_ASSIGN_OR_RETURN(best.sqnr_db, measure(best.wide));
  // Candidates by benefit per cost: an i16 group removes its 8-bit noise and
  // costs a second array pass over the MACs reading it (a small floor keeps
  // free groups, read by no inner product, first but still ordered by noise).
  const double total = static_cast<double>(std::max<int64_t>(planner.total_macs(), 1));
  std::vector<size_t> order;
  for (size_t k = 0; k < groups.size(); ++k)
    if (groups[k].may_widen && Ratio(groups[k]) > 0.0) order.push_back(k);
  const auto priority = [&](size_t k) {
    return Ratio(groups[k]) / (static_cast<double>(groups[k].extra_macs) / total + 0.01);
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return priority(a) > priority(b); });

  std::vector<bool> wide = best.wide;
  double current = best.sqnr_db;
  size_t next = 0;
  int flat_rounds = 0;
  while (current < target_db && next < order.size() && best.rounds < kMaxRounds) {
    // Output noise modelled as the sum of the 8-bit groups' ratios: widen, in
    // order, until the model's remaining noise falls by the measured shortfall.
    double remaining = 0.0;
    for (size_t i = next; i < order.size(); ++i) remaining += Ratio(groups[order[i]]);
    const double keep = remaining * std::pow(10.0, (current - target_db) / 10.0);
    do {
      remaining -= Ratio(groups[order[next]]);
      wide[order[next++]] = true;
    } while (next < order.size() && remaining > keep);
    OPUC_ASSIGN_OR_RETURN(const double measured, measure(wide));
    ++best.rounds;
    flat_rounds = measured < current + kLeastGainDb ? flat_rounds + 1 : 0;
    current = measured;
    if (measured > best.sqnr_db + 1e-9) {
      best.wide = wide;
      best.sqnr_db = measured;
    }
    if (flat_rounds >= 2) break;
  }
  return best;
}

std::vector<size_t> BenefitPerCostOrder(const std::vector<WideCandidate>& candidates,
                                        int64_t total_macs) {
  const double total = static_cast<double>(std::max<int64_t>(total_macs, 1));
  std::vector<size_t> order(candidates.size());
  std::iota(order.begin(), order.end(), size_t{0});
  const auto priority = [&](size_t k) {
    return candidates[k].ratio / (static_cast<double>(candidates[k].cost) / total + 0.01);
  };
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (candidates[a].head != candidates[b].head) return candidates[a].head;
    return priority(a) > priority(b);
  });
  return order;
}

Expected<PrefixChoice> ChooseShortestPrefix(size_t size, double target_db,
                                            const MeasurePrefix& measure) {
  PrefixChoice none{0, 0.0, 1};
  OPUC_ASSIGN_OR_RETURN(none.sqnr_db, measure(0));
  if (none.sqnr_db >= target_db || size == 0) return none;
  PrefixChoice all{size, 0.0, 2};
  OPUC_ASSIGN_OR_RETURN(all.sqnr_db, measure(size));
  if (all.sqnr_db < target_db) return all;
  // measure(lo) misses, measure(hi) reaches.
  size_t lo = 0;
  PrefixChoice best = all;
  while (best.count - lo > 1) {
    const size_t mid = lo + (best.count - lo) / 2;
    OPUC_ASSIGN_OR_RETURN(const double db, measure(mid));
    ++best.rounds;
    if (db >= target_db) {
      best.count = mid;
      best.sqnr_db = db;
    } else {
      lo = mid;
    }
  }
  return best;
}

std::vector<bool> WideUnderBudget(const std::vector<WideCandidate>& candidates, double budget) {
  std::vector<bool> wide(candidates.size(), true);
  std::vector<size_t> items;
  std::vector<int> steps;
  for (size_t k = 0; k < candidates.size(); ++k) {
    const WideCandidate& c = candidates[k];
    if (c.head || c.cost <= 0) continue;
    if (c.ratio <= 0.0) {
      wide[k] = false;
      continue;
    }
    if (!(budget > 0.0)) continue;
    const double units = c.ratio / budget * kBudgetSteps;
    if (units > kBudgetSteps) continue;
    // A hair under a whole step is that step: 0.6 / 1.0 · 10000 is 6000.
    items.push_back(k);
    steps.push_back(std::max(1, static_cast<int>(std::ceil(units - 1e-6))));
  }
  // saved[u]: the most MACs left at 8 bits within u steps; narrow[i][u]:
  // whether item i is at 8 bits in that best set of the first i + 1 items.
  std::vector<int64_t> saved(kBudgetSteps + 1, 0);
  std::vector<std::vector<bool>> narrow(items.size(), std::vector<bool>(kBudgetSteps + 1, false));
  for (size_t i = 0; i < items.size(); ++i) {
    const int64_t cost = candidates[items[i]].cost;
    for (int u = kBudgetSteps; u >= steps[i]; --u)
      if (saved[static_cast<size_t>(u - steps[i])] + cost > saved[static_cast<size_t>(u)]) {
        saved[static_cast<size_t>(u)] = saved[static_cast<size_t>(u - steps[i])] + cost;
        narrow[i][static_cast<size_t>(u)] = true;
      }
  }
  int u = kBudgetSteps;
  for (size_t i = items.size(); i-- > 0;)
    if (narrow[i][static_cast<size_t>(u)]) {
      wide[items[i]] = false;
      u -= steps[i];
    }
  return wide;
}

Expected<BudgetChoice> ChooseByNoiseBudget(const std::vector<WideCandidate>& candidates,
                                           double target_db, const MeasureWide& measure) {
  std::map<std::vector<bool>, double> measured;
  int rounds = 0;
  const auto sqnr = [&](const std::vector<bool>& wide) -> Expected<double> {
    const auto it = measured.find(wide);
    if (it != measured.end()) return it->second;
    OPUC_ASSIGN_OR_RETURN(const double db, measure(wide));
    ++rounds;
    measured.emplace(wide, db);
    return db;
  };
  BudgetChoice none{std::vector<bool>(candidates.size(), false), 0.0, 0};
  OPUC_ASSIGN_OR_RETURN(none.sqnr_db, sqnr(none.wide));
  none.rounds = rounds;
  if (none.sqnr_db >= target_db || candidates.empty()) return none;
  BudgetChoice all{std::vector<bool>(candidates.size(), true), 0.0, 0};
  OPUC_ASSIGN_OR_RETURN(all.sqnr_db, sqnr(all.wide));
  all.rounds = rounds;
  if (all.sqnr_db < target_db) return all;
  // Budgets in dB below 1 (−10·log10): `loose` holds every candidate's
  // noise, `tight` none; the SQNR at `loose` misses (checked), at `tight`
  // reaches (all wide, or all but those without noise).
  double total = 0.0, least = 0.0;
  for (const WideCandidate& c : candidates)
    if (!c.head && c.cost > 0 && c.ratio > 0.0) {
      total += c.ratio;
      least = least > 0.0 ? std::min(least, c.ratio) : c.ratio;
    }
  if (total <= 0.0) return all;
  const auto setting = [&](double db) {
    return WideUnderBudget(candidates, std::pow(10.0, -db / 10.0));
  };
  double loose = -10.0 * std::log10(total), tight = -10.0 * std::log10(least) + kBudgetResolutionDb;
  BudgetChoice best = all;
  {
    const std::vector<bool> wide = setting(loose);
    OPUC_ASSIGN_OR_RETURN(const double db, sqnr(wide));
    if (db >= target_db) return BudgetChoice{wide, db, rounds};
    const std::vector<bool> at_tight = setting(tight);
    OPUC_ASSIGN_OR_RETURN(const double tight_db, sqnr(at_tight));
    if (tight_db >= target_db) best = BudgetChoice{at_tight, tight_db, 0};
  }
  while (tight - loose > kBudgetResolutionDb) {
    const double mid = 0.5 * (loose + tight);
    const std::vector<bool> wide = setting(mid);
    OPUC_ASSIGN_OR_RETURN(const double db, sqnr(wide));
    if (db >= target_db) {
      tight = mid;
      best.wide = wide;
      best.sqnr_db = db;
    } else {
      loose = mid;
    }
  }
  best.rounds = rounds;
  return best;
}

}  // namespace opuc::quant
