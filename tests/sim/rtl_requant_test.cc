// The output stage and the residual add of hw/rtl (their one rounding,
// opu_requant) on random operands against the exact value, worked here in
// 128-bit integers from numerics.md: every shift either way, products and
// sums up to the 80 bits the stage holds, each format's clamp.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>

#include "stages_bench.h"

namespace {

using opuc::test::Bench;
using opuc::test::Lane;

// clamp(rhu(x / 2^s), lo, hi): x times 2^-s exactly for s <= 0.
int64_t Requant(__int128 x, int s, int64_t lo, int64_t hi) {
  __int128 v = 0;
  if (s > 0) {
    s = std::min(s, 100);  // |x| < 2^80: a shift of 81 or more rounds to 0
    v = (x + (static_cast<__int128>(1) << (s - 1))) >> s;
  } else if (s >= -40) {
    v = x * (static_cast<__int128>(1) << -s);
  } else {
    v = x == 0 ? 0 : x > 0 ? hi + 1 : lo - 1;
  }
  return static_cast<int64_t>(std::clamp<__int128>(v, lo, hi));
}

struct Format {
  int lo, hi;
};
constexpr Format kFormats[] = {{-128, 127}, {0, 255}, {-32768, 32767}};

// A signed value of `bits` bits, its magnitude's length drawn first, so
// that small and large values, and the extremes, all come up.
int64_t Draw(std::mt19937_64& rng, int bits) {
  const int length = static_cast<int>(rng() % static_cast<uint64_t>(bits));
  const int64_t magnitude = static_cast<int64_t>(rng() & ((uint64_t{1} << length) - 1));
  const int64_t v = (rng() & 1U) ? -magnitude - 1 : magnitude;
  return rng() % 16 == 0
             ? ((rng() & 1U) ? -(int64_t{1} << (bits - 1)) : (int64_t{1} << (bits - 1)) - 1)
             : v;
}

TEST_CASE("output stage: random acc x M, any S, against the exact value") {
  Bench b;
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 400; ++trial) {
    const Format f = kFormats[trial % 3];
    b.Range(f.lo, f.hi);
    int64_t acc[4], m[4], s[4];
    for (int j = 0; j < 4; ++j) {
      acc[j] = Draw(rng, 48);
      m[j] = Draw(rng, 16);
      s[j] = static_cast<int64_t>(rng() % 256) - 128;  // the whole param byte
      if (rng() % 2 == 0) s[j] = static_cast<int64_t>(rng() % 90) - 20;
      b.Entry(j, acc[j]);
      b.Param(j, static_cast<int>(m[j]), static_cast<int>(s[j] & 255), 0);
    }
    b.Settle();
    for (int j = 0; j < 4; ++j) {
      CAPTURE(acc[j]);
      CAPTURE(m[j]);
      CAPTURE(s[j]);
      CHECK(Lane(b.tb->output_stage_o, j) ==
            Requant(static_cast<__int128>(acc[j]) * m[j], static_cast<int>(s[j]), f.lo, f.hi));
    }
  }
}

TEST_CASE("residual add: random acc and residual aligned up to 80 bits, against the exact value") {
  Bench b;
  std::mt19937_64 rng(12);
  b.tb->res_lane_i = 0;
  b.tb->res_lanes_i = 4;
  b.tb->res_format_i = 0;  // i8
  for (int trial = 0; trial < 400; ++trial) {
    const Format f = kFormats[trial % 3];
    b.Range(f.lo, f.hi);
    const bool multiply = trial % 4 == 3;
    const int a = static_cast<int>(rng() % 32), r = static_cast<int>(rng() % 32);
    const int out = static_cast<int>(rng() % 64);
    b.tb->multiply_i = multiply;
    b.tb->acc_shift_i = static_cast<uint8_t>(a);
    b.tb->res_shift_i = static_cast<uint8_t>(r);
    b.tb->out_shift_i = static_cast<uint8_t>(out);
    int64_t acc[4], res[4];
    uint64_t row = 0;
    for (int j = 0; j < 4; ++j) {
      acc[j] = Draw(rng, 48);
      res[j] = static_cast<int8_t>(rng() & 255);
      row |= static_cast<uint64_t>(static_cast<uint8_t>(res[j])) << (8 * j);
      b.Entry(j, acc[j]);
    }
    b.tb->row_i = row;
    b.Settle();
    for (int j = 0; j < 4; ++j) {
      CAPTURE(acc[j]);
      CAPTURE(res[j]);
      CAPTURE(a);
      CAPTURE(r);
      CAPTURE(out);
      // multiply: acc x res at out - a places; add: (acc << a) + (res << r) at out.
      const __int128 x =
          multiply ? static_cast<__int128>(acc[j]) * res[j]
                   : (static_cast<__int128>(acc[j]) << a) + (static_cast<__int128>(res[j]) << r);
      CHECK(Lane(b.tb->residual_add_o, j) == Requant(x, multiply ? out - a : out, f.lo, f.hi));
    }
  }
}

}  // namespace
