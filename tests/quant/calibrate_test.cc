// Calibration statistics and the least-error choice of fraction length
// (src/quant/calibrate.h); the errors are worked out in the comments.
#include <doctest/doctest.h>

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

TEST_CASE("calibrate: ties go to the wider range; zero or unseen tensors to the finest") {
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

}  // namespace
}  // namespace opuc::quant
