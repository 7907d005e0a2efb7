//===- src/cpu/fast_exp.h - exp(x) in vector lanes -------*- C++ -*-===//
//
// exp(x) as plain float arithmetic a loop can vectorize (std::exp is a call
// per element): x = n·ln2 + r with n rounded to nearest by the 1.5·2^23
// trick, ln2 in two parts so r is exact, e^r from Cephes' degree-6
// polynomial on |r| <= ln2/2, and 2^n built in the exponent bits. Within 2
// ulp of std::exp for x in [-87.3, 88.3] (the test checks every 97th float
// there); outside, the argument is clamped first (exp(-87.3) ≈ 1.2e-38,
// below which std::exp gives subnormals, and exp(88.3) ≈ 2.0e38). NaN
// stays NaN: the clamps pass it on, and NaN · 2^n is NaN.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_CPU_FAST_EXP_H
#define OPUC_SRC_CPU_FAST_EXP_H

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace opuc::cpu {

inline float FastExp(float x) {
  x = x < -87.3f ? -87.3f : x;  // NaN passes both
  x = x > 88.3f ? 88.3f : x;
  constexpr float kRound = 12582912.0f;  // 1.5 · 2^23: adding it rounds to an integer
  const float n = (x * 1.44269504088896341f + kRound) - kRound;
  const float r = (x - n * 0.693359375f) - n * -2.12194440e-4f;
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  const float er = p * r * r + r + 1.0f;
  const int32_t bits = (static_cast<int32_t>(n) + 127) << 23;  // 2^n, n in [-126, 127]
  float scale;
  std::memcpy(&scale, &bits, sizeof scale);
  return er * scale;
}

}  // namespace opuc::cpu

#endif  // OPUC_SRC_CPU_FAST_EXP_H
