//===- src/cpu_reference/resize_coords.cc - Exact resize coordinates ------===//
#include "resize_coords.h"

#include <algorithm>
#include <cmath>

#include "opuc/numerics/fixed_point.h"
#include "support/format.h"

namespace opuc::reference {
namespace {

struct Scale {
  int64_t num, den;
};

Scale ScaleOf(int64_t in, int64_t out, bool align_corners) {
  if (align_corners && out > 1) return {in - 1, out - 1};
  return {in, out};
}

/// a · b, or an error instead of an overflow.
Expected<int64_t> Mul(int64_t a, int64_t b) {
  int64_t product = 0;
  if (__builtin_mul_overflow(a, b, &product))
    return InvalidArgument(
        Cat("resize coordinate ", a, " · ", b, " does not fit int64; the extents are too large"));
  return product;
}

Expected<int64_t> Add(int64_t a, int64_t b) {
  int64_t sum = 0;
  if (__builtin_add_overflow(a, b, &sum))
    return InvalidArgument(
        Cat("resize coordinate ", a, " + ", b, " does not fit int64; the extents are too large"));
  return sum;
}

}  // namespace

Expected<std::vector<int64_t>> NearestSources(int64_t in, int64_t out, bool align_corners,
                                              bool half_pixel) {
  const Scale s = ScaleOf(in, out, align_corners);
  std::vector<int64_t> sources(static_cast<size_t>(out));
  for (int64_t y = 0; y < out; ++y) {
    int64_t src = 0;
    if (half_pixel) {
      OPUC_ASSIGN_OR_RETURN(int64_t n, Mul(2 * y + 1, s.num));
      src = FloorDiv(n, 2 * s.den);
    } else if (align_corners) {
      OPUC_ASSIGN_OR_RETURN(int64_t n, Mul(2 * y, s.num));
      OPUC_ASSIGN_OR_RETURN(int64_t rounded, Add(n, s.den));
      src = FloorDiv(rounded, 2 * s.den);
    } else {
      OPUC_ASSIGN_OR_RETURN(int64_t n, Mul(y, s.num));
      src = FloorDiv(n, s.den);
    }
    sources[static_cast<size_t>(y)] = std::min(std::max<int64_t>(src, 0), in - 1);
  }
  return sources;
}

Expected<std::vector<LinearTap>> BilinearTaps(int64_t in, int64_t out, bool align_corners,
                                              bool half_pixel) {
  const Scale s = ScaleOf(in, out, align_corners);
  std::vector<LinearTap> taps(static_cast<size_t>(out));
  for (int64_t y = 0; y < out; ++y) {
    int64_t p = 0;
    if (half_pixel) {
      OPUC_ASSIGN_OR_RETURN(int64_t n, Mul(2 * y + 1, s.num));
      OPUC_ASSIGN_OR_RETURN(int64_t scaled, Mul(n - s.den, 1024));
      p = FloorDiv(scaled, 2 * s.den);
    } else {
      OPUC_ASSIGN_OR_RETURN(int64_t n, Mul(y, s.num));
      OPUC_ASSIGN_OR_RETURN(int64_t scaled, Mul(n, 1024));
      p = FloorDiv(scaled, s.den);
    }
    LinearTap& t = taps[static_cast<size_t>(y)];
    const int64_t floor = FloorDiv(p, 1024);
    // lower never exceeds in - 1 for these formulas; the clamp keeps reads in range.
    t.lower = std::min(std::max<int64_t>(floor, 0), in - 1);
    t.upper = std::min(p % 1024 == 0 ? floor : floor + 1, in - 1);
    t.upper = std::max<int64_t>(t.upper, 0);
    t.w_upper = p - 1024 * t.lower;
    t.w_lower = 1024 - t.w_upper;
  }
  return taps;
}

std::vector<FloatTap> FloatBilinearTaps(int64_t in, int64_t out, bool align_corners,
                                        bool half_pixel) {
  const float scale = align_corners && out > 1
                          ? static_cast<float>(in - 1) / static_cast<float>(out - 1)
                          : static_cast<float>(in) / static_cast<float>(out);
  std::vector<FloatTap> taps(static_cast<size_t>(out));
  for (int64_t y = 0; y < out; ++y) {
    const auto v = static_cast<float>(y);
    const float p = half_pixel ? (v + 0.5f) * scale - 0.5f : v * scale;
    taps[static_cast<size_t>(y)] = {p, std::max<int64_t>(static_cast<int64_t>(std::floor(p)), 0),
                                    std::min(static_cast<int64_t>(std::ceil(p)), in - 1)};
  }
  return taps;
}

}  // namespace opuc::reference
