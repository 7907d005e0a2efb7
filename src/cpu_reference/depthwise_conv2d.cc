//===- src/cpu_reference/depthwise_conv2d.cc - DEPTHWISE_CONV_2D ----------===//
//
// Input channel c with depth multiplier M feeds output channels c·M + m:
//   out[n,y,x,c·M+m] = act(sum + bias[c·M+m]),
//   sum over ky, then kx (innermost) of
//   input[n, y·sh - pad_h + ky·dh, x·sw - pad_w + kx·dw, c] · weights[0,ky,kx,c·M+m]
// accumulated from 0, skipping taps outside the input. f32: in float. Quantized
// (docs/numerics.md §2, §3): exact in int64, the weights' fraction lengths
// along axis 3, then the output stage and the fused clamp as conv2d.
//
//===----------------------------------------------------------------------===//
#include "inner_product.h"

namespace opuc::reference {
namespace {

template <typename T, typename W, typename Acc, typename Finish>
Status DepthwiseConv2D(KernelContext& ctx, Finish finish) {
  const HostTensor& input = *ctx.input(0);
  const HostTensor& weights = *ctx.input(1);
  OPUC_ASSIGN_OR_RETURN(HostTensor * output, ctx.AllocateOutput());
  const Shape& is = input.shape();
  const Shape& ws = weights.shape();
  const Shape& os = output->shape();
  const auto a = DepthwiseConv2DAttrs::Of(ctx.attrs());
  const int64_t multiplier = a.depth_multiplier;
  const WindowGeometry g = WindowOf(a.strides, a.dilations, is, os, ws[1], ws[2]);

  const T* in = input.data<T>();
  const W* w = weights.data<W>();
  for (int64_t n = 0; n < os[0]; ++n) {
    for (int64_t y = 0; y < os[1]; ++y) {
      for (int64_t x = 0; x < os[2]; ++x) {
        for (int64_t c = 0; c < is[3]; ++c) {
          for (int64_t m = 0; m < multiplier; ++m) {
            const int64_t o = c * multiplier + m;
            Acc sum = 0;
            for (int64_t ky = 0; ky < ws[1]; ++ky) {
              const int64_t iy = g.h.At(y, ky);
              if (iy < 0 || iy >= is[1]) continue;
              for (int64_t kx = 0; kx < ws[2]; ++kx) {
                const int64_t ix = g.w.At(x, kx);
                if (ix < 0 || ix >= is[2]) continue;
                sum += static_cast<Acc>(in[Nhwc(is, n, iy, ix, c)]) *
                       static_cast<Acc>(w[Nhwc(ws, 0, ky, kx, o)]);
              }
            }
            OPUC_RETURN_IF_ERROR(finish(sum, o, output, Nhwc(os, n, y, x, o)));
          }
        }
      }
    }
  }
  return OkStatus();
}

}  // namespace

Status EvalDepthwiseConv2D(KernelContext& ctx) {
  return EvalInnerProduct(ctx, 3, [&](auto in, auto weight, auto accumulator, auto finish) {
    return DepthwiseConv2D<decltype(in), decltype(weight), decltype(accumulator)>(ctx, finish);
  });
}

}  // namespace opuc::reference
