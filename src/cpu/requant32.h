//===- src/cpu/requant32.h - RequantTo without branches -*- C++ -*-===//
//
// RequantTo(x, s, lo, hi) (numerics.md §1) for int32 x and a result range
// inside i16's, as arithmetic the compiler vectorizes: the scalar form
// branches on the shift for every element. For s in [1, 30], round half up
// of x / 2^s as ShrRhu computes it, (x >> s) + (((x & (2^s − 1)) + 2^(s−1)) >> s)
// (the second sum stays below 1.5 · 2^30); for s ≤ 0, x · 2^−s with x first
// clamped to ±2^15 and the factor to 2^15 — any value either clamp changes
// saturates to the same bound of the range as the exact product does.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_CPU_REQUANT32_H
#define OPUC_SRC_CPU_REQUANT32_H

#include <algorithm>
#include <cstdint>
#include <limits>

namespace opuc::cpu {

struct Requant32 {
  int32_t bound = std::numeric_limits<int32_t>::max();
  int32_t shift = 0, mask = 0, half = 0, factor = 1;

  /// Whether shift s has this form (s ≤ 30).
  static bool Covers(int s) { return s <= 30; }
  static Requant32 For(int s) {
    Requant32 r;
    if (s > 0) {
      r.shift = s;
      r.mask = (int32_t{1} << s) - 1;
      r.half = int32_t{1} << (s - 1);
    } else {
      r.bound = int32_t{1} << 15;
      r.factor = int32_t{1} << std::min(-s, 15);
    }
    return r;
  }
};

/// RequantTo(x, s, lo, hi) for r = Requant32::For(s), lo ≥ −2^15, hi < 2^15.
inline int32_t Requantize(int32_t x, int32_t bound, int32_t shift, int32_t mask, int32_t half,
                          int32_t factor, int32_t lo, int32_t hi) {
  x = std::min(std::max(x, -bound), bound);
  const int32_t y = ((x >> shift) + (((x & mask) + half) >> shift)) * factor;
  return std::min(std::max(y, lo), hi);
}

/// RequantTo(·, s, lo, hi) for a shift fixed over a loop (Requant32::Covers(s)).
struct FixedRequant {
  FixedRequant(int s, int64_t lo_, int64_t hi_)
      : r(Requant32::For(s)), lo(static_cast<int32_t>(lo_)), hi(static_cast<int32_t>(hi_)) {}
  int32_t operator()(int32_t x) const {
    return Requantize(x, r.bound, r.shift, r.mask, r.half, r.factor, lo, hi);
  }
  Requant32 r;
  int32_t lo, hi;
};

}  // namespace opuc::cpu

#endif  // OPUC_SRC_CPU_REQUANT32_H
