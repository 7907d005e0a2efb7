//===- src/tensor_io/half.cc - IEEE 754 binary16 ----------------------------===//
#include "opuc/tensor_io/half.h"

#include <Eigen/Core>

namespace opuc {

float HalfToFloat(uint16_t bits) {
  // Eigen's portable conversion (opuc builds without F16C or ARMv8.2 FP16,
  // whose instructions would quiet a signalling NaN) keeps every bit.
  return static_cast<float>(Eigen::numext::bit_cast<Eigen::half>(bits));
}

}  // namespace opuc
