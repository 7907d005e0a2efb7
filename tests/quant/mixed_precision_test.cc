// The per-layer choice's knapsack and budget search, and the order and
// prefix search it replaced (mixed_precision.h), with expectations worked
// out by hand.
#include "mixed_precision.h"

#include <doctest/doctest.h>

#include <cmath>
#include <set>

namespace opuc::quant {
namespace {

TEST_CASE("BenefitPerCostOrder: heads first, then noise per extra MAC") {
  // total 1000 MACs: priorities r / (cost / 1000 + 0.01).
  const std::vector<WideCandidate> c = {
      {0.010, 100, false},  // 0.010 / 0.11 = 0.091
      {0.004, 0, false},    // 0.004 / 0.01 = 0.4
      {0.001, 10, true},    // head
      {0.020, 300, false},  // 0.020 / 0.31 = 0.065
  };
  CHECK(BenefitPerCostOrder(c, 1000) == std::vector<size_t>{2, 1, 0, 3});
}

TEST_CASE("ChooseShortestPrefix: none, all, or the shortest that reaches") {
  // SQNR of a prefix of n: 10 + 2n dB.
  int calls = 0;
  const auto grows = [&](size_t n) -> Expected<double> {
    ++calls;
    return 10.0 + 2.0 * static_cast<double>(n);
  };
  Expected<PrefixChoice> none = ChooseShortestPrefix(20, 9.0, grows);
  REQUIRE(none.ok());
  CHECK(none->count == 0);
  CHECK(calls == 1);
  Expected<PrefixChoice> all = ChooseShortestPrefix(20, 60.0, grows);
  REQUIRE(all.ok());
  CHECK(all->count == 20);
  CHECK(all->sqnr_db == 50.0);
  // 10 + 2n >= 25 first at n = 8 (26 dB).
  Expected<PrefixChoice> some = ChooseShortestPrefix(20, 25.0, grows);
  REQUIRE(some.ok());
  CHECK(some->count == 8);
  CHECK(some->sqnr_db == 26.0);
}

/// Six candidates, worked by hand below: the knapsack leaves B and C at 8
/// bits (noise 0.009, 80 MACs saved) where noise per MAC would leave A.
std::vector<WideCandidate> SixCandidates() {
  return {
      {0.006, 60, false},   // A
      {0.0045, 40, false},  // B
      {0.0045, 40, false},  // C
      {0.02, 5, true},      // D: a head, always wide
      {0.01, 0, false},     // E: free, always wide
      {0.0, 30, false},     // F: no noise, never wide
  };
}

TEST_CASE("WideUnderBudget: the most MACs at 8 bits whose noise fits the budget") {
  const std::vector<WideCandidate> c = SixCandidates();
  // Budget 0.01: A + B = 0.0105 does not fit; B + C = 0.009 does and saves
  // 80 MACs, A alone 60. Wide: A, D, E — 65 extra MACs.
  CHECK(WideUnderBudget(c, 0.01) == std::vector<bool>{true, false, false, true, true, false});
  // The order by noise per MAC (total 1000: A 0.006 / 0.07 = 0.086, B and C
  // 0.0045 / 0.05 = 0.09, E 0.01 / 0.01 = 1) widens D, E, B, C before A: its
  // shortest prefix within 0.01 (A and F left: 0.006) costs 85 MACs.
  CHECK(BenefitPerCostOrder(c, 1000) == std::vector<size_t>{3, 4, 1, 2, 0, 5});
  // Budget 0.0105, A + B exactly: in steps of 1.05e-6 they round up to
  // 5715 + 4286 > 10000, so still B and C (the rounding errs to wide).
  CHECK(WideUnderBudget(c, 0.0105) == std::vector<bool>{true, false, false, true, true, false});
  // Budget 0.011: A + B (or A + C) fit and save 100: the first of the two.
  CHECK(WideUnderBudget(c, 0.011) == std::vector<bool>{false, false, true, true, true, false});
  // Budget 0.007: A alone (60) beats B alone (40).
  CHECK(WideUnderBudget(c, 0.007) == std::vector<bool>{false, true, true, true, true, false});
  // No budget: every candidate with noise wide; any budget over 0.015:
  // only the head and the free one.
  CHECK(WideUnderBudget(c, 0.0) == std::vector<bool>{true, true, true, true, true, false});
  CHECK(WideUnderBudget(c, 1.0) == std::vector<bool>{false, false, false, true, true, false});
}

TEST_CASE("ChooseByNoiseBudget: the cheapest budget's setting that reaches") {
  const std::vector<WideCandidate> c = SixCandidates();
  // Measured SQNR: the noise model itself, −10·log10 of the 8-bit ratios'
  // sum (100 dB when none is left), each distinct setting measured once.
  std::set<std::vector<bool>> seen;
  bool repeated = false;
  const auto additive = [&](const std::vector<bool>& wide) -> Expected<double> {
    repeated = repeated || !seen.insert(wide).second;
    double noise = 0.0;
    for (size_t k = 0; k < c.size(); ++k)
      if (!wide[k]) noise += c[k].ratio;
    return noise > 0.0 ? -10.0 * std::log10(noise) : 100.0;
  };
  // 20 dB: the noise may be 0.01. B and C at 8 bits give 0.009 (20.46 dB).
  Expected<BudgetChoice> some = ChooseByNoiseBudget(c, 20.0, additive);
  REQUIRE(some.ok());
  CHECK(some->wide == std::vector<bool>{true, false, false, true, true, false});
  CHECK(some->sqnr_db == doctest::Approx(-10.0 * std::log10(0.009)));
  CHECK(some->rounds == static_cast<int>(seen.size()));
  CHECK_FALSE(repeated);
  // All at 8 bits: 0.045, 13.5 dB.
  seen.clear();
  Expected<BudgetChoice> none = ChooseByNoiseBudget(c, 13.0, additive);
  REQUIRE(none.ok());
  CHECK(none->wide == std::vector<bool>(6, false));
  CHECK(none->rounds == 1);
  // Beyond even all wide (100 dB): all.
  seen.clear();
  Expected<BudgetChoice> all = ChooseByNoiseBudget(c, 120.0, additive);
  REQUIRE(all.ok());
  CHECK(all->wide == std::vector<bool>(6, true));
  CHECK(all->sqnr_db == 100.0);
  CHECK(all->rounds == 2);
}

}  // namespace
}  // namespace opuc::quant
