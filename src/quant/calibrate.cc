//===- src/quant/calibrate.cc - Activation statistics ---------------------===//
#include "calibrate.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "opuc/cpu/executor.h"
#include "support/format.h"
#include "support/parallel_for.h"

namespace opuc::quant {

namespace {

// A finite float is x = ±M·2^(E−150), M its 24-bit significand (implicit bit
// included) and E its biased exponent (subnormals: E = 1 without the bit).
// At fraction length f, x·2^f rounds to 0 for every f below 126 − E and
// saturates both formats (|x·2^f| ≥ 256) from 135 − E on; only the nine
// lengths between need a rounding, and there f = 126 − E + j rounds M at
// bit 24 − j: in integers, exactly, whatever E is. The lengths outside
// the band are closed forms of per-exponent sums (Σx², Σ|x|, counts), so
// each element costs nine integer roundings and a few additions, not a
// float rounding for each of the 24 candidates.
constexpr int kBand = 9;
// At band index j, |x|·2^f < 2^j rounds to at most 2^j, so only the last
// two can pass 127: below them an element's u8 error is its i8 error when
// positive, and |x| itself when negative (u8 clips it to 0).
constexpr int kSaturating = 7;

/// The sums of the elements that share one exponent and sign: M units
/// throughout (scaled by 2^(E−150) or its square when assembled).
struct ExponentSums {
  double m2 = 0.0;     ///< Σ M²
  double m = 0.0;      ///< Σ M
  double m_neg = 0.0;  ///< Σ M over negative elements
  int64_t count = 0;
  int64_t negatives = 0;
  std::array<double, kBand> band{};                   ///< Σ e² at f = 126 − E + j (i8)
  std::array<double, kBand - kSaturating> band_u8{};  ///< u8's, j ≥ kSaturating (positives)
};

/// Sums by exponent and sign: index 2·E + sign.
constexpr size_t kBuckets = 2 * 256;

/// Band j rounds M at bit 24 − j: adds half of that bit (less one for a
/// negative: half up on the signed value) and clears the bits below, then
/// saturates at L·2^(24−j) (L = 127, 128 or 255; the first never binds).
struct BandRounding {
  std::array<int32_t, kBand> half{}, mask{};
  std::array<std::array<int32_t, kBand>, 2> limit{};  ///< i8 by sign
  std::array<int32_t, kBand> limit_u8{};

