//===- tests/cpu/requant32_test.cc - The branch-free output stage -===//
//
// Requantize (requant32.h) against the definition, RequantTo of
// numerics.md §1: hand-worked ties and saturations first, then every shift
// it covers over each format's range, at the int32 extremes and on random
// accumulators.
//
//===----------------------------------------------------------------------===//
#include <doctest/doctest.h>

#include <limits>
#include <random>

#include "opuc/numerics/fixed_point.h"
#include "requant32.h"

namespace opuc::cpu {
namespace {

int32_t Run(int32_t x, int s, int32_t lo, int32_t hi) {
  const Requant32 r = Requant32::For(s);
  return Requantize(x, r.bound, r.shift, r.mask, r.half, r.factor, lo, hi);
}

TEST_CASE("requant32: ties round half up, both ends saturate (hand-worked)") {
  CHECK(Run(6, 2, -128, 127) == 2);    // 1.5 → 2
  CHECK(Run(-6, 2, -128, 127) == -1);  // −1.5 → −1 (half up, not away from zero)
  CHECK(Run(5, 2, -128, 127) == 1);    // 1.25
  CHECK(Run(-7, 2, -128, 127) == -2);  // −1.75
  CHECK(Run(1000, 2, -128, 127) == 127);
  CHECK(Run(-1000, 2, -128, 127) == -128);
  CHECK(Run(200, 0, -128, 127) == 127);
  CHECK(Run(5, -3, -128, 127) == 40);  // 5 · 8
  CHECK(Run(-20, -3, -128, 127) == -128);
  CHECK(Run(-1, -20, -32768, 32767) == -32768);  // −2^20 saturates
  CHECK(Run(-1, 0, 0, 255) == 0);                // u8 clamps below
  CHECK(Run(std::numeric_limits<int32_t>::max(), 1, -32768, 32767) == 32767);
  CHECK(Run(std::numeric_limits<int32_t>::min(), 30, -128, 127) == -2);  // −2^31 / 2^30
}

TEST_CASE("requant32: equals RequantTo for every covered shift and format") {
  struct Range {
    int32_t lo, hi;
  };
  const Range formats[] = {{-128, 127}, {0, 255}, {-32768, 32767}};
  std::vector<int32_t> xs = {0,
                             1,
                             -1,
                             2,
                             -2,
                             127,
                             -128,
                             255,
                             32767,
                             -32768,
                             32768,
                             -32769,
                             std::numeric_limits<int32_t>::max(),
                             std::numeric_limits<int32_t>::min()};
  std::mt19937 rng(7);
  std::uniform_int_distribution<int32_t> any(std::numeric_limits<int32_t>::min(),
                                             std::numeric_limits<int32_t>::max());
  std::uniform_int_distribution<int32_t> small(-70000, 70000);
  for (int i = 0; i < 500; ++i) xs.push_back(any(rng)), xs.push_back(small(rng));
  for (int s = -40; s <= 30; ++s) {
    REQUIRE(Requant32::Covers(s));
    for (int32_t x : xs) {
      // Ties at this shift too: x ± half of the step.
      for (const Range& f : formats) {
        INFO("x = " << x << ", s = " << s << ", range [" << f.lo << ", " << f.hi << "]");
        CHECK(Run(x, s, f.lo, f.hi) == RequantTo(x, s, f.lo, f.hi));
        if (s > 0 && s < 31) {
          const int64_t tie = (int64_t{x} >> s << s) + (int64_t{1} << (s - 1));
          if (tie <= std::numeric_limits<int32_t>::max())
            CHECK(Run(static_cast<int32_t>(tie), s, f.lo, f.hi) == RequantTo(tie, s, f.lo, f.hi));
        }
      }
    }
  }
  CHECK_FALSE(Requant32::Covers(31));
}

}  // namespace
}  // namespace opuc::cpu
