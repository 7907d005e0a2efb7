//===- opuc/tensor_io/half.h - IEEE 754 binary16 ------------------*- C++ -*-===//
//
// Exact conversion of half-precision bits (1 sign bit, 5 exponent bits with
// bias 15, 10 fraction bits) to float, by Eigen::half: the same everywhere,
// unlike a compiler's _Float16, which not every target has.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_TENSOR_IO_HALF_H
#define OPUC_TENSOR_IO_HALF_H

#include <cstdint>

namespace opuc {

/// The float with the value of the half `bits`. Every half is exactly a
/// float: zeros keep their sign, subnormals (exponent 0) become normal
/// floats, infinities stay infinite, and a NaN stays a NaN with its sign and
/// its payload in the top fraction bits (quiet stays quiet).
float HalfToFloat(uint16_t bits);

}  // namespace opuc

#endif  // OPUC_TENSOR_IO_HALF_H
