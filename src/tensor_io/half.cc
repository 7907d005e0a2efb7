//===- src/tensor_io/half.cc - IEEE 754 binary16 ----------------------------===//
#include "opuc/tensor_io/half.h"

#include <cstring>

namespace opuc {

float HalfToFloat(uint16_t bits) {
  const uint32_t sign = static_cast<uint32_t>(bits >> 15) << 31;
  const uint32_t exponent = (bits >> 10) & 0x1fu;
  uint32_t fraction = bits & 0x3ffu;
  uint32_t result = 0;
  if (exponent == 0x1f) {
    // Infinity (fraction 0) or NaN: float's all-ones exponent, fraction moved up.
    result = sign | 0x7f800000u | (fraction << 13);
  } else if (exponent != 0) {
    // Normal: value 2^(e-15) × 1.f, rebias to 127.
    result = sign | ((exponent - 15 + 127) << 23) | (fraction << 13);
  } else if (fraction == 0) {
    result = sign;  // ±0
  } else {
    // Subnormal: value 2^-14 × 0.f. Shift the fraction until its leading one
    // reaches the implicit-bit position (bit 10), lowering the exponent.
    int32_t e = -14;
    while ((fraction & 0x400u) == 0) {
      fraction <<= 1;
      --e;
    }
    fraction &= 0x3ffu;
    result = sign | (static_cast<uint32_t>(e + 127) << 23) | (fraction << 13);
  }
  float value;
  std::memcpy(&value, &result, sizeof value);
  return value;
}

}  // namespace opuc
