//===- src/quant/calibrate.cc - Activation statistics ---------------------===//
#include "calibrate.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <utility>

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
  double m2 = 0.0;  ///< Σ M²
  double m = 0.0;   ///< Σ M
  int64_t count = 0;
  std::array<double, kBand> band{};                   ///< Σ e² at f = 126 − E + j (i8)
  std::array<double, kBand - kSaturating> band_u8{};  ///< u8's, j ≥ kSaturating (positives)
};

/// Sums by exponent and sign: index 2·E + sign (E = 0, the subnormals,
/// counts as 1, whose scale it shares).
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

/// Elements summed apart: the sums are made chunk by chunk and added in
/// chunk order, so they do not depend on how many threads make them.
constexpr int64_t kErrorChunk = int64_t{1} << 16;

/// Σ term(i) over i < count, each term a non-negative integer below 2^48
/// held in a double: in blocks of 64 over four double lanes (at most 19
/// terms a lane, so each lane's sum stays below 2^53 and is exact), each
/// block's lanes then added as integers. The sum is the integer one,
/// whatever the order, and the lanes let GCC vectorize it: the portable
/// baseline, SSE2, has no 64-bit integer multiply (measured 2.6-3x faster
/// than summing in uint64_t there).
template <typename Term>
uint64_t ExactSum(int64_t count, Term term) {
  constexpr int64_t kBlock = 64, kLanes = 4;
  uint64_t sum = 0;
  for (int64_t i0 = 0; i0 < count; i0 += kBlock) {
    const int64_t i1 = std::min(count, i0 + kBlock);
    double lanes[kLanes] = {};
    int64_t i = i0;
    for (; i + kLanes <= i1; i += kLanes)
      for (int64_t l = 0; l < kLanes; ++l) lanes[l] += term(i + l);
    for (; i < i1; ++i) lanes[0] += term(i);
    for (const double lane : lanes) sum += static_cast<uint64_t>(lane);
  }
  return sum;
}

/// Σ e² of one band over significands that share a sign, e = M − the
/// rounded M (saturated at `limit` when `Saturates`). Exact: |e| < 2^23.1
/// (a rounding moves M by at most half its step, a saturation by less than
/// 2^24 − 127·2^16), so e² < 2^46.2, and a chunk's 2^16 squares stay below
/// 2^63. Contiguous and branch-free (the bands that never saturate skip
/// the minimum).
template <bool Saturates>
uint64_t BandSquares(const int32_t* m, int64_t count, int32_t half, int32_t mask, int32_t limit) {
  return ExactSum(count, [&](int64_t i) {
    const int32_t rounded = (m[i] + half) & mask;
    const auto e = static_cast<double>(m[i] - (Saturates ? std::min(rounded, limit) : rounded));
    return e * e;
  });
}

/// One chunk's sums of one bucket: M² below 2^48, so 2^16 of them below 2^64.
struct BucketSums {
  uint64_t m2 = 0, m = 0;
  int64_t count = 0;
  std::array<uint64_t, kBand> band{};
  std::array<uint64_t, kBand - kSaturating> band_u8{};
};

BucketSums SumBucket(const int32_t* m, int64_t count, bool negative) {
  BucketSums s;
  s.count = count;
  s.m = ExactSum(count, [&](int64_t i) { return static_cast<double>(m[i]); });
  s.m2 = ExactSum(count, [&](int64_t i) {  // M < 2^24: M² < 2^48
    const auto v = static_cast<double>(m[i]);
    return v * v;
  });
  const auto n = static_cast<int32_t>(negative);
  const std::array<int32_t, kBand>& limit = kRounding.limit[static_cast<size_t>(n)];
  for (size_t j = 0; j < kBand; ++j)
    s.band[j] =
        (j < kSaturating ? BandSquares<false> : BandSquares<true>)(m, count, kRounding.half[j] - n,
                                                                   kRounding.mask[j], limit[j]);
  if (negative) return s;  // u8 clips a negative to 0: its error is |x|
  for (size_t j = kSaturating; j < kBand; ++j)
    s.band_u8[j - kSaturating] =
        BandSquares<true>(m, count, kRounding.half[j], kRounding.mask[j], kRounding.limit_u8[j]);
  return s;
}

/// The sums of one chunk and its largest magnitude (as bits).
struct ChunkSums {
  std::vector<BucketSums> sums = std::vector<BucketSums>(kBuckets);
  uint32_t max_magnitude = 0;
};

