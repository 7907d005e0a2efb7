//===- opuc/numerics/fixed_point.h - Integer primitives of numerics.md -*- C++ -*-===//
//
// The primitive functions of docs/numerics.md §0, §1 and §3, exactly as the
// page defines them, for the integer reference executor and the quantizer.
// Every function is total: no input, however large, has UB (the few that
// need a domain to be exact say so).
//
//   SatInt8(x)          min(max(x, -128), 127)
//   ShrRhu(x, s)        round half up of x / 2^s; s <= 0: exact x · 2^-s
//   Requant(x, s)       SatInt8(ShrRhu(x, s)), saturating on the true value
//   FloorDiv(n, m)      ⌊n / m⌋ for m > 0, also for negative n
//   RhuDiv(n, m)        round half up of n / m, m > 0
//   Rhu(v)              round half up of a double (⌊v⌋ + (v − ⌊v⌋ >= 0.5))
//   QuantizeToInt8(v,f) SatInt8(Rhu(v · 2^f)); +inf → 127, −inf → −128, NaN → 0
//   OutputStage(a,M,S)  Requant(a · M, S), the output stage of §3
//   RequantTo(x,s,lo,hi)   clamp(ShrRhu(x, s), lo, hi): requant into any format (§1)
//   QuantizeTo(v,f,lo,hi)  clamp(Rhu(v · 2^f), lo, hi); NaN → 0
//   SplitInt16(q)       q = 256·hi + lo, hi signed [-128, 127], lo unsigned [0, 255] (§2)
//   Interpolate(a,b,t)  a + ShrRhu((b − a) · t, 8), t in [0, 255]: i16 tables (§6)
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_NUMERICS_FIXED_POINT_H
#define OPUC_NUMERICS_FIXED_POINT_H

#include <cmath>
#include <cstdint>
#include <limits>

