//===- src/cpu/transpose_conv2d.cc - TRANSPOSE_CONV as GEMM + scatter ---===//
//
// The reference scatters each input element's products one by one. Here a
// block of input pixels times every weight row is one GEMM: row p, column
// (ky, kx, o) holds Σ_i input[p, i] · weights[o, ky, kx, i], the weights
// laid out with the output channels innermost so each tap's O values are
// contiguous. Each of those runs is then added into the output pixel the
// tap lands on (cropped as the reference does). Floats sum in another order
// (the tolerance of docs/cpu-executor.md); 8-bit inputs are summed exactly
// (a float sum of integers below 2^24 per GEMM element, then int64) and go
// through the integer output stage. i16 inputs and reductions too long for
// one exact float sum run on the reference's kernel.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <cstdlib>
#include <vector>

#include "inner_product.h"
#include "kernels.h"

namespace opuc::cpu {
namespace {

struct TapWeights;  // KeptBuffer tags
struct TapProducts;
struct FloatRows;
struct ExactScatter;

/// weights[o, ky, kx, i] as rows (ky, kx, o) of I floats.
int64_t LayOutTaps(const HostTensor& weights, std::vector<float>& rows) {
  const Shape& ws = weights.shape();
  const int64_t co = ws[0], kh = ws[1], kw = ws[2], ci = ws[3];
  rows.resize(static_cast<size_t>(co * kh * kw * ci));
  int64_t max_w = 0;
  for (int64_t o = 0; o < co; ++o)
    for (int64_t t = 0; t < kh * kw; ++t)
      for (int64_t i = 0; i < ci; ++i) {
        const int64_t from = (o * kh * kw + t) * ci + i;
        float& to = rows[static_cast<size_t>((t * co + o) * ci + i)];
        if (weights.dtype() == DType::kF32) {
          to = weights.data<float>()[from];
        } else {
          const int8_t v = weights.data<int8_t>()[from];
          to = v;
          max_w = std::max<int64_t>(max_w, std::abs(int64_t{v}));
        }
      }
  return max_w;
}

/// sums[output pixel, :] += products[pixel, tap, :] for every tap of every
/// input pixel in [first, first + count) that lands inside the output.
template <typename Acc>
void Scatter(const float* products, int64_t first, int64_t count, const Shape& is, const Shape& os,
             const WindowGeometry& g, int64_t kh, int64_t kw, Acc* sums) {
  const int64_t co = os[3], taps = kh * kw;
  for (int64_t p = 0; p < count; ++p) {
    const int64_t pixel = first + p;
    const int64_t x = pixel % is[2], y = pixel / is[2] % is[1], n = pixel / (is[2] * is[1]);
    for (int64_t ky = 0; ky < kh; ++ky) {
      const int64_t oy = g.h.At(y, ky);
      if (oy < 0 || oy >= os[1]) continue;
      for (int64_t kx = 0; kx < kw; ++kx) {
        const int64_t ox = g.w.At(x, kx);
        if (ox < 0 || ox >= os[2]) continue;
        const float* __restrict from = products + (p * taps + ky * kw + kx) * co;
        Acc* __restrict to = sums + Nhwc(os, n, oy, ox, 0);
        for (int64_t o = 0; o < co; ++o) to[o] += static_cast<Acc>(from[o]);
      }
    }
  }
}

}  // namespace

Status TransposeConv2D(reference::KernelContext& ctx) {
  const HostTensor& input = *ctx.input(0);
  const HostTensor& weights = *ctx.input(1);
  const bool quantized = reference::IsQuantizedInput(ctx);
  if (quantized && input.dtype() == DType::kI16) return reference::EvalTransposeConv2D(ctx);
  if (!quantized) {
    OPUC_RETURN_IF_ERROR(reference::RequireF32(ctx, 0, "input"));
    OPUC_RETURN_IF_ERROR(reference::RequireF32(ctx, 1, "weights"));
  }
  const Shape& is = input.shape();
  const Shape& ws = weights.shape();
  const Shape os = ctx.output_tensor().shape;
  const int64_t co = ws[0], kh = ws[1], kw = ws[2], ci = ws[3];
  std::vector<float>& taps = KeptBuffer<float, TapWeights>();
  const int64_t max_w = LayOutTaps(weights, taps);
  const int64_t max_in = input.dtype() == DType::kU8 ? 255 : 128;
  if (quantized && ci > ExactChunk(max_in, max_w)) return reference::EvalTransposeConv2D(ctx);

  // The forward convolution's window, from os (its input) to is (its output).
  const WindowGeometry g =
      WindowOf(TransposeConv2DAttrs::Of(ctx.attrs()).strides, Pair{1, 1}, os, is, kh, kw);
  const int64_t pixels = is[0] * is[1] * is[2], columns = kh * kw * co;
  const MatrixView tap_rows{taps.data(), columns, ci, ci};
  std::vector<float>& products = KeptBuffer<float, TapProducts>();
  const int64_t block = BlockRows(std::max(ci, columns));
  OPUC_ASSIGN_OR_RETURN(HostTensor * output, ctx.AllocateOutput());

  if (!quantized) {
    float* sums = output->data<float>();
    std::fill(sums, sums + output->elements(), 0.0f);
    for (int64_t p = 0; p < pixels; p += block) {
      const int64_t count = std::min(block, pixels - p);
      products.resize(static_cast<size_t>(count * columns));
      GemmABt({input.data<float>() + p * ci, count, ci, ci}, tap_rows, products.data());
      Scatter(products.data(), p, count, is, os, g, kh, kw, sums);
    }
    FloatEpilogue(ctx).Apply(sums, output->elements() / std::max<int64_t>(co, 1), co);
    return OkStatus();
  }

  OPUC_ASSIGN_OR_RETURN(IntegerEpilogue epilogue, IntegerEpilogue::Make(ctx, 0, co));
  std::vector<int64_t>& sums = KeptBuffer<int64_t, ExactScatter>();
  sums.assign(static_cast<size_t>(output->elements()), 0);
  std::vector<float>& rows = KeptBuffer<float, FloatRows>();
  reference::VisitFormat(input.dtype(), [&](auto tag) {
    const auto* in = input.data<decltype(tag)>();
    for (int64_t p = 0; p < pixels; p += block) {
      const int64_t count = std::min(block, pixels - p);
      rows.resize(static_cast<size_t>(count * ci));
      for (int64_t i = 0; i < count * ci; ++i)
        rows[static_cast<size_t>(i)] = static_cast<float>(in[p * ci + i]);
      products.resize(static_cast<size_t>(count * columns));
      GemmABt({rows.data(), count, ci, ci}, tap_rows, products.data());
      Scatter(products.data(), p, count, is, os, g, kh, kw, sums.data());
    }
  });
  return epilogue.Apply(sums.data(), output->elements() / std::max<int64_t>(co, 1), output, 0);
}

}  // namespace opuc::cpu
