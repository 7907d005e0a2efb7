//===- src/cpu/conv2d.cc - CONV_2D as im2col + GEMM ---------------===//
//
// Each output pixel's receptive field becomes one row of patches, ordered
// (ky, kx, i) as the OHWI weights are, with zeros where a tap falls outside
// the input (padding is 0 in every format: numerics.md §1). A 1×1 window
// with stride 1 and no padding over a float input needs no copy: the input
// is its own patch matrix.
//
//===----------------------------------------------------------------------===//
#include "inner_product.h"
#include "kernels.h"

namespace opuc::cpu {
namespace {

struct ConvPatches {
  const HostTensor& input;
  Shape is, os;
  WindowGeometry g;
  int64_t kh, kw;

  bool IsPointwise() const {
    return kh == 1 && kw == 1 && g.h.stride == 1 && g.w.stride == 1 && g.h.pad_before == 0 &&
           g.w.pad_before == 0 && is[1] == os[1] && is[2] == os[2];
  }

  template <typename T>
  MatrixView operator()(T, int64_t first, int64_t rows, Plane plane,
                        std::vector<float>& buffer) const {
    const int64_t ci = is[3];
    const int64_t k = kh * kw * ci;
    const T* in = input.data<T>();
    if constexpr (std::is_same_v<T, float>)
      if (IsPointwise()) return {in + first * ci, rows, ci, ci};
    buffer.resize(static_cast<size_t>(rows * k));
    for (int64_t r = 0; r < rows; ++r) {
      const int64_t pixel = first + r;
      const int64_t x = pixel % os[2], y = pixel / os[2] % os[1], n = pixel / (os[2] * os[1]);
      float* __restrict row = buffer.data() + r * k;
      // With no dilation along x, a window row inside the input is one run
      // of kw · ci elements.
      const bool run = g.w.dilation == 1 && g.w.At(x, 0) >= 0 && g.w.At(x, kw - 1) < is[2];
      for (int64_t ky = 0; ky < kh; ++ky) {
        const int64_t iy = g.h.At(y, ky);
        if (run && iy >= 0 && iy < is[1]) {
          const T* __restrict src = in + Nhwc(is, n, iy, g.w.At(x, 0), 0);
          for (int64_t i = 0; i < kw * ci; ++i) row[i] = PlaneValue(src[i], plane);
          row += kw * ci;
          continue;
        }
        for (int64_t kx = 0; kx < kw; ++kx, row += ci) {
          const int64_t ix = g.w.At(x, kx);
          if (iy < 0 || iy >= is[1] || ix < 0 || ix >= is[2]) {
            std::fill(row, row + ci, 0.0f);
            continue;
          }
          const T* __restrict src = in + Nhwc(is, n, iy, ix, 0);
          for (int64_t i = 0; i < ci; ++i) row[i] = PlaneValue(src[i], plane);
        }
      }
    }
    return {buffer.data(), rows, k, k};
  }
};

}  // namespace

Status Conv2D(reference::KernelContext& ctx, Tail tail) {
  const HostTensor& input = *ctx.input(0);
  const Shape& ws = ctx.input(1)->shape();
  const Shape os = ctx.output_tensor().shape;
  const auto a = Conv2DAttrs::Of(ctx.attrs());
  const ConvPatches patches{
      input, input.shape(), os, WindowOf(a.strides, a.dilations, input.shape(), os, ws[1], ws[2]),
      ws[1], ws[2]};
  return GemmInnerProduct(ctx, os[0] * os[1] * os[2], patches, tail);
}

}  // namespace opuc::cpu
