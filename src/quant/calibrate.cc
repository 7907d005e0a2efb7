//===- src/quant/calibrate.cc - Activation statistics ---------------------===//
#include "calibrate.h"

#include <cmath>

#include "opuc/cpu/executor.h"
#include "support/format.h"

namespace opuc::quant {

void AccumulateErrors(const float* values, int64_t count, TensorStats& stats) {
  stats.seen = true;
  stats.count += count;
  std::array<double, kNumActivationBits> sums{}, sums_u8{}, scales{};
  for (size_t k = 0; k < scales.size(); ++k)
    scales[k] = std::ldexp(1.0, kMinActivationBits + static_cast<int>(k));
  double max_abs = stats.max_abs, squares = 0.0;
  for (int64_t i = 0; i < count; ++i) {
    const double x = values[i];
    if (!std::isfinite(x)) continue;
    max_abs = std::max(max_abs, std::fabs(x));
    squares += x * x;
    for (size_t k = 0; k < scales.size(); ++k) {
      const double r = std::floor(x * scales[k] + 0.5);
      const double e = x - std::min(127.0, std::max(-128.0, r)) / scales[k];
      const double e_u8 = x - std::min(255.0, std::max(0.0, r)) / scales[k];
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
