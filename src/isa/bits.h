//===- src/isa/bits.h - Bit fields of a 128-bit word ----------*- C++ -*-===//
#ifndef OPUC_SRC_ISA_BITS_H
#define OPUC_SRC_ISA_BITS_H

#include <algorithm>
#include <cstdint>

#include "opuc/isa/isa.h"

namespace opuc::isa {

/// `n` one bits (0 <= n <= 64).
inline uint64_t LowMask(int n) { return n >= 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1; }

/// Bits [lsb, lsb + width) of `word` (width <= 64), which may straddle the
/// two halves.
inline uint64_t GetBits(const Word& word, int lsb, int width) {
  if (lsb >= 64) return (word.hi >> (lsb - 64)) & LowMask(width);
  const int low = std::min(width, 64 - lsb);  // the field's bits in the low half
  uint64_t value = (word.lo >> lsb) & LowMask(low);
  if (width > low) value |= (word.hi & LowMask(width - low)) << low;
  return value;
}

/// Whether any of bits [lsb, lsb + width) is set; any width (a reserved
/// field may be wider than 64 bits, which GetBits cannot return).
inline bool AnyBits(const Word& word, int lsb, int width) {
  for (int bit = lsb; bit < lsb + width; ++bit)
    if ((((bit < 64 ? word.lo : word.hi) >> (bit % 64)) & 1u) != 0) return true;
  return false;
}

/// Writes the low `width` bits of `value` into bits [lsb, lsb + width)
/// (width <= 64).
inline void SetBits(Word& word, int lsb, int width, uint64_t value) {
  value &= LowMask(width);
  if (lsb >= 64) {
    const uint64_t mask = LowMask(width) << (lsb - 64);
    word.hi = (word.hi & ~mask) | (value << (lsb - 64));
    return;
  }
  const int low = std::min(width, 64 - lsb);  // the field's bits in the low half
  const uint64_t mask = LowMask(low) << lsb;
  word.lo = (word.lo & ~mask) | ((value << lsb) & mask);
  if (width > low) word.hi = (word.hi & ~LowMask(width - low)) | (value >> low);
}

/// A `width`-bit two's complement value as int64.
inline int64_t SignExtend(uint64_t value, int width) {
  const uint64_t sign = uint64_t{1} << (width - 1);
  return static_cast<int64_t>(value ^ sign) - static_cast<int64_t>(sign);
}

}  // namespace opuc::isa

#endif  // OPUC_SRC_ISA_BITS_H
