//===- src/quant/calibrate.cc - Activation statistics ---------------------===//
#include "calibrate.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "opuc/cpu/executor.h"
#include "support/format.h"

namespace opuc::quant {

namespace {

/// floor(y) for the y the error loop needs: y is first limited to
/// [-256, 512], which changes no result (it is clamped to [-128, 255]
/// after), and then a truncation and a correction stand in for floor(),
/// which the portable x86-64 baseline leaves to a libm call per element.
inline double FloorOfLimited(double y) {
  y = std::min(512.0, std::max(-256.0, y));
  const double t = static_cast<double>(static_cast<int32_t>(y));
  return t - static_cast<double>(t > y);
}

}  // namespace

void AccumulateErrors(const float* values, int64_t count, TensorStats& stats) {
  stats.seen = true;
  stats.count += count;
  std::array<double, kNumActivationBits> sums{}, sums_u8{}, scales{}, steps{};
  for (size_t k = 0; k < scales.size(); ++k) {
    scales[k] = std::ldexp(1.0, kMinActivationBits + static_cast<int>(k));
    steps[k] = 1.0 / scales[k];  // a power of two: multiplying by it is exact
  }
  double max_abs = stats.max_abs, squares = 0.0;
  for (int64_t i = 0; i < count; ++i) {
    const double x = values[i];
    if (!std::isfinite(x)) continue;
    max_abs = std::max(max_abs, std::fabs(x));
    squares += x * x;
    // Independent per k, so that GCC can vectorize across k.
    std::array<double, kNumActivationBits> r;
    for (size_t k = 0; k < r.size(); ++k) r[k] = FloorOfLimited(x * scales[k] + 0.5);
    for (size_t k = 0; k < r.size(); ++k) {
      const double e = x - std::min(127.0, std::max(-128.0, r[k])) * steps[k];
      const double e_u8 = x - std::min(255.0, std::max(0.0, r[k])) * steps[k];
      sums[k] += e * e;
      sums_u8[k] += e_u8 * e_u8;
    }
  }
  stats.max_abs = max_abs;
  stats.sum_squares += squares;
  for (size_t k = 0; k < sums.size(); ++k) {
    stats.squared_error[k] += sums[k];
    stats.squared_error_u8[k] += sums_u8[k];
  }
}

int BestFractionBits(const TensorStats& stats) {
  if (!stats.seen || stats.max_abs == 0.0) return kMaxActivationBits;
  const auto& errors = stats.squared_error;
  size_t best = 0;
  for (size_t k = 1; k < errors.size(); ++k)
    if (errors[k] < errors[best]) best = k;
  return kMinActivationBits + static_cast<int>(best);
}

int WideFractionBits(const TensorStats& stats) {
  int bits = kMaxWideActivationBits;
  while (bits > kMinActivationBits && std::floor(std::ldexp(stats.max_abs, bits) + 0.5) > 32767.0)
    --bits;
  return bits;
}

Expected<std::vector<TensorStats>> Calibrate(const Graph& graph,
                                             const std::vector<std::vector<HostTensor>>& samples,
                                             const TensorObserver& also) {
  std::vector<TensorStats> stats(graph.tensors.size());
  const TensorObserver observe = [&](TensorId id, const HostTensor& value) {
    if (value.dtype() == DType::kF32)
      AccumulateErrors(value.data<float>(), value.elements(), stats[static_cast<size_t>(id)]);
    return also ? also(id, value) : OkStatus();
  };
  for (size_t s = 0; s < samples.size(); ++s) {
    Expected<std::vector<HostTensor>> run = RunCpu(graph, samples[s], observe);
    if (!run.ok()) return run.status().WithContext(Cat("calibration sample ", s));
  }
  return stats;
}

}  // namespace opuc::quant
