//===- src/cpu_reference/resize_bilinear.cc - RESIZE_BILINEAR -------------===//
//
// As TFLite's reference ResizeBilinear, in float. Per axis:
//   scale = align_corners && out > 1 ? (in - 1) / (out - 1) : in / out
//   p     = half_pixel_centers ? (y + 0.5) · scale - 0.5 : y · scale
//   y0    = max(floor(p), 0),  y1 = min(ceil(p), in - 1),  dy = p - y0
// and out = in[y0,x0]·(1-dy)·(1-dx) + in[y1,x0]·dy·(1-dx)
//         + in[y0,x1]·(1-dy)·dx     + in[y1,x1]·dy·dx,
// each product and the sum evaluated left to right. With half-pixel centers
// p may be -0.25 at the border: then y0 = y1 = 0 and the weights 1.25 and
// -0.25 of the same element sum to 1. Quantized (docs/numerics.md §7): exact
// coordinates with 10 fraction bits (resize_coords.h), the exact int64 sum of
// the four products q · wy · wx, then requant(acc, 20 + f_in - f_out).
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <cmath>
#include <vector>

#include "integer_util.h"
#include "resize_coords.h"
#include "support/format.h"

namespace opuc::reference {
namespace {

Status ResizeBilinearInt(KernelContext& ctx) {
  OPUC_ASSIGN_OR_RETURN(int f_in, InputFraction(ctx, 0, "input"));
  OPUC_ASSIGN_OR_RETURN(int f_out, OutputFraction(ctx));
  const HostTensor& input = *ctx.input(0);
  OPUC_ASSIGN_OR_RETURN(HostTensor * output, ctx.AllocateOutput());
  if (input.elements() == 0 && output->elements() != 0)
    return InvalidArgument(Cat("input is ", DescribeType(input), ": nothing to resize"));
  const auto a = ResizeBilinearAttrs::Of(ctx.attrs());
  const bool align_corners = a.align_corners;
  const bool half_pixel = a.half_pixel_centers;
  const Shape& is = input.shape();
  const Shape& os = output->shape();
  OPUC_ASSIGN_OR_RETURN(std::vector<LinearTap> rows,
                        BilinearTaps(is[1], os[1], align_corners, half_pixel));
  OPUC_ASSIGN_OR_RETURN(std::vector<LinearTap> cols,
                        BilinearTaps(is[2], os[2], align_corners, half_pixel));
  const IntRange range = FormatRange(output->dtype());
  const std::vector<int32_t> in = Widened(input);
  const auto at = [&](int64_t n, int64_t y, int64_t x, int64_t c) {
    return int64_t{in[static_cast<size_t>(Nhwc(is, n, y, x, c))]};
  };
  const IntWriter out(output);
  for (int64_t n = 0; n < os[0]; ++n) {
    for (int64_t y = 0; y < os[1]; ++y) {
      const LinearTap& r = rows[static_cast<size_t>(y)];
      for (int64_t x = 0; x < os[2]; ++x) {
        const LinearTap& t = cols[static_cast<size_t>(x)];
        for (int64_t c = 0; c < os[3]; ++c) {
          // |acc| <= 32768 · 2048^2 = 2^37 (numerics.md §7).
          const int64_t acc = at(n, r.lower, t.lower, c) * r.w_lower * t.w_lower +
                              at(n, r.upper, t.lower, c) * r.w_upper * t.w_lower +
                              at(n, r.lower, t.upper, c) * r.w_lower * t.w_upper +
                              at(n, r.upper, t.upper, c) * r.w_upper * t.w_upper;
          out.Set(Nhwc(os, n, y, x, c), RequantTo(acc, 20 + f_in - f_out, range.lo, range.hi));
        }
      }
    }
  }
  return OkStatus();
}

}  // namespace

Status EvalResizeBilinear(KernelContext& ctx) {
  if (IsQuantizedInput(ctx)) return ResizeBilinearInt(ctx);
  OPUC_RETURN_IF_ERROR(RequireF32(ctx, 0, "input"));
  const HostTensor& input = *ctx.input(0);
  OPUC_ASSIGN_OR_RETURN(HostTensor * output, ctx.AllocateOutput());
  if (input.elements() == 0 && output->elements() != 0)
    return InvalidArgument(Cat("input is ", DescribeType(input), ": nothing to resize"));
  const auto a = ResizeBilinearAttrs::Of(ctx.attrs());
  const bool align_corners = a.align_corners;
  const bool half_pixel = a.half_pixel_centers;
  const Shape& is = input.shape();
  const Shape& os = output->shape();
  const std::vector<FloatTap> rows = FloatBilinearTaps(is[1], os[1], align_corners, half_pixel);
  const std::vector<FloatTap> cols = FloatBilinearTaps(is[2], os[2], align_corners, half_pixel);
  const float* in = input.data<float>();
  float* out = output->data<float>();
  for (int64_t n = 0; n < os[0]; ++n) {
    for (int64_t y = 0; y < os[1]; ++y) {
      const FloatTap& r = rows[static_cast<size_t>(y)];
      const float dy = r.position - static_cast<float>(r.lower);
      for (int64_t x = 0; x < os[2]; ++x) {
        const FloatTap& t = cols[static_cast<size_t>(x)];
        const float dx = t.position - static_cast<float>(t.lower);
        for (int64_t c = 0; c < os[3]; ++c) {
          out[Nhwc(os, n, y, x, c)] = in[Nhwc(is, n, r.lower, t.lower, c)] * (1 - dy) * (1 - dx) +
                                      in[Nhwc(is, n, r.upper, t.lower, c)] * dy * (1 - dx) +
                                      in[Nhwc(is, n, r.lower, t.upper, c)] * (1 - dy) * dx +
                                      in[Nhwc(is, n, r.upper, t.upper, c)] * dy * dx;
        }
      }
    }
  }
  return OkStatus();
}

}  // namespace opuc::reference
