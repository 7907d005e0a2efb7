//===- src/cpu/resize_bilinear.cc - RESIZE_BILINEAR ---------------===//
//
// The reference's integer rule (resize_bilinear.cc, numerics.md §7): per
// output pixel the exact sum of its four source pixels times their weights
// (10 fraction bits per axis), then requant(acc, 20 + f_in − f_out). The
// reference sums in int64 element by element; here separably (down, then
// across) in int32 vector loops, when the largest sum provably fits (8-bit
// inputs: |q| · Σ|w_y| · Σ|w_x| ≤ 255 · 2^20 and a little more where
// half-pixel centers make a weight negative); sums that could leave int32
// run on the reference's kernel. Floats: the reference's expression for each
// element, in its order, with the coordinates and the weights' factors
// found once per pixel and the channels an inner loop over contiguous
// memory (the same bits where the build contracts no multiply-add).
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <cstdlib>
#include <limits>
#include <vector>

#include "kept_buffer.h"
#include "kernels.h"
#include "requant32.h"
#include "resize_coords.h"
#include "typed_map.h"

namespace opuc::cpu {
namespace {

/// The largest |w_lower| + |w_upper| of an axis.
int64_t LargestWeight(const std::vector<reference::LinearTap>& taps) {
  int64_t largest = 0;
  for (const reference::LinearTap& t : taps)
    largest = std::max(largest, std::abs(t.w_lower) + std::abs(t.w_upper));
  return largest;
}

struct VerticalSums;  // KeptBuffer tags
struct HorizontalTaps;

/// v[i] = lower[i] · w_lower + upper[i] · w_upper over a row of the input.
/// Not inlined: inlined, GCC 12 drops the restrict qualifiers and leaves the
/// loop scalar (so in Across as well).
template <typename In>
[[gnu::noinline]] void Down(const In* __restrict lower, const In* __restrict upper, int32_t w_lower,
                            int32_t w_upper, int32_t* __restrict v, int64_t count) {
  for (int64_t i = 0; i < count; ++i) v[i] = lower[i] * w_lower + upper[i] * w_upper;
}

/// Each output element of a row from the vertical sums: its two source
/// elements and their weights, found once per resize.
struct Across {
  std::vector<int32_t> lower, upper, w_lower, w_upper;
};

template <typename Out>
[[gnu::noinline]] void Blend(const int32_t* __restrict v, const int32_t* __restrict lower,
                             const int32_t* __restrict upper, const int32_t* __restrict w_lower,
                             const int32_t* __restrict w_upper, Out* __restrict z, int64_t count,
                             FixedRequant requant) {
  for (int64_t i = 0; i < count; ++i)
    z[i] = static_cast<Out>(requant(v[lower[i]] * w_lower[i] + v[upper[i]] * w_upper[i]));
}

/// One output pixel's channels from the vertical sums of its two source
/// pixels: for layers of many channels, contiguous loads instead of gathers.
template <typename Out>
[[gnu::noinline]] void BlendPixel(const int32_t* __restrict lower, const int32_t* __restrict upper,
                                  int32_t w_lower, int32_t w_upper, Out* __restrict z,
                                  int64_t channels, FixedRequant requant) {
  for (int64_t c = 0; c < channels; ++c)
    z[c] = static_cast<Out>(requant(lower[c] * w_lower + upper[c] * w_upper));
}

/// One output pixel's channels from its four sources, as the reference
/// writes the sum. Not inlined: inlined, GCC 12 drops restrict.
[[gnu::noinline]] void Blend(const float* __restrict a, const float* __restrict b,
                             const float* __restrict c, const float* __restrict d,
                             float* __restrict out, int64_t channels, float dy, float dx) {
  const float ody = 1 - dy, odx = 1 - dx;
  for (int64_t k = 0; k < channels; ++k)
    out[k] = a[k] * ody * odx + b[k] * dy * odx + c[k] * ody * dx + d[k] * dy * dx;
}

Status ResizeFloat(reference::KernelContext& ctx, const HostTensor& input) {
  OPUC_ASSIGN_OR_RETURN(HostTensor * output, ctx.AllocateOutput());
  const auto a = ResizeBilinearAttrs::Of(ctx.attrs());
  const Shape& is = input.shape();
  const Shape& os = output->shape();
  const std::vector<reference::FloatTap> rows =
      reference::FloatBilinearTaps(is[1], os[1], a.align_corners, a.half_pixel_centers);
  const std::vector<reference::FloatTap> cols =
      reference::FloatBilinearTaps(is[2], os[2], a.align_corners, a.half_pixel_centers);
  const float* in = input.data<float>();
  float* out = output->data<float>();
  const int64_t c = os[3];
  for (int64_t n = 0; n < os[0]; ++n)
    for (int64_t y = 0; y < os[1]; ++y) {
      const reference::FloatTap& r = rows[static_cast<size_t>(y)];
      const float dy = r.position - static_cast<float>(r.lower);
      for (int64_t x = 0; x < os[2]; ++x) {
        const reference::FloatTap& t = cols[static_cast<size_t>(x)];
        const float dx = t.position - static_cast<float>(t.lower);
        Blend(in + Nhwc(is, n, r.lower, t.lower, 0), in + Nhwc(is, n, r.upper, t.lower, 0),
              in + Nhwc(is, n, r.lower, t.upper, 0), in + Nhwc(is, n, r.upper, t.upper, 0),
              out + Nhwc(os, n, y, x, 0), c, dy, dx);
      }
    }
  return OkStatus();
}

}  // namespace

Status ResizeBilinear(reference::KernelContext& ctx) {
  const HostTensor& input = *ctx.input(0);
  if (input.elements() == 0) return reference::EvalResizeBilinear(ctx);  // its error, if any
  if (!reference::IsQuantizedInput(ctx)) {
    OPUC_RETURN_IF_ERROR(reference::RequireF32(ctx, 0, "input"));
    return ResizeFloat(ctx, input);
  }
  OPUC_ASSIGN_OR_RETURN(int f_in, reference::InputFraction(ctx, 0, "input"));
  OPUC_ASSIGN_OR_RETURN(int f_out, reference::OutputFraction(ctx));
  const auto a = ResizeBilinearAttrs::Of(ctx.attrs());
  const Shape& is = input.shape();
  const Shape os = ctx.output_tensor().shape;
  OPUC_ASSIGN_OR_RETURN(
      std::vector<reference::LinearTap> rows,
      reference::BilinearTaps(is[1], os[1], a.align_corners, a.half_pixel_centers));
  OPUC_ASSIGN_OR_RETURN(
      std::vector<reference::LinearTap> cols,
      reference::BilinearTaps(is[2], os[2], a.align_corners, a.half_pixel_centers));
  const int64_t largest_input = input.dtype() == DType::kI16 ? 32768 : 255;
  const int shift = 20 + f_in - f_out;
  if (largest_input * LargestWeight(rows) * LargestWeight(cols) >
          std::numeric_limits<int32_t>::max() ||
      !Requant32::Covers(shift))
    return reference::EvalResizeBilinear(ctx);
  OPUC_ASSIGN_OR_RETURN(HostTensor * output, ctx.AllocateOutput());
  const reference::IntRange range = reference::FormatRange(output->dtype());
  const FixedRequant requant(shift, range.lo, range.hi);
  // Separably: each output row's two source rows summed down first, then
  // across. The same exact integer as the reference's four products
  // (w_y · w_x · q summed), and every partial sum within the bound above.
  const int64_t channels = os[3], row = is[2] * channels, out_row = os[2] * channels;
  // From 64 channels on, a pixel's channels fill vectors of int8 on their own
  // (palm_detection_full's resizes: 5× faster than through gathers); fewer
  // would leave most of each pixel to the loop's scalar remainder
  // (selfie_segmentation's: 3.5× slower with a threshold of 16).
  constexpr int64_t kManyChannels = 64;
  Across across;
  if (channels < kManyChannels)
    for (int64_t x = 0; x < os[2]; ++x) {
      const reference::LinearTap& t = cols[static_cast<size_t>(x)];
      for (int64_t c = 0; c < channels; ++c) {
        across.lower.push_back(static_cast<int32_t>(t.lower * channels + c));
        across.upper.push_back(static_cast<int32_t>(t.upper * channels + c));
        across.w_lower.push_back(static_cast<int32_t>(t.w_lower));
        across.w_upper.push_back(static_cast<int32_t>(t.w_upper));
      }
    }
  std::vector<int32_t>& v = KeptBuffer<int32_t, VerticalSums>();
  v.resize(static_cast<size_t>(row));
  return VisitFormats(input.dtype(), output->dtype(), [&](auto in_tag, auto out_tag) {
    using In = decltype(in_tag);
    using Out = decltype(out_tag);
    for (int64_t n = 0; n < os[0]; ++n)
      for (int64_t y = 0; y < os[1]; ++y) {
        const reference::LinearTap& r = rows[static_cast<size_t>(y)];
        Down(input.data<In>() + Nhwc(is, n, r.lower, 0, 0),
             input.data<In>() + Nhwc(is, n, r.upper, 0, 0), static_cast<int32_t>(r.w_lower),
             static_cast<int32_t>(r.w_upper), v.data(), row);
        Out* z = output->data<Out>() + Nhwc(os, n, y, 0, 0);
        if (channels < kManyChannels) {
          Blend(v.data(), across.lower.data(), across.upper.data(), across.w_lower.data(),
                across.w_upper.data(), z, out_row, requant);
          continue;
        }
        for (int64_t x = 0; x < os[2]; ++x) {
          const reference::LinearTap& t = cols[static_cast<size_t>(x)];
          BlendPixel(v.data() + t.lower * channels, v.data() + t.upper * channels,
                     static_cast<int32_t>(t.w_lower), static_cast<int32_t>(t.w_upper),
                     z + x * channels, channels, requant);
        }
      }
    return OkStatus();
  });
}

}  // namespace opuc::cpu
