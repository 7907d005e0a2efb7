//===- src/cpu_reference/resize_coords.h - Exact resize coordinates -*- C++ -*-===//
//
// The source coordinates of the i8 resize kernels, in exact rational
// arithmetic (docs/numerics.md §7): per axis the scale is num/den =
// (in-1)/(out-1) with align_corners and out > 1, else in/out.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_CPU_REFERENCE_RESIZE_COORDS_H
#define OPUC_SRC_CPU_REFERENCE_RESIZE_COORDS_H

#include <cstdint>
#include <vector>

#include "opuc/status.h"

namespace opuc::reference {

/// resize_nearest: for each output index y the source index
///   default:            floordiv(y·num, den)
///   half_pixel_centers: floordiv((2y+1)·num, 2·den)
///   align_corners:      floordiv(2·y·num + den, 2·den)
/// then min(src, in - 1). Errors (never overflows) when the extents are too
/// large for int64 arithmetic.
Expected<std::vector<int64_t>> NearestSources(int64_t in, int64_t out, bool align_corners,
                                              bool half_pixel);

/// resize_bilinear: the two source indices and their weights (10 fraction
/// bits, summing to 1024) of each output index.
struct LinearTap {
  int64_t lower = 0, upper = 0;
  int64_t w_lower = 1024, w_upper = 0;
};
/// P = floordiv(y·num·1024, den), or with half_pixel_centers
/// floordiv(((2y+1)·num - den)·1024, 2·den); lower = max(P >> 10, 0),
/// upper = min(ceil(P / 1024), in - 1), w_upper = P - 1024·lower,
/// w_lower = 1024 - w_upper.
Expected<std::vector<LinearTap>> BilinearTaps(int64_t in, int64_t out, bool align_corners,
                                              bool half_pixel);

/// The float resize_bilinear's coordinates (TFLite's, resize_bilinear.cc):
/// p = (y + 0.5)·scale - 0.5 with half_pixel_centers, else y·scale, in
/// float; lower = max(floor(p), 0), upper = min(ceil(p), in - 1).
struct FloatTap {
  float position;
  int64_t lower, upper;
};
std::vector<FloatTap> FloatBilinearTaps(int64_t in, int64_t out, bool align_corners,
                                        bool half_pixel);

}  // namespace opuc::reference

#endif  // OPUC_SRC_CPU_REFERENCE_RESIZE_COORDS_H
