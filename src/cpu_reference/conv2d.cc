//===- src/cpu_reference/conv2d.cc - CONV_2D ------------------------------===//
//
// out[n,y,x,o] = act(sum + bias[o]), where sum accumulates, starting at 0,
// over ky, then kx, then i (innermost) of
//   input[n, y·sh - pad_h + ky·dh, x·sw - pad_w + kx·dw, i] · weights[o,ky,kx,i]
// skipping taps that fall outside the input (TFLite's reference order).
// f32: in float. Quantized (docs/numerics.md §2, §3): the exact sum in int64 plus
// the i32 bias, which must lie in int32, then the output stage with
// S[o] = f_in + f_w[o] - f_out and the fused activation as a clamp.
//
//===----------------------------------------------------------------------===//
#include "inner_product.h"

namespace opuc::reference {
namespace {

/// The loop for element type T and accumulator Acc; `finish(sum, o, &out)`
/// adds the bias and produces the output element.
template <typename T, typename W, typename Acc, typename Finish>
Status Conv2D(KernelContext& ctx, Finish finish) {
  const HostTensor& input = *ctx.input(0);
  const HostTensor& weights = *ctx.input(1);
  OPUC_ASSIGN_OR_RETURN(HostTensor * output, ctx.AllocateOutput());
  const Shape& is = input.shape();
  const Shape& ws = weights.shape();
  const Shape& os = output->shape();
  const auto a = Conv2DAttrs::Of(ctx.attrs());
  const WindowGeometry g = WindowOf(a.strides, a.dilations, is, os, ws[1], ws[2]);

  const T* in = input.data<T>();
  const W* w = weights.data<W>();
  for (int64_t n = 0; n < os[0]; ++n) {
    for (int64_t y = 0; y < os[1]; ++y) {
      for (int64_t x = 0; x < os[2]; ++x) {
        for (int64_t o = 0; o < os[3]; ++o) {
          Acc sum = 0;
          for (int64_t ky = 0; ky < ws[1]; ++ky) {
            const int64_t iy = g.h.At(y, ky);
            if (iy < 0 || iy >= is[1]) continue;
            for (int64_t kx = 0; kx < ws[2]; ++kx) {
              const int64_t ix = g.w.At(x, kx);
              if (ix < 0 || ix >= is[2]) continue;
              for (int64_t i = 0; i < ws[3]; ++i)
                sum += static_cast<Acc>(in[Nhwc(is, n, iy, ix, i)]) *
                       static_cast<Acc>(w[Nhwc(ws, o, ky, kx, i)]);
            }
          }
          OPUC_RETURN_IF_ERROR(finish(sum, o, output, Nhwc(os, n, y, x, o)));
        }
      }
    }
  }
  return OkStatus();
}

}  // namespace

Status EvalConv2D(KernelContext& ctx) {
  return EvalInnerProduct(ctx, 0, [&](auto in, auto weight, auto accumulator, auto finish) {
    return Conv2D<decltype(in), decltype(weight), decltype(accumulator)>(ctx, finish);
  });
}

}  // namespace opuc::reference
