//===- src/cpu/max_pool2d.cc - MAX_POOL_2D over channel vectors ---===//
//
// The reference's rule (max_pool2d.cc, numerics.md §5): the max of the
// window's taps inside the input, from the lowest value, then the fused
// clamp (f32) or requant(m, f_in − f_out) and the clamp (integers). The
// reference walks channel by channel through each window; here each tap
// is one pass over the pixel's channels, the running maxima in a row kept
// for the window (the same comparisons, so the same bits, NaN included).
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <limits>

#include "epilogue.h"
#include "kept_buffer.h"
#include "kernel_util.h"
#include "kernels.h"
#include "requant32.h"
#include "typed_map.h"

namespace opuc::cpu {
namespace {

struct WindowMaxima;  // KeptBuffer tag

/// best[c] = max(best[c], x[c]) as std::max orders it. Not inlined: inlined,
/// GCC 12 drops the restrict qualifiers and leaves the loop scalar.
template <typename T>
[[gnu::noinline]] void MaxInto(const T* __restrict x, T* __restrict best, int64_t channels) {
  for (int64_t c = 0; c < channels; ++c) best[c] = best[c] < x[c] ? x[c] : best[c];
}

/// out[window, :] = the window's maxima, each through `finish`.
template <typename T, typename Out, typename Finish>
Status Pool(const reference::KernelContext& ctx, const HostTensor& input, HostTensor* output,
            Finish finish) {
  const Shape& is = input.shape();
  const Shape& os = output->shape();
  const int64_t channels = os[3];
  std::vector<T>& best = KeptBuffer<T, WindowMaxima>();
  best.resize(static_cast<size_t>(channels));
  const T* in = input.data<T>();
  Out* out = output->data<Out>();
  return reference::ForEachPoolWindow(
      MaxPool2DAttrs::Of(ctx.attrs()), is, os, [&](const reference::PoolWindow& w) {
        std::fill(best.begin(), best.end(), std::numeric_limits<T>::lowest());
        for (int64_t iy = w.y_begin; iy < w.y_end; ++iy)
          for (int64_t ix = w.x_begin; ix < w.x_end; ++ix)
            MaxInto(in + Nhwc(is, w.n, iy, ix, 0), best.data(), channels);
        finish(best.data(), out + Nhwc(os, w.n, w.y, w.x, 0), channels);
        return OkStatus();
      });
}

}  // namespace

Status MaxPool2D(reference::KernelContext& ctx) {
  const HostTensor& input = *ctx.input(0);
  if (!reference::IsQuantizedInput(ctx)) {
    OPUC_RETURN_IF_ERROR(reference::RequireF32(ctx, 0, "input"));
    OPUC_ASSIGN_OR_RETURN(HostTensor * output, ctx.AllocateOutput());
    const auto copy = [](const float* m, float* z, int64_t n) { std::copy(m, m + n, z); };
    OPUC_RETURN_IF_ERROR((Pool<float, float>(ctx, input, output, copy)));
    FloatEpilogue(ctx).Apply(output->data<float>(), 1, output->elements());  // the fused clamp
    return OkStatus();
  }
  OPUC_ASSIGN_OR_RETURN(int f_in, reference::InputFraction(ctx, 0, "input"));
  OPUC_ASSIGN_OR_RETURN(int f_out, reference::OutputFraction(ctx));
  OPUC_ASSIGN_OR_RETURN(reference::IntRange range, reference::OutputRange(ctx, f_out));
  if (!Requant32::Covers(f_in - f_out)) return reference::EvalMaxPool2D(ctx);
  OPUC_ASSIGN_OR_RETURN(HostTensor * output, ctx.AllocateOutput());
  const FixedRequant requant(f_in - f_out, range.lo, range.hi);
  return VisitFormats(input.dtype(), output->dtype(), [&](auto in, auto out) {
    using Out = decltype(out);
    return Pool<decltype(in), Out>(ctx, input, output, [&](const auto* m, Out* z, int64_t n) {
      for (int64_t c = 0; c < n; ++c) z[c] = static_cast<Out>(requant(m[c]));
    });
  });
}

}  // namespace opuc::cpu
