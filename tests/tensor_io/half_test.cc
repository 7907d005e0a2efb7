// HalfToFloat: every class of binary16 value, derived from the format
// (sign, 5-bit exponent with bias 15, 10-bit fraction).
#include "opuc/tensor_io/half.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>

namespace opuc {
namespace {

uint32_t Bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

TEST_CASE("normal halves") {
  CHECK(HalfToFloat(0x3C00) == 1.0f);  // exponent 15 -> 2^0
  CHECK(HalfToFloat(0xBC00) == -1.0f);
  CHECK(HalfToFloat(0x4000) == 2.0f);                          // exponent 16
  CHECK(HalfToFloat(0x3800) == 0.5f);                          // exponent 14
  CHECK(HalfToFloat(0x3E00) == 1.5f);                          // fraction 0x200 = 1/2
  CHECK(HalfToFloat(0x7BFF) == 65504.0f);                      // 2^15 * (1 + 1023/1024)
  CHECK(HalfToFloat(0x0400) == std::ldexp(1.0f, -14));         // smallest normal
  CHECK(HalfToFloat(0x3BFF) == 1.0f - std::ldexp(1.0f, -11));  // 2^-1 * (2047/1024)
}

TEST_CASE("subnormal halves become normal floats") {
  // Exponent 0: value 2^-14 * fraction/1024 = fraction * 2^-24.
  CHECK(HalfToFloat(0x0001) == std::ldexp(1.0f, -24));
  CHECK(Bits(HalfToFloat(0x0001)) == 0x33800000u);  // float exponent -24+127 = 103
  CHECK(HalfToFloat(0x0002) == std::ldexp(1.0f, -23));
  CHECK(HalfToFloat(0x0200) == std::ldexp(1.0f, -15));  // 512 * 2^-24
  CHECK(HalfToFloat(0x03FF) == std::ldexp(1023.0f, -24));
  CHECK(HalfToFloat(0x8003) == -std::ldexp(3.0f, -24));
  // 3 * 2^-24 = 1.5 * 2^-23: float exponent 104 (0x68), fraction 0x400000.
  CHECK(Bits(HalfToFloat(0x0003)) == 0x34400000u);
}

TEST_CASE("zeros, infinities and NaNs") {
  CHECK(Bits(HalfToFloat(0x0000)) == 0x00000000u);
  CHECK(Bits(HalfToFloat(0x8000)) == 0x80000000u);
  CHECK(Bits(HalfToFloat(0x7C00)) == 0x7F800000u);
  CHECK(Bits(HalfToFloat(0xFC00)) == 0xFF800000u);
  // NaN: the fraction moves up 13 bits, keeping the quiet bit and the payload.
  CHECK(std::isnan(HalfToFloat(0x7E00)));
  CHECK(Bits(HalfToFloat(0x7E00)) == 0x7FC00000u);
  CHECK(Bits(HalfToFloat(0x7C01)) == 0x7F802000u);
  CHECK(Bits(HalfToFloat(0xFFFF)) == 0xFFFFE000u);
}

}  // namespace
}  // namespace opuc