/// Sorts the chunk's significands by bucket (a counting sort), then sums
/// each bucket over its contiguous run: one vector loop per band, where
/// summing element by element would add into a different bucket each time.
void SumChunk(const float* values, int64_t count, ChunkSums& chunk) {
  constexpr uint16_t kSkipped = kBuckets;  // Inf and NaN
  thread_local std::vector<uint16_t> keys;
  thread_local std::vector<int32_t> sorted;
  keys.resize(static_cast<size_t>(count));
  sorted.resize(static_cast<size_t>(count));
  std::array<int64_t, kBuckets + 1> begin{};
  for (int64_t i = 0; i < count; ++i) {
    uint32_t bits;
    std::memcpy(&bits, &values[i], sizeof bits);
    const uint32_t magnitude = bits & 0x7fffffffu, exponent = magnitude >> 23;
    const bool finite = exponent != 0xff;
    if (finite) chunk.max_magnitude = std::max(chunk.max_magnitude, magnitude);
    const auto key = static_cast<uint16_t>(finite ? 2 * std::max(exponent, 1u) + (bits >> 31)
                                                  : uint32_t{kSkipped});
    keys[static_cast<size_t>(i)] = key;
    ++begin[key];
  }
  int64_t next = 0;
  for (int64_t& b : begin) next += std::exchange(b, next);
  std::array<int64_t, kBuckets + 1> end = begin;
  for (int64_t i = 0; i < count; ++i) {
    const uint16_t key = keys[static_cast<size_t>(i)];
    if (key == kSkipped) continue;
    uint32_t bits;
    std::memcpy(&bits, &values[i], sizeof bits);
    const uint32_t magnitude = bits & 0x7fffffffu;
    const uint32_t m = magnitude >> 23 ? (magnitude & 0x7fffffu) | 0x800000u : magnitude;
    sorted[static_cast<size_t>(end[key]++)] = static_cast<int32_t>(m);
  }
  for (size_t b = 0; b < kBuckets; ++b)
    if (end[b] > begin[b])
      chunk.sums[b] = SumBucket(sorted.data() + begin[b], end[b] - begin[b], b % 2 == 1);
}

void Add(const BucketSums& from, ExponentSums& to) {
  to.m2 += static_cast<double>(from.m2);
  to.m += static_cast<double>(from.m);
  to.count += from.count;
  for (size_t j = 0; j < to.band.size(); ++j) to.band[j] += static_cast<double>(from.band[j]);
  for (size_t j = 0; j < to.band_u8.size(); ++j)
    to.band_u8[j] += static_cast<double>(from.band_u8[j]);
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
  std::vector<ExponentSums> sums(kBuckets);
  uint32_t max_magnitude = 0;
  for (const ChunkSums& part : parts) {
    max_magnitude = std::max(max_magnitude, part.max_magnitude);
    for (size_t b = 0; b < kBuckets; ++b) Add(part.sums[b], sums[b]);
  }
  float largest;
  std::memcpy(&largest, &max_magnitude, sizeof largest);
  stats.max_abs = std::max(stats.max_abs, static_cast<double>(largest));
  for (size_t b = 2; b < kBuckets; ++b) {
    const ExponentSums& s = sums[b];
    if (s.count == 0) continue;
    const int exponent = static_cast<int>(b / 2);
    const double unit = std::ldexp(1.0, exponent - 150), unit2 = unit * unit;
    const double squares = s.m2 * unit2;
    const bool negative = b % 2 == 1;
    const double negative_sum = negative ? s.m * unit : 0.0;
    const double positive_sum = negative ? 0.0 : s.m * unit;
    const auto negatives = static_cast<double>(negative ? s.count : 0);
    const auto positives = static_cast<double>(negative ? 0 : s.count);
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
        error_u8 += negative          ? squares
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

void MergeStats(TensorStats& into, const TensorStats& more) {
  into.seen = into.seen || more.seen;
  into.max_abs = std::max(into.max_abs, more.max_abs);
  into.sum_squares += more.sum_squares;
  into.count += more.count;
  for (size_t k = 0; k < into.squared_error.size(); ++k) {
    into.squared_error[k] += more.squared_error[k];
    into.squared_error_u8[k] += more.squared_error_u8[k];
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

int WideFractionBits(double max_abs) {
  int bits = kMaxWideActivationBits;
  while (bits > kMinActivationBits && std::floor(std::ldexp(max_abs, bits) + 0.5) > 32767.0) --bits;
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
