//===- src/cpu/avg_pool2d.cc - AVERAGE_POOL_2D over channel vectors -===//
//
// The reference's rule (avg_pool2d.cc, numerics.md §5): the sum of the
// window's taps inside the input, row by row from 0, divided by their count
// (f32: in float, then the fused clamp; integers: the exact sum through the
// reference's rounded division and clamp). The reference walks channel by
// channel through each window; here each tap is one pass over the pixel's
// channels, the running sums in a row kept for the window: every channel
// adds the same values in the same order, so the float sums are the
// reference's bits too.
//
//===----------------------------------------------------------------------===//
#include <algorithm>

#include "epilogue.h"
#include "kept_buffer.h"
#include "kernel_util.h"
#include "kernels.h"
#include "typed_map.h"

namespace opuc::cpu {
namespace {

struct WindowSums;  // KeptBuffer tag

/// sum[c] += x[c]. Not inlined: inlined, GCC 12 drops the restrict
/// qualifiers and leaves the loop scalar.
template <typename T, typename Acc>
[[gnu::noinline]] void AddInto(const T* __restrict x, Acc* __restrict sum, int64_t channels) {
  for (int64_t c = 0; c < channels; ++c) sum[c] += static_cast<Acc>(x[c]);
}

/// out[window, :] = finish(the window's sums, its tap count).
template <typename T, typename Acc, typename Finish>
Status Pool(const reference::KernelContext& ctx, const HostTensor& input, const Shape& os,
            Finish finish) {
  const Shape& is = input.shape();
  const int64_t channels = os[3];
  std::vector<Acc>& sum = KeptBuffer<Acc, WindowSums>();
  sum.resize(static_cast<size_t>(channels));
  const T* in = input.data<T>();
  return reference::ForEachPoolWindow(
      AvgPool2DAttrs::Of(ctx.attrs()), is, os, [&](const reference::PoolWindow& w) -> Status {
        std::fill(sum.begin(), sum.end(), Acc{0});
        for (int64_t iy = w.y_begin; iy < w.y_end; ++iy)
          for (int64_t ix = w.x_begin; ix < w.x_end; ++ix)
            AddInto(in + Nhwc(is, w.n, iy, ix, 0), sum.data(), channels);
        const int64_t count = (w.y_end - w.y_begin) * (w.x_end - w.x_begin);
        return finish(sum.data(), count, Nhwc(os, w.n, w.y, w.x, 0));
      });
}

}  // namespace

Status AvgPool2D(reference::KernelContext& ctx) {
  const HostTensor& input = *ctx.input(0);
  if (!reference::IsQuantizedInput(ctx)) {
    OPUC_RETURN_IF_ERROR(reference::RequireF32(ctx, 0, "input"));
    OPUC_ASSIGN_OR_RETURN(HostTensor * output, ctx.AllocateOutput());
    float* out = output->data<float>();
    OPUC_RETURN_IF_ERROR((Pool<float, float>(ctx, input, output->shape(),
                                             [&](const float* sum, int64_t count, int64_t at) {
                                               // As the reference: a window without elements
                                               // (TFLite's padding never makes one) gives 0 rather
                                               // than 0/0.
                                               const float n = static_cast<float>(count);
                                               for (int64_t c = 0; c < output->shape()[3]; ++c)
                                                 out[at + c] = count ? sum[c] / n : 0.0f;
                                               return OkStatus();
                                             })));
    FloatEpilogue(ctx).Apply(out, 1, output->elements());  // the fused clamp
    return OkStatus();
  }
  // Integer sums of 8- and 16-bit inputs fit int32 for windows of up to
  // 2^15 taps; larger ones take the reference's int64 sums.
  OPUC_ASSIGN_OR_RETURN(int f_in, reference::InputFraction(ctx, 0, "input"));
  OPUC_ASSIGN_OR_RETURN(int f_out, reference::OutputFraction(ctx));
  OPUC_ASSIGN_OR_RETURN(reference::IntRange range, reference::OutputRange(ctx, f_out));
  const AvgPool2DAttrs attrs = AvgPool2DAttrs::Of(ctx.attrs());
  if (attrs.filter[0] * attrs.filter[1] > (int64_t{1} << 15)) return reference::EvalAvgPool2D(ctx);
  OPUC_ASSIGN_OR_RETURN(HostTensor * output, ctx.AllocateOutput());
  return VisitFormats(input.dtype(), output->dtype(), [&](auto in, auto out_tag) {
    using Out = decltype(out_tag);
    Out* out = output->data<Out>();
    return Pool<decltype(in), int32_t>(
        ctx, input, output->shape(), [&](const int32_t* sum, int64_t count, int64_t at) -> Status {
          for (int64_t c = 0; c < output->shape()[3]; ++c) {
            OPUC_ASSIGN_OR_RETURN(int64_t average,
                                  reference::Average(sum[c], count, f_out - f_in, range));
            out[at + c] = static_cast<Out>(average);
          }
          return OkStatus();
        });
  });
}

}  // namespace opuc::cpu
