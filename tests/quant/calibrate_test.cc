// Calibration statistics and the least-error choice of fraction length
// (src/quant/calibrate.h); the errors are worked out in the comments.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "calibrate.h"

namespace opuc::quant {
namespace {

TensorStats StatsOf(float large, float small, int small_count) {
  std::vector<float> values(static_cast<size_t>(small_count), small);
  values.push_back(large);
  TensorStats stats;
  AccumulateErrors(values.data(), static_cast<int64_t>(values.size()), stats);
  return stats;
}

TEST_CASE("calibrate: the length with least squared error, not the one that avoids clipping") {
  // 1.5 fits int8 up to f = 6 (96); at f = 8 it clips to 127/256, costing
  // (1.5 − 0.49609)² = 1.0078. 0.0117 costs (0.2512/64)² = 1.54e-5 each at
  // f = 6 but only (0.005/256)² ≈ 4e-10 at f = 8.
  // 10 000 small values: f = 6 costs 0.154 < 1.008 (f = 8), 0.409 (f = 7).
  CHECK(BestFractionBits(StatsOf(1.5f, 0.0117f, 10000)) == 6);
  // 100 000: f = 6 costs 1.54 > f = 8's 1.008: clipping the one outlier wins.
  CHECK(BestFractionBits(StatsOf(1.5f, 0.0117f, 100000)) == 8);
}

TEST_CASE("calibrate: max, count, and the squared error of each candidate") {
  const float values[] = {3.0f, 0.1f};
  TensorStats stats;
  AccumulateErrors(values, 2, stats);
  CHECK(stats.seen);
  CHECK(stats.count == 2);
  CHECK(stats.max_abs == 3.0);
  // f = 5: 3·32 = 96 exact, 0.1·32 = 3.2 → 3, error 0.2/32 = 0.00625.
  const double at5 = stats.squared_error[static_cast<size_t>(5 - kMinActivationBits)];
  CHECK(at5 == doctest::Approx(0.00625 * 0.00625).epsilon(1e-6));
  // f = 6: 3·64 = 192 clips to 127/64; 0.1·64 = 6.4 → 6, error 0.4/64.
  const double at6 = stats.squared_error[static_cast<size_t>(6 - kMinActivationBits)];
  const double clip = 3.0 - 127.0 / 64.0;
  CHECK(at6 == doctest::Approx(clip * clip + 0.00625 * 0.00625).epsilon(1e-6));
  CHECK(BestFractionBits(stats) == 5);
}

TEST_CASE("calibrate: merged statistics are those of both sets of values together") {
  // The per-layer choice sums each fold's statistics from the other
  // photographs': the same as one pass over all their values.
  const std::vector<float> a = {3.0f, 0.1f, -0.7f}, b = {-5.5f, 0.02f};
  std::vector<float> both = a;
  both.insert(both.end(), b.begin(), b.end());
  TensorStats first, second, together, unseen;
  AccumulateErrors(a.data(), 3, first);
  AccumulateErrors(b.data(), 2, second);
  AccumulateErrors(both.data(), 5, together);
  MergeStats(first, second);
  CHECK(first.seen);
  CHECK(first.count == 5);
  CHECK(first.max_abs == 5.5);
  CHECK(first.sum_squares == doctest::Approx(together.sum_squares).epsilon(1e-12));
  for (size_t k = 0; k < first.squared_error.size(); ++k) {
    CAPTURE(k);
    CHECK(first.squared_error[k] == doctest::Approx(together.squared_error[k]).epsilon(1e-12));
    CHECK(first.squared_error_u8[k] ==
          doctest::Approx(together.squared_error_u8[k]).epsilon(1e-12));
  }
  // Merging what saw nothing changes nothing.
  const TensorStats before = first;
  MergeStats(first, unseen);
  CHECK(first.count == before.count);
  CHECK(first.squared_error == before.squared_error);
}

TEST_CASE("calibrate: ties go to the wider range, zero or unseen tensors to the finest") {
  // 0.75 and −0.5 are exact at every f from 2 to 7 (0.75·2^8 = 192 clips).
  const float dyadic[] = {0.75f, -0.5f};
  TensorStats stats;
  AccumulateErrors(dyadic, 2, stats);
  CHECK(BestFractionBits(stats) == 2);
  CHECK(BestFractionBits(TensorStats()) == kMaxActivationBits);
  const float zeros[] = {0.0f, 0.0f};
  TensorStats zero_stats;
  AccumulateErrors(zeros, 2, zero_stats);
  CHECK(BestFractionBits(zero_stats) == kMaxActivationBits);
}

/// The squared errors by their definition, one rounding per element and
/// length (the quantizer computes them by exponent bands instead).
void DirectErrors(const std::vector<float>& values, std::vector<double>& i8,
                  std::vector<double>& u8) {
  i8.assign(kNumActivationBits, 0.0);
  u8.assign(kNumActivationBits, 0.0);
  for (float v : values) {
    if (!std::isfinite(v)) continue;
    for (int k = 0; k < kNumActivationBits; ++k) {
      const double step = std::ldexp(1.0, -(k + kMinActivationBits));
      const double q = std::floor(static_cast<double>(v) / step + 0.5);
      const double e = v - std::clamp(q, -128.0, 127.0) * step;
      const double e_u8 = v - std::clamp(q, 0.0, 255.0) * step;
      i8[static_cast<size_t>(k)] += e * e;
      u8[static_cast<size_t>(k)] += e_u8 * e_u8;
    }
  }
}

void CheckAgainstDirect(const std::vector<float>& values) {
  TensorStats stats;
  AccumulateErrors(values.data(), static_cast<int64_t>(values.size()), stats);
  std::vector<double> i8, u8;
  DirectErrors(values, i8, u8);
  for (size_t k = 0; k < i8.size(); ++k) {
    CAPTURE(k);
    CHECK(stats.squared_error[k] == doctest::Approx(i8[k]).epsilon(1e-12));
    CHECK(stats.squared_error_u8[k] == doctest::Approx(u8[k]).epsilon(1e-12));
  }
}

TEST_CASE("calibrate: the errors of every length, on values of every magnitude and sign") {
  // Each set spans 2^base to 2^(base+4), so that no value's error drowns
  // in another's; the bases put every length in the rounding band, below
  // it (rounds to 0) and above it (saturates).
  std::mt19937 random(7);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  for (int base = -24; base <= 16; base += 4) {
    CAPTURE(base);
    std::vector<float> values;
    for (int i = 0; i < 2000; ++i) {
      const float magnitude =
          std::ldexp(1.0f + unit(random), base + static_cast<int>(unit(random) * 4));
      values.push_back(unit(random) < 0.4f ? -magnitude : magnitude);
    }
    CheckAgainstDirect(values);
  }
  // Ties at half, the ends of both formats, zeros and subnormals.
  CheckAgainstDirect({0.5f / 256.0f, -0.5f, -1.5f, -1.0f, -2.0f, 127.5f / 64.0f, -128.5f / 64.0f,
                      255.5f / 128.0f, 0.0f, -0.0f, 1e-40f, -1e-42f});
  // Inf and NaN are skipped; the largest finite magnitude is the maximum.
  const float extremes[] = {std::numeric_limits<float>::infinity(),
                            -std::numeric_limits<float>::quiet_NaN(), -3e38f, 1.0f};
  TensorStats stats;
  AccumulateErrors(extremes, 4, stats);
  CHECK(stats.max_abs == static_cast<double>(3e38f));
  CHECK(stats.count == 4);
}

TEST_CASE("calibrate: a chunk's sums are exact where a running double sum rounds") {
  // 2^16 copies of v = 1 + 2^-23 (one whole chunk). At f = -1, v/2 rounds
  // up to 1, so each error is v - 2 = -(1 - 2^-23): e² = (2^23 - 1)²·2^-46,
  // an odd 46-bit integer times a power of two. The exact sum, 2^16 e², is
  // a double; adding e² to a running double 65536 times is not (the sums
  // pass 2^53 units). Likewise Σv² = 2^16 (2^23 + 1)²·2^-46.
  const float v = 1.0f + std::ldexp(1.0f, -23);
  const std::vector<float> values(size_t{1} << 16, v);
  TensorStats stats;
  AccumulateErrors(values.data(), static_cast<int64_t>(values.size()), stats);
  const double units = 8388607.0 * 8388607.0;  // (2^23 - 1)², exact
  CHECK(stats.squared_error[static_cast<size_t>(-1 - kMinActivationBits)] ==
        std::ldexp(units, 16 - 46));
  CHECK(stats.sum_squares == std::ldexp(8388609.0 * 8388609.0, 16 - 46));
  double running = 0.0;  // what the exact sums avoid
  for (size_t i = 0; i < values.size(); ++i) running += std::ldexp(units, -46);
  CHECK(running != std::ldexp(units, 16 - 46));
}

TEST_CASE("calibrate: u8 rounds a negative value to 0, i8 rounds ties up") {
  // −1.5 at f = 0: i8 rounds −1.5 + 0.5 = −1 down to −1, error 0.25;
  // −0.5 rounds to 0, error 0.25. In u8 both are 0: errors 2.25 and 0.25.
  const float values[] = {-1.5f, -0.5f};
  TensorStats stats;
  AccumulateErrors(values, 2, stats);
  const size_t at0 = static_cast<size_t>(0 - kMinActivationBits);
  CHECK(stats.squared_error[at0] == 0.5);
  CHECK(stats.squared_error_u8[at0] == 2.5);
}

TEST_CASE("calibrate: the sums of several chunks are the same on any number of threads") {
  // 200 000 values span four chunks; split between threads or not, the
  // chunks are added in their order, so every sum is the same double.
  std::mt19937 rng(7);
  std::normal_distribution<float> normal(0.0f, 2.0f);
  std::vector<float> values(200000);
  for (float& v : values) v = normal(rng);
  TensorStats one, three;
  AccumulateErrors(values.data(), static_cast<int64_t>(values.size()), one, 1);
  AccumulateErrors(values.data(), static_cast<int64_t>(values.size()), three, 3);
  CHECK(one.count == 200000);
  CHECK(one.max_abs == three.max_abs);
  CHECK(one.squared_error == three.squared_error);
  CHECK(one.squared_error_u8 == three.squared_error_u8);
  // And they agree with the definition at f = 4 (i8: rounded half up, clipped).
  double expected = 0.0;
  for (float v : values) {
    const double q = std::min(127.0, std::max(-128.0, std::floor(v * 16.0 + 0.5)));
    expected += (v - q / 16.0) * (v - q / 16.0);
  }
  CHECK(one.squared_error[static_cast<size_t>(4 - kMinActivationBits)] ==
        doctest::Approx(expected).epsilon(1e-9));
}

}  // namespace
}  // namespace opuc::quant
