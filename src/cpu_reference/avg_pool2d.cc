//===- src/cpu_reference/avg_pool2d.cc - AVERAGE_POOL_2D ------------------===//
//
// out[n,y,x,c] = act(sum / count) over the window's taps inside the input:
// padding is never counted, so a window at a SAME border averages fewer
// elements (TFLite's reference AveragePool). f32: the sum accumulates in
// float from 0, row by row (y, then x); count is converted to float for the
// division. Quantized (docs/numerics.md §5): the exact int64 sum, then
// sat_int8(rhu_div(sum · 2^max(d,0), count · 2^max(-d,0))) with
// d = f_out - f_in, and the fused clamp.
//
//===----------------------------------------------------------------------===//
#include "integer_util.h"

namespace opuc::reference {
namespace {

/// `finish(sum, count, out, index)` writes output element `index`.
template <typename T, typename Acc, typename Finish>
Status AvgPool2D(KernelContext& ctx, Finish finish) {
  const HostTensor& input = *ctx.input(0);
  OPUC_ASSIGN_OR_RETURN(HostTensor * output, ctx.AllocateOutput());
  const Shape& is = input.shape();
  const Shape& os = output->shape();
  const T* in = input.data<T>();
  return ForEachPoolWindow(
      AvgPool2DAttrs::Of(ctx.attrs()), is, os, [&](const PoolWindow& w) -> Status {
        for (int64_t c = 0; c < os[3]; ++c) {
          Acc sum = 0;
          int64_t count = 0;
          for (int64_t iy = w.y_begin; iy < w.y_end; ++iy) {
            for (int64_t ix = w.x_begin; ix < w.x_end; ++ix) {
              sum += static_cast<Acc>(in[Nhwc(is, w.n, iy, ix, c)]);
              ++count;
            }
          }
          OPUC_RETURN_IF_ERROR(finish(sum, count, output, Nhwc(os, w.n, w.y, w.x, c)));
        }
        return OkStatus();
      });
}

}  // namespace

Status EvalAvgPool2D(KernelContext& ctx) {
  if (IsQuantizedInput(ctx)) {
    OPUC_ASSIGN_OR_RETURN(int f_in, InputFraction(ctx, 0, "input"));
    OPUC_ASSIGN_OR_RETURN(int f_out, OutputFraction(ctx));
    OPUC_ASSIGN_OR_RETURN(IntRange range, OutputRange(ctx, f_out));
    const auto finish = [&](int64_t sum, int64_t count, HostTensor* out, int64_t index) -> Status {
      OPUC_ASSIGN_OR_RETURN(int64_t average, Average(sum, count, f_out - f_in, range));
      IntWriter(out).Set(index, average);
      return OkStatus();
    };
    return VisitFormat(ctx.input(0)->dtype(), [&](auto element) {
      return AvgPool2D<decltype(element), int64_t>(ctx, finish);
    });
  }
  OPUC_RETURN_IF_ERROR(RequireF32(ctx, 0, "input"));
  const Activation activation = AvgPool2DAttrs::Of(ctx.attrs()).activation;
  return AvgPool2D<float, float>(
      ctx, [activation](float sum, int64_t count, HostTensor* out, int64_t index) {
        // TFLite's padding never leaves a window without elements; if one had
        // none it would give 0 rather than 0/0.
        out->data<float>()[index] =
            Activate(activation, count ? sum / static_cast<float>(count) : 0.0f);
        return OkStatus();
      });
}

}  // namespace opuc::reference