namespace opuc {

inline int8_t SatInt8(int64_t x) {
  return static_cast<int8_t>(x < -128 ? -128 : x > 127 ? 127 : x);
}

/// Clamps `x` to [lo, hi] (helper for the saturating shifts below).
inline int64_t ClampInt64(int64_t x, int64_t lo, int64_t hi) {
  return x < lo ? lo : x > hi ? hi : x;
}

/// Round half up of x / 2^s for s > 0 (arithmetic shift: floor toward −∞),
/// exact for every int64 x and every s > 0. For s <= 0 the exact product
/// x · 2^-s when it fits int64 (the callers' domain); beyond, it saturates
/// to the int64 limits rather than overflow.
inline int64_t ShrRhu(int64_t x, int s) {
  if (s <= 0) {
    // A multiplication, not <<: shifting a negative value is UB before C++20.
    int64_t product = 0;
    if (s > -63 && !__builtin_mul_overflow(x, int64_t{1} << (-s), &product)) return product;
    if (x == 0) return 0;
    return x > 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
  }
  if (s >= 64) return 0;  // |x| / 2^s <= 1/2; only −2^63 / 2^64 = −0.5 ties, and goes up to 0.
  if (s == 63) return x >= (int64_t{1} << 62) ? 1 : x < -(int64_t{1} << 62) ? -1 : 0;
  // ⌊(x + h) / 2^s⌋ = (x >> s) + ((low + h) >> s) with low = x mod 2^s: the
  // sum x + h could overflow near 2^63, low + h < 1.5 · 2^62 cannot.
  const int64_t half = int64_t{1} << (s - 1);
  const int64_t low = x & ((int64_t{1} << s) - 1);
  return (x >> s) + ((low + half) >> s);
}

/// SatInt8(ShrRhu(x, s)) on the true value, for any int64 x and any s:
/// for s <= 0, x is first clamped to [−256, 256] (exact: any |x| >= 128
/// saturates after a left shift), so the shift never overflows; a shift
/// of 8 or more of a non-zero value saturates as well.
inline int8_t Requant(int64_t x, int s) {
  if (s <= 0) {
    if (x == 0) return 0;
    if (s < -8) return x > 0 ? 127 : -128;
    return SatInt8(ShrRhu(ClampInt64(x, -256, 256), s));
  }
  return SatInt8(ShrRhu(x, s));
}

/// ⌊n / m⌋ for m > 0 (C's `/` truncates toward zero; this floors).
inline int64_t FloorDiv(int64_t n, int64_t m) {
  const int64_t q = n / m;
  return (n % m != 0 && n < 0) ? q - 1 : q;
}

/// Round half up of n / m for m > 0: FloorDiv(2n + m, 2m). Callers keep
/// |n| and m below 2^61 so that 2n + m and 2m fit in int64.
inline int64_t RhuDiv(int64_t n, int64_t m) { return FloorDiv(2 * n + m, 2 * m); }

/// Round half up of a double: ⌊v⌋ + (v − ⌊v⌋ >= 0.5 ? 1 : 0), never
/// floor(v + 0.5) (numerics.md §0). Values beyond ±2^62 saturate to ±2^62,
/// NaN gives 0.
inline int64_t Rhu(double v) {
  if (std::isnan(v)) return 0;
  constexpr double kLimit = 4611686018427387904.0;  // 2^62
  if (v >= kLimit) return int64_t{1} << 62;
  if (v <= -kLimit) return -(int64_t{1} << 62);
  const double fl = std::floor(v);
  return static_cast<int64_t>(fl) + (v - fl >= 0.5 ? 1 : 0);
}

/// quantize(v, f) of numerics.md §0: SatInt8(Rhu(v · 2^f)), computed in
/// float64 (v · 2^f is exact unless it under- or overflows, and both ends
/// still round and saturate correctly). +inf → 127, −inf → −128, NaN → 0.
inline int8_t QuantizeToInt8(double v, int f) {
  if (std::isnan(v)) return 0;
  return SatInt8(Rhu(std::ldexp(v, f)));
}

/// The output stage of numerics.md §3: Requant(acc · M, S). Exact whenever
/// |acc · M| < 2^63, which int32 `acc` and int32 `M` guarantee; a larger
/// product saturates to the int64 limits (no UB).
inline int8_t OutputStage(int64_t acc, int32_t multiplier, int shift) {
  int64_t v = 0;
  if (__builtin_mul_overflow(acc, int64_t{multiplier}, &v))
    v = (acc < 0) != (multiplier < 0) ? std::numeric_limits<int64_t>::min()
                                      : std::numeric_limits<int64_t>::max();
  return Requant(v, shift);
}

/// clamp(ShrRhu(x, s), lo, hi) on the true value, for any int64 x and s
/// (ShrRhu saturates to the int64 limits where a left shift overflows, and
/// every format's range lies far inside them): requant into the format
/// [lo, hi] of numerics.md §1 (i8, u8, i16).
inline int64_t RequantTo(int64_t x, int s, int64_t lo, int64_t hi) {
  return ClampInt64(ShrRhu(x, s), lo, hi);
}

/// clamp(Rhu(v · 2^f), lo, hi): quantize into any format; +inf → hi,
/// −inf → lo, NaN → 0 (or the bound nearest 0 when 0 is outside [lo, hi]).
inline int64_t QuantizeTo(double v, int f, int64_t lo, int64_t hi) {
  return ClampInt64(std::isnan(v) ? 0 : Rhu(std::ldexp(v, f)), lo, hi);
}

/// The two bytes of an i16 operand as the 8-bit array reads them in its two
/// passes (numerics.md §2): q = 256 · high + low, high = q >> 8 (signed,
/// [−128, 127]), low = q & 255 (unsigned, [0, 255]).
struct Int16Bytes {
  int32_t high;
  int32_t low;
};
inline Int16Bytes SplitInt16(int32_t q) {
  return {q >> 8, q & 255};  // >> is arithmetic (C++20 defines it; every C++17 target here does it)
}

/// Linear interpolation between two table knots a and b at t/256 of the
/// way, rounded half up: a + ShrRhu((b − a) · t, 8) (numerics.md §6, tables
/// on i16 inputs). Exact in int64; the result lies between a and b.
inline int64_t Interpolate(int64_t a, int64_t b, int64_t t) { return a + ShrRhu((b - a) * t, 8); }

}  // namespace opuc

#endif  // OPUC_NUMERICS_FIXED_POINT_H
