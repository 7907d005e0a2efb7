//===- src/cpu_reference/resize_nearest.cc - RESIZE_NEAREST_NEIGHBOR ------===//
//
// Each output row y reads input row Source(y) (columns likewise), computed in
// float as TFLite's reference GetNearestNeighbor does:
//   scale  = align_corners && out > 1 ? (in - 1) / (out - 1) : in / out
//   offset = half_pixel_centers ? 0.5 : 0
//   src    = align_corners ? round((y + offset) · scale)   (halves away from 0)
//                          : floor((y + offset) · scale)
//   src    = min(src, in - 1), and max(src, 0) with half_pixel_centers.
// Any dtype; elements are copied. in a quantized graph (docs/numerics.md
// §7): the source index in exact rational arithmetic (resize_coords.h), and
// each element requant(q, f_in - f_out).
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "integer_util.h"
#include "resize_coords.h"
#include "support/format.h"

namespace opuc::reference {
namespace {

std::vector<int64_t> Sources(int64_t in, int64_t out, bool align_corners, bool half_pixel) {
  const float scale = align_corners && out > 1
                          ? static_cast<float>(in - 1) / static_cast<float>(out - 1)
                          : static_cast<float>(in) / static_cast<float>(out);
  const float offset = half_pixel ? 0.5f : 0.0f;
  std::vector<int64_t> sources(static_cast<size_t>(out));
  for (int64_t y = 0; y < out; ++y) {
    const float position = (static_cast<float>(y) + offset) * scale;
    auto src = static_cast<int64_t>(align_corners ? std::round(position) : std::floor(position));
    src = std::min(src, in - 1);
    if (half_pixel) src = std::max<int64_t>(src, 0);
    sources[static_cast<size_t>(y)] = src;
  }
  return sources;
}

}  // namespace

Status EvalResizeNearest(KernelContext& ctx) {
  HostTensor storage;
  OPUC_ASSIGN_OR_RETURN(const HostTensor* moved, MovedInput(ctx, &storage));
  const HostTensor& input = *moved;
  OPUC_ASSIGN_OR_RETURN(HostTensor * output, ctx.AllocateOutput());
  if (input.elements() == 0 && output->elements() != 0)
    return InvalidArgument(Cat("input is ", DescribeType(input), ": nothing to resize"));
  const auto a = ResizeNearestAttrs::Of(ctx.attrs());
  const bool align_corners = a.align_corners;
  const bool half_pixel = a.half_pixel_centers;
  const Shape& is = input.shape();
  const Shape& os = output->shape();
  std::vector<int64_t> rows, cols;
  if (IsQuantizedMove(ctx)) {
    OPUC_ASSIGN_OR_RETURN(rows, NearestSources(is[1], os[1], align_corners, half_pixel));
    OPUC_ASSIGN_OR_RETURN(cols, NearestSources(is[2], os[2], align_corners, half_pixel));
  } else {
    rows = Sources(is[1], os[1], align_corners, half_pixel);
    cols = Sources(is[2], os[2], align_corners, half_pixel);
  }
  const auto pixel = static_cast<size_t>(os[3]) * DTypeSize(input.dtype());
  const uint8_t* in = input.raw();
  uint8_t* out = output->mutable_bytes();
  for (int64_t n = 0; n < os[0]; ++n)
    for (int64_t y = 0; y < os[1]; ++y)
      for (int64_t x = 0; x < os[2]; ++x) {
        const int64_t from =
            Nhwc(is, n, rows[static_cast<size_t>(y)], cols[static_cast<size_t>(x)], 0);
        if (pixel)
          std::memcpy(out + static_cast<size_t>(Nhwc(os, n, y, x, 0)) * DTypeSize(input.dtype()),
                      in + static_cast<size_t>(from) * DTypeSize(input.dtype()), pixel);
      }
  return OkStatus();
}

}  // namespace opuc::reference
