//===- src/cpu/kernels/depthwise_conv2d.cc - DEPTHWISE_CONV_2D ------------===//
//
// Channels are innermost in NHWC, so each tap is one vector operation over a
// pixel's channels: sums[o] += input[c] · weights[tap][o], with o = c·M + m
// for depth multiplier M. Taps are added in the reference's order (ky, then
// kx, from 0, then the bias), so float results are the reference's bits.
// Integer sums are exact in int32 when |input| · Σ_taps |w[o]| fits in it for
// every channel (numerics.md §2 bounds it for 8-bit inputs; i16 inputs with
// small kernels fit too); otherwise the reference's int64 loop runs instead.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <cstdlib>
#include <limits>
#include <vector>

#include <Eigen/Core>

#include "epilogue.h"
#include "kernels.h"

namespace opuc::cpu {
namespace {

struct Window {
  Shape is, os, ws;
  WindowGeometry g;
  int64_t multiplier;
};

/// A pixel's taps inside the input: where each reads, and its weights.
template <typename T, typename W>
struct Tap {
  const T* input;
  const W* weights;
};

/// acc[c] = Σ over taps of input[c] · weights[c], channels [begin, end), in
/// the taps' order, for depth multiplier 1. Blocks of kBlock channels are
/// summed in registers across all taps and stored once.
template <typename T, typename W, typename Acc>
void SumChannels(const Tap<T, W>* taps, size_t count, int64_t channels, Acc* __restrict acc) {
  constexpr int kBlock = 8;
  using Block = Eigen::Array<Acc, kBlock, 1>;
  int64_t c = 0;
  for (; c + kBlock <= channels; c += kBlock) {
    Block block = Block::Zero();
    for (size_t t = 0; t < count; ++t)
      block +=
          Eigen::Map<const Eigen::Array<T, kBlock, 1>>(taps[t].input + c).template cast<Acc>() *
          Eigen::Map<const Eigen::Array<W, kBlock, 1>>(taps[t].weights + c).template cast<Acc>();
    Eigen::Map<Block>(acc + c) = block;
  }
  for (; c < channels; ++c) {
    Acc sum = 0;
    for (size_t t = 0; t < count; ++t)
      sum += static_cast<Acc>(taps[t].input[c]) * static_cast<Acc>(taps[t].weights[c]);
    acc[c] = sum;
  }
}

/// sums (one output row of os[2] · co) for output row y of batch n; T: input
/// elements, W: weights, Acc: the sums.
template <typename T, typename W, typename Acc>
void DepthwiseRow(const Window& d, const T* in, const W* w, int64_t n, int64_t y, Acc* sums) {
  const int64_t ci = d.is[3], co = d.os[3], m = d.multiplier;
  std::vector<Tap<T, W>> taps;
  taps.reserve(static_cast<size_t>(d.ws[1] * d.ws[2]));
  for (int64_t x = 0; x < d.os[2]; ++x) {
    taps.clear();
    for (int64_t ky = 0; ky < d.ws[1]; ++ky) {
      const int64_t iy = d.g.h.At(y, ky);
      if (iy < 0 || iy >= d.is[1]) continue;
      for (int64_t kx = 0; kx < d.ws[2]; ++kx) {
        const int64_t ix = d.g.w.At(x, kx);
        if (ix < 0 || ix >= d.is[2]) continue;
        taps.push_back({in + Nhwc(d.is, n, iy, ix, 0), w + (ky * d.ws[2] + kx) * co});
      }
    }
    Acc* __restrict acc = sums + x * co;
    if (m == 1) {
      SumChannels(taps.data(), taps.size(), ci, acc);
      continue;
    }
    std::fill(acc, acc + co, Acc{0});
    for (const Tap<T, W>& tap : taps)
      for (int64_t c = 0; c < ci; ++c)
        for (int64_t j = 0; j < m; ++j)
          acc[c * m + j] +=
              static_cast<Acc>(tap.input[c]) * static_cast<Acc>(tap.weights[c * m + j]);
  }
}

/// Whether every channel's sum stays inside int32 for inputs up to max_in.
bool FitsInt32(const Window& d, const int8_t* w, int64_t max_in) {
  const int64_t co = d.os[3], taps = d.ws[1] * d.ws[2];
  for (int64_t o = 0; o < co; ++o) {
    int64_t sum = 0;
    for (int64_t t = 0; t < taps; ++t) sum += std::abs(int64_t{w[t * co + o]});
    if (max_in * sum > std::numeric_limits<int32_t>::max()) return false;
  }
  return true;
}

}  // namespace

Status DepthwiseConv2D(reference::KernelContext& ctx, const FloatChain* chain) {
  const HostTensor& input = *ctx.input(0);
  const HostTensor& weights = *ctx.input(1);
  const Shape os = ctx.output_tensor().shape;
  const auto a = DepthwiseConv2DAttrs::Of(ctx.attrs());
  const Window d{
      input.shape(), os, weights.shape(),
      WindowOf(a.strides, a.dilations, input.shape(), os, weights.shape()[1], weights.shape()[2]),
      a.depth_multiplier};
  const int64_t row = os[2] * os[3];

  if (!reference::IsQuantizedInput(ctx)) {
    OPUC_RETURN_IF_ERROR(reference::RequireF32(ctx, 0, "input"));
    OPUC_RETURN_IF_ERROR(reference::RequireF32(ctx, 1, "weights"));
    OPUC_ASSIGN_OR_RETURN(HostTensor * output, ctx.AllocateOutput());
    const FloatEpilogue epilogue(ctx);
    float* out = output->data<float>();
    for (int64_t n = 0; n < os[0]; ++n)
      for (int64_t y = 0; y < os[1]; ++y) {
        float* sums = out + (n * os[1] + y) * row;
        DepthwiseRow(d, input.data<float>(), weights.data<float>(), n, y, sums);
        epilogue.Apply(sums, os[2], os[3]);
        if (chain) chain->Apply(sums, (n * os[1] + y) * row, os[2], os[3]);
      }
    return OkStatus();
  }

  const int8_t* w = weights.data<int8_t>();
  const int64_t max_in = input.dtype() == DType::kI16  ? 32768
                         : input.dtype() == DType::kU8 ? 255
                                                       : 128;
  if (!FitsInt32(d, w, max_in)) return reference::EvalDepthwiseConv2D(ctx);
  OPUC_ASSIGN_OR_RETURN(IntegerEpilogue epilogue, IntegerEpilogue::Make(ctx, 3, os[3]));
  OPUC_ASSIGN_OR_RETURN(HostTensor * output, ctx.AllocateOutput());
  std::vector<int32_t> sums(static_cast<size_t>(row));
  return reference::VisitFormat(input.dtype(), [&](auto tag) -> Status {
    const auto* in = input.data<decltype(tag)>();
    for (int64_t n = 0; n < os[0]; ++n)
      for (int64_t y = 0; y < os[1]; ++y) {
        DepthwiseRow(d, in, w, n, y, sums.data());
        OPUC_RETURN_IF_ERROR(epilogue.Apply(sums.data(), os[2], output, (n * os[1] + y) * row));
      }
    return OkStatus();
  });
}

}  // namespace opuc::cpu