  constexpr BandRounding() {
    for (size_t j = 0; j < kBand; ++j) {
      const int shift = 24 - static_cast<int>(j);
      half[j] = int32_t{1} << (shift - 1);
      mask[j] = ~((int32_t{1} << shift) - 1);
      const auto capped = [shift](int32_t l) {
        return shift == 24 ? int32_t{1} << 30 : l * (int32_t{1} << shift);
      };
      limit[0][j] = capped(127);
      limit[1][j] = capped(128);
      limit_u8[j] = capped(255);
    }
  }
};
constexpr BandRounding kRounding;

void AddElement(uint32_t bits, std::vector<ExponentSums>& sums) {
  const uint32_t magnitude = bits & 0x7fffffffu;
  const uint32_t exponent = magnitude >> 23;
  const int32_t m =
      static_cast<int32_t>(exponent ? (magnitude & 0x7fffffu) | 0x800000u : magnitude);
  const int32_t negative = static_cast<int32_t>(bits >> 31);
  ExponentSums& s = sums[2 * (exponent ? exponent : 1) + static_cast<uint32_t>(negative)];
  const double md = m;
  s.m2 += md * md;
  s.m += md;
  s.m_neg += negative ? md : 0.0;
  ++s.count;
  s.negatives += negative;
  // Branch-free and the same for every j: GCC vectorizes it.
  const std::array<int32_t, kBand>& limit = kRounding.limit[static_cast<size_t>(negative)];
  std::array<int32_t, kBand> rounded;
  for (size_t j = 0; j < kBand; ++j)
    rounded[j] = (m + kRounding.half[j] - negative) & kRounding.mask[j];
  for (size_t j = 0; j < kBand; ++j) {
    const double e = m - std::min(rounded[j], limit[j]);
    s.band[j] += e * e;
  }
  if (negative) return;
  for (size_t j = kSaturating; j < kBand; ++j) {
    const double e_u8 = m - std::min(rounded[j], kRounding.limit_u8[j]);
    s.band_u8[j - kSaturating] += e_u8 * e_u8;
  }
}

/// Elements summed apart: the sums are made chunk by chunk and added in
/// chunk order, so they do not depend on how many threads make them.
constexpr int64_t kErrorChunk = int64_t{1} << 16;

/// The sums of one chunk and its largest magnitude (as bits).
struct ChunkSums {
  std::vector<ExponentSums> sums = std::vector<ExponentSums>(kBuckets);
  uint32_t max_magnitude = 0;
};

void SumChunk(const float* values, int64_t count, ChunkSums& chunk) {
  for (int64_t i = 0; i < count; ++i) {
    uint32_t bits;
    std::memcpy(&bits, &values[i], sizeof bits);
    if ((bits & 0x7f800000u) == 0x7f800000u) continue;  // Inf or NaN
    chunk.max_magnitude = std::max(chunk.max_magnitude, bits & 0x7fffffffu);
    AddElement(bits, chunk.sums);
  }
}

void Add(const ExponentSums& from, ExponentSums& to) {
  to.m2 += from.m2;
  to.m += from.m;
  to.m_neg += from.m_neg;
  to.count += from.count;
  to.negatives += from.negatives;
  for (size_t j = 0; j < to.band.size(); ++j) to.band[j] += from.band[j];
  for (size_t j = 0; j < to.band_u8.size(); ++j) to.band_u8[j] += from.band_u8[j];
}

}  // namespace

void AccumulateErrors(const float* values, int64_t count, TensorStats& stats, int threads) {
  stats.seen = true;
  stats.count += count;
  const int64_t chunks = (count + kErrorChunk - 1) / kErrorChunk;
  std::vector<ChunkSums> parts(static_cast<size_t>(std::max<int64_t>(chunks, 1)));
  ParallelFor(chunks, threads, [&](int64_t c) {
    const int64_t first = c * kErrorChunk;
    SumChunk(values + first, std::min(kErrorChunk, count - first), parts[static_cast<size_t>(c)]);
  });
  ChunkSums& all = parts[0];
  for (size_t c = 1; c < parts.size(); ++c) {
    all.max_magnitude = std::max(all.max_magnitude, parts[c].max_magnitude);
    for (size_t e = 0; e < all.sums.size(); ++e) Add(parts[c].sums[e], all.sums[e]);
  }
  const std::vector<ExponentSums>& sums = all.sums;
  float largest;
  std::memcpy(&largest, &all.max_magnitude, sizeof largest);
  stats.max_abs = std::max(stats.max_abs, static_cast<double>(largest));
  for (size_t b = 2; b < kBuckets; ++b) {
    const ExponentSums& s = sums[b];
    if (s.count == 0) continue;
    const int exponent = static_cast<int>(b / 2);
    const double unit = std::ldexp(1.0, exponent - 150), unit2 = unit * unit;
    const double squares = s.m2 * unit2;
    const double negative_sum = s.m_neg * unit, positive_sum = s.m * unit - negative_sum;
    const auto negatives = static_cast<double>(s.negatives);
    const auto positives = static_cast<double>(s.count - s.negatives);
    stats.sum_squares += squares;
    const int band_start = 126 - exponent - kMinActivationBits;  // index of f = 126 − E
    for (int k = 0; k < kNumActivationBits; ++k) {
      const int j = k - band_start;
      double& error = stats.squared_error[static_cast<size_t>(k)];
      double& error_u8 = stats.squared_error_u8[static_cast<size_t>(k)];
      if (j < 0) {  // every element rounds to 0
        error += squares;
        error_u8 += squares;
      } else if (j < kBand) {
        error += s.band[static_cast<size_t>(j)] * unit2;
        error_u8 += b % 2 == 1        ? squares
                    : j < kSaturating ? s.band[static_cast<size_t>(j)] * unit2
                                      : s.band_u8[static_cast<size_t>(j - kSaturating)] * unit2;
      } else {  // Σ(|x| − L·2^−f)², L = 127 or 128 (i8), 255 or |x| itself (u8)
        const double step = std::ldexp(1.0, -(k + kMinActivationBits));
        error += squares - 2.0 * step * (127.0 * positive_sum + 128.0 * negative_sum) +
                 step * step * (127.0 * 127.0 * positives + 128.0 * 128.0 * negatives);
        error_u8 +=
            squares - 2.0 * step * 255.0 * positive_sum + step * step * 255.0 * 255.0 * positives;
      }
    }
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
                                             const TensorObserver& also, int threads) {
  std::vector<TensorStats> stats(graph.tensors.size());
  const TensorObserver observe = [&](TensorId id, const HostTensor& value) {
    if (value.dtype() == DType::kF32)
      AccumulateErrors(value.data<float>(), value.elements(), stats[static_cast<size_t>(id)],
                       threads);
    return also ? also(id, value) : OkStatus();
  };
  for (size_t s = 0; s < samples.size(); ++s) {
    Expected<std::vector<HostTensor>> run = RunCpu(graph, samples[s], observe);
    if (!run.ok()) return run.status().WithContext(Cat("calibration sample ", s));
  }
  return stats;
}

}  // namespace opuc::quant
