// The per-layer choice's order and prefix search (mixed_precision.h), with
// expectations worked out by hand.
#include "mixed_precision.h"

#include <doctest/doctest.h>

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

}  // namespace
}  // namespace opuc::quant
