//===- src/cpu_reference/transpose_conv2d.cc - TRANSPOSE_CONV -------------===//
//
// The scatter form, in TFLite's reference order: the sums start at 0; for
// each n, input y, input x, input channel i, then ky, kx, output channel o,
//   sum[n, y·sh - pad_h + ky, x·sw - pad_w + kx, o] += input[n,y,x,i] · weights[o,ky,kx,i]
// when that position lies inside output_shape (the rest is cropped). Then
// bias[o] is added and the activation applied. The padding is the forward
// convolution's from output_shape to the input: total = max((in - 1)·s + k - out, 0),
// pad = total / 2 (0 for VALID). f32: in float. Quantized (docs/numerics.md §2,
// §3): the scatter is exact in int64, then the output stage as conv2d.
//
//===----------------------------------------------------------------------===//
#include <vector>

#include "inner_product.h"

namespace opuc::reference {
namespace {

template <typename T, typename W, typename Acc, typename Finish>
Status TransposeConv2D(KernelContext& ctx, Finish finish) {
  const HostTensor& input = *ctx.input(0);
  const HostTensor& weights = *ctx.input(1);
  OPUC_ASSIGN_OR_RETURN(HostTensor * output, ctx.AllocateOutput());
  const Shape& is = input.shape();
  const Shape& ws = weights.shape();
  const Shape& os = output->shape();
  // The forward convolution's window, from os (its input) to is (its output).
  const WindowGeometry g =
      WindowOf(TransposeConv2DAttrs::Of(ctx.attrs()).strides, Pair{1, 1}, os, is, ws[1], ws[2]);

  const T* in = input.data<T>();
  const W* w = weights.data<W>();
  std::vector<Acc> sums(static_cast<size_t>(output->elements()), Acc{0});
  for (int64_t n = 0; n < is[0]; ++n) {
    for (int64_t y = 0; y < is[1]; ++y) {
      for (int64_t x = 0; x < is[2]; ++x) {
        for (int64_t i = 0; i < is[3]; ++i) {
          const auto v = static_cast<Acc>(in[Nhwc(is, n, y, x, i)]);
          for (int64_t ky = 0; ky < ws[1]; ++ky) {
            const int64_t oy = g.h.At(y, ky);
            if (oy < 0 || oy >= os[1]) continue;
            for (int64_t kx = 0; kx < ws[2]; ++kx) {
              const int64_t ox = g.w.At(x, kx);
              if (ox < 0 || ox >= os[2]) continue;
              for (int64_t o = 0; o < os[3]; ++o)
                sums[static_cast<size_t>(Nhwc(os, n, oy, ox, o))] +=
                    v * static_cast<Acc>(w[Nhwc(ws, o, ky, kx, i)]);
            }
          }
        }
      }
    }
  }
  for (int64_t e = 0; e < output->elements(); ++e)
    OPUC_RETURN_IF_ERROR(finish(sums[static_cast<size_t>(e)], e % os[3], output, e));
  return OkStatus();
}

}  // namespace

Status EvalTransposeConv2D(KernelContext& ctx) {
  return EvalInnerProduct(ctx, 0, [&](auto in, auto weight, auto accumulator, auto finish) {
    return TransposeConv2D<decltype(in), decltype(weight), decltype(accumulator)>(ctx, finish);
  });
}

}  // namespace opuc::reference
