//===- src/cpu_reference/max_pool2d.cc - MAX_POOL_2D ----------------------===//
//
// out[n,y,x,c] = act(max over the window's taps inside the input), starting
// from the lowest value, with the window at (y·sh - pad_h, x·sw - pad_w);
// padding as TFLite computes it (kernel_util.h), never counted as a value.
// Quantized (docs/numerics.md §5): the max of the integer taps, then
// requant(m, f_in - f_out) and the fused clamp.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <limits>

#include "integer_util.h"

namespace opuc::reference {
namespace {

/// `finish(max, out, index)` writes element `index` of *out.
template <typename T, typename Finish>
Status MaxPool2D(KernelContext& ctx, Finish finish) {
  const HostTensor& input = *ctx.input(0);
  OPUC_ASSIGN_OR_RETURN(HostTensor * output, ctx.AllocateOutput());
  const Shape& is = input.shape();
  const Shape& os = output->shape();
  const T* in = input.data<T>();
  return ForEachPoolWindow(MaxPool2DAttrs::Of(ctx.attrs()), is, os, [&](const PoolWindow& w) {
    for (int64_t c = 0; c < os[3]; ++c) {
      T best = std::numeric_limits<T>::lowest();
      for (int64_t iy = w.y_begin; iy < w.y_end; ++iy)
        for (int64_t ix = w.x_begin; ix < w.x_end; ++ix)
          best = std::max(best, in[Nhwc(is, w.n, iy, ix, c)]);
      finish(best, output, Nhwc(os, w.n, w.y, w.x, c));
    }
    return OkStatus();
  });
}

}  // namespace

Status EvalMaxPool2D(KernelContext& ctx) {
  if (IsQuantizedInput(ctx)) {
    OPUC_ASSIGN_OR_RETURN(int f_in, InputFraction(ctx, 0, "input"));
    OPUC_ASSIGN_OR_RETURN(int f_out, OutputFraction(ctx));
    OPUC_ASSIGN_OR_RETURN(IntRange range, OutputRange(ctx, f_out));
    return VisitFormat(ctx.input(0)->dtype(), [&](auto element) {
      return MaxPool2D<decltype(element)>(ctx, [&](auto m, HostTensor* out, int64_t index) {
        IntWriter(out).Set(index, RequantTo(m, f_in - f_out, range.lo, range.hi));
      });
    });
  }
  OPUC_RETURN_IF_ERROR(RequireF32(ctx, 0, "input"));
  const Activation activation = MaxPool2DAttrs::Of(ctx.attrs()).activation;
  return MaxPool2D<float>(ctx, [activation](float m, HostTensor* out, int64_t index) {
    out->data<float>()[index] = Activate(activation, m);
  });
}

}  // namespace opuc::reference
