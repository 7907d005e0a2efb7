//===- src/image/resize_bilinear.h - Bilinear resampling of an Image -*- C++ -*-===//
//
// Half-pixel-centre bilinear resampling without antialiasing, the convention
// of TFLite's RESIZE_BILINEAR with half_pixel_centers and of OpenCV's
// INTER_LINEAR. For output row y of `out` rows from `in` rows:
//
//   src = (y + 1/2) · in / out − 1/2, clamped to [0, in − 1]
//   y0 = ⌊src⌋, y1 = min(y0 + 1, in − 1), fy = src − y0
//
// and the same for columns; then, in double,
//
//   v = (1 − fy)·((1 − fx)·p[y0][x0] + fx·p[y0][x1])
//     +      fy ·((1 − fx)·p[y1][x0] + fx·p[y1][x1])
//
// src is computed as the exact fraction ((2y + 1)·in − out) / (2·out), so fy
// and fx are the nearest doubles to their true values on every platform.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_IMAGE_RESIZE_BILINEAR_H
#define OPUC_SRC_IMAGE_RESIZE_BILINEAR_H

#include <cstdint>
#include <vector>

namespace opuc {

/// Where one output coordinate samples the input: two neighbours and the
/// weight of the second.
struct BilinearTap {
  int32_t lo = 0;
  int32_t hi = 0;
  double frac = 0.0;  ///< Weight of `hi`; `lo` gets 1 − frac.
};

/// The taps of `out` output coordinates over `in` input ones (both > 0).
std::vector<BilinearTap> BilinearTaps(int32_t in, int32_t out);

}  // namespace opuc

#endif  // OPUC_SRC_IMAGE_RESIZE_BILINEAR_H
