//===- src/image/resize_bilinear.cc - Bilinear resampling taps ------------===//
#include "resize_bilinear.h"

#include <cassert>
#include <cstddef>

namespace opuc {

std::vector<BilinearTap> BilinearTaps(int32_t in, int32_t out) {
  assert(in > 0 && out > 0 && "BilinearTaps needs positive sizes");
  std::vector<BilinearTap> taps(static_cast<size_t>(out));
  // src = num / den with num = (2i + 1)·in − out and den = 2·out, exactly.
  const int64_t den = int64_t{2} * out;
  for (int32_t i = 0; i < out; ++i) {
    const int64_t num = (int64_t{2} * i + 1) * in - out;
    BilinearTap& tap = taps[static_cast<size_t>(i)];
    if (num <= 0) continue;  // src <= 0: clamped to the first sample
    const int64_t whole = num / den;
    if (whole >= in - 1) {  // src >= in − 1: clamped to the last sample
      tap.lo = tap.hi = in - 1;
      continue;
    }
    tap.lo = static_cast<int32_t>(whole);
    tap.hi = tap.lo + 1;
    tap.frac = static_cast<double>(num - whole * den) / static_cast<double>(den);
  }
  return taps;
}

}  // namespace opuc
