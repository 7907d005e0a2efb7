//===- src/isa/bits.h - Bit fields of a 128-bit word ----------*- C++ -*-===//
#ifndef OPUC_SRC_ISA_BITS_H
#define OPUC_SRC_ISA_BITS_H

#include <cstdint>

#include "opuc/isa/isa.h"

namespace opuc::isa {

/// Bits [lsb, lsb + width) of `word` (width <= 64), which may straddle the
/// two halves.
inline uint64_t GetBits(const Word& word, int lsb, int width) {
  uint64_t value = 0;
  for (int b = 0; b < width; ++b) {
    const int bit = lsb + b;
    const uint64_t half = bit < 64 ? word.lo : word.hi;
    value |= ((half >> (bit % 64)) & 1u) << b;
  }
  return value;
}

/// Whether any of bits [lsb, lsb + width) is set; any width (a reserved
/// field may be wider than 64 bits, which GetBits cannot return).
inline bool AnyBits(const Word& word, int lsb, int width) {
  for (int bit = lsb; bit < lsb + width; ++bit)
    if ((((bit < 64 ? word.lo : word.hi) >> (bit % 64)) & 1u) != 0) return true;
  return false;
}

/// Writes the low `width` bits of `value` into bits [lsb, lsb + width).
inline void SetBits(Word& word, int lsb, int width, uint64_t value) {
  for (int b = 0; b < width; ++b) {
    const int bit = lsb + b;
    uint64_t& half = bit < 64 ? word.lo : word.hi;
    const uint64_t mask = uint64_t{1} << (bit % 64);
    half = ((value >> b) & 1u) ? (half | mask) : (half & ~mask);
  }
}

/// A `width`-bit two's complement value as int64.
inline int64_t SignExtend(uint64_t value, int width) {
  const uint64_t sign = uint64_t{1} << (width - 1);
  return static_cast<int64_t>(value ^ sign) - static_cast<int64_t>(sign);
}

}  // namespace opuc::isa

#endif  // OPUC_SRC_ISA_BITS_H
