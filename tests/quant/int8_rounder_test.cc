// The weight quantizer's fast rounding at one length (src/quant/int8_rounder.h)
// against the contract's QuantizeToInt8 (numerics.md §0).
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "int8_rounder.h"
#include "opuc/numerics/fixed_point.h"

namespace opuc::quant {
namespace {

TEST_CASE("int8 rounder: QuantizeToInt8 at every length, ties and both ends included") {
  std::mt19937 random(3);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  for (int f = -12; f <= 30; ++f) {
    CAPTURE(f);
    const Int8Rounder round(f);
    std::vector<double> values = {0.0,
                                  -0.0,
                                  std::numeric_limits<double>::infinity(),
                                  -std::numeric_limits<double>::infinity(),
                                  std::numeric_limits<double>::quiet_NaN(),
                                  1e300,
                                  -1e300,
                                  1e-320,
                                  -1e-320};
    // Ties (k + ½)·2^−f around both saturation points and zero: half up.
    for (int k = -260; k <= 260; ++k) values.push_back(std::ldexp(k + 0.5, -f));
    for (int i = 0; i < 2000; ++i) values.push_back(std::ldexp(unit(random) * 300.0, -f));
    for (double v : values) {
      CAPTURE(v);
      REQUIRE(int{round(v)} == int{QuantizeToInt8(v, f)});
      if (!std::isnan(v)) CHECK(round.Value(v) == std::ldexp(QuantizeToInt8(v, f), -f));
    }
  }
  // Hand-checked: 2.5 at f = 0 goes up to 3, −2.5 up to −2; 1.0 at f = 7
  // is 128 and saturates to 127, −1.0 is −128 exactly.
  CHECK(int{Int8Rounder(0)(2.5)} == 3);
  CHECK(int{Int8Rounder(0)(-2.5)} == -2);
  CHECK(int{Int8Rounder(7)(1.0)} == 127);
  CHECK(int{Int8Rounder(7)(-1.0)} == -128);
}

}  // namespace
}  // namespace opuc::quant
