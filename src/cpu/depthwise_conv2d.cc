//===- src/cpu/depthwise_conv2d.cc - DEPTHWISE_CONV_2D ------------===//
//
// Channels are innermost in NHWC, so each tap is one vector operation over a
// pixel's channels: sums[o] += input[c] · weights[tap][o], with o = c·M + m
// for depth multiplier M. Taps are added in the reference's order (ky, then
// kx, from 0, then the bias), so float results are the reference's bits.
// Integer sums are exact in float lanes when |input| · Σ_taps |w[o]| stays
// within 2^24 for every channel (8-bit inputs: windows of up to 500 taps),
// in int32 lanes when it fits int32 (numerics.md §2 bounds it for 8-bit
// inputs; i16 inputs with small kernels fit too); otherwise the reference's
// int64 loop runs instead.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <vector>

#include <Eigen/Core>

#include "epilogue.h"
#include "integer_chain.h"
#include "kept_buffer.h"
#include "kernels.h"
#include "vector_width.h"

namespace opuc::cpu {
namespace {

struct Window {
  Shape is, os, ws;
  WindowGeometry g;
  int64_t multiplier;
};

/// The rows output row y reads, inside the input: where each starts (batch
/// n, column 0) and its row of weights.
template <typename T, typename W>
struct TapRow {
  const T* input;
  const W* weights;  ///< Tap (ky, 0); tap (ky, kx) is kx · co further.
};

/// The taps of output pixel x along the width: [first, last) of kx.
struct TapSpan {
  int64_t first, last;
};

TapSpan SpanAt(const WindowAxis& axis, int64_t x, int64_t kernel, int64_t extent) {
  TapSpan span{0, kernel};
  while (span.first < kernel && axis.At(x, span.first) < 0) ++span.first;
  while (span.last > span.first && axis.At(x, span.last - 1) >= extent) --span.last;
  return span;
}

/// acc_p[c, c + B) = Σ taps of input_p[c] · weights[c] for P output pixels
/// whose taps are the same span (their windows differ only by where they
/// start, `starts`, in elements), summed in registers across all taps and
/// stored once; a tap's weights are loaded once for the P pixels. Taps go
/// in the reference's order (ky, then kx), so float sums are its bits.
template <int B, size_t P, typename T, typename W, typename Acc>
void SumBlock(const std::vector<TapRow<T, W>>& rows, TapSpan span, int64_t step, int64_t co,
              const int64_t* starts, int64_t c, Acc* const* acc) {
  using Block = Eigen::Array<Acc, B, 1>;
  Block block[P];
  for (size_t p = 0; p < P; ++p) block[p] = Block::Zero();
  for (const TapRow<T, W>& row : rows)
    for (int64_t kx = span.first; kx < span.last; ++kx) {
      const Block w =
          Eigen::Map<const Eigen::Array<W, B, 1>>(row.weights + kx * co + c).template cast<Acc>();
      const T* column = row.input + kx * step + c;
      for (size_t p = 0; p < P; ++p)
        block[p] +=
            Eigen::Map<const Eigen::Array<T, B, 1>>(column + starts[p]).template cast<Acc>() * w;
    }
  for (size_t p = 0; p < P; ++p) Eigen::Map<Block>(acc[p] + c) = block[p];
}

/// Channels per block: two vector registers per pixel (vector_width.h); four
/// pixels' blocks and a tap's weights then fill half the register file.
constexpr int kWideBlock = 2 * kFloatLanes;

/// SumBlock over channels [0, channels): wide blocks, then of 8, of 4, and
/// one at a time (a 28-channel layer would spend half its time on the last 4
/// one by one).
template <size_t P, typename T, typename W, typename Acc>
void SumPixels(const std::vector<TapRow<T, W>>& rows, TapSpan span, int64_t step, int64_t co,
               const int64_t* starts, int64_t channels, Acc* const* acc) {
  int64_t c = 0;
  for (; c + kWideBlock <= channels; c += kWideBlock)
    SumBlock<kWideBlock, P>(rows, span, step, co, starts, c, acc);
  for (; c + 8 <= channels; c += 8) SumBlock<8, P>(rows, span, step, co, starts, c, acc);
  for (; c + 4 <= channels; c += 4) SumBlock<4, P>(rows, span, step, co, starts, c, acc);
  for (; c < channels; ++c) SumBlock<1, P>(rows, span, step, co, starts, c, acc);
}

/// sums (one output row of os[2] · co) for output row y of batch n; T: input
/// elements, W: weights, Acc: the sums. The rows a pixel reads are the
/// same for the whole output row, and its columns the same for every
/// pixel away from the edges: four such pixels go together.
template <typename T, typename W, typename Acc>
void DepthwiseRow(const Window& d, const T* in, const W* w, int64_t n, int64_t y, Acc* sums,
                  std::vector<TapRow<T, W>>& rows) {
  const int64_t ci = d.is[3], co = d.os[3], m = d.multiplier, kw = d.ws[2];
  rows.clear();
  for (int64_t ky = 0; ky < d.ws[1]; ++ky) {
    const int64_t iy = d.g.h.At(y, ky);
    if (iy >= 0 && iy < d.is[1]) rows.push_back({in + Nhwc(d.is, n, iy, 0, 0), w + ky * kw * co});
  }
  const int64_t step = d.g.w.dilation * ci;  // from one tap to the next along the width
  const auto start = [&](int64_t x) { return d.g.w.At(x, 0) * ci; };
  for (int64_t x = 0; x < d.os[2];) {
    const TapSpan span = SpanAt(d.g.w, x, kw, d.is[2]);
    if (m != 1) {
      Acc* __restrict acc = sums + x * co;
      std::fill(acc, acc + co, Acc{0});
      for (const TapRow<T, W>& row : rows)
        for (int64_t kx = span.first; kx < span.last; ++kx) {
          const T* input = row.input + start(x) + kx * step;
          const W* weights = row.weights + kx * co;
          for (int64_t c = 0; c < ci; ++c)
            for (int64_t j = 0; j < m; ++j)
              acc[c * m + j] += static_cast<Acc>(input[c]) * static_cast<Acc>(weights[c * m + j]);
        }
      ++x;
      continue;
    }
    if (x + 4 <= d.os[2] && span.first == 0 && span.last == kw &&
        SpanAt(d.g.w, x + 3, kw, d.is[2]).last == kw) {
      const int64_t starts[4] = {start(x), start(x + 1), start(x + 2), start(x + 3)};
      Acc* const acc[4] = {sums + x * co, sums + (x + 1) * co, sums + (x + 2) * co,
                           sums + (x + 3) * co};
      SumPixels<4>(rows, span, step, co, starts, ci, acc);
      x += 4;
      continue;
    }
    const int64_t one[1] = {start(x)};
    Acc* const acc[1] = {sums + x * co};
    SumPixels<1>(rows, span, step, co, one, ci, acc);
    ++x;
  }
}

/// The input with its width's padding written out as zeros, and `d` changed
/// to read it: every output pixel then reads a whole row of taps, so the edge
/// pixels go four at a time as well (on an 8x8 map under a 5x5 window, half
/// the pixels are edge pixels). A padded tap adds 0 · w, which leaves a sum
/// as it was when w is finite (a sum that starts at +0 is never -0), so
/// float results stay the reference's bits; callers check the weights.
/// Null when the windows never leave the width.
struct PaddedInput;  // KeptBuffer tags
struct TapRows;
struct RowSums;
template <typename T>
const T* PadWidth(const T* in, Window& d) {
  const int64_t before = d.g.w.pad_before, width = d.is[2], c = d.is[3];
  const int64_t after = std::max<int64_t>(0, d.g.w.At(d.os[2] - 1, d.ws[2] - 1) - (width - 1));
  if ((before == 0 && after == 0) || d.multiplier != 1) return nullptr;
  const int64_t padded = before + width + after, rows = d.is[0] * d.is[1];
  std::vector<T>& out = KeptBuffer<T, PaddedInput>();
  out.resize(static_cast<size_t>(rows * padded * c));
  for (int64_t r = 0; r < rows; ++r) {
    T* row = out.data() + r * padded * c;
    std::fill(row, row + before * c, T{0});
    std::copy(in + r * width * c, in + (r + 1) * width * c, row + before * c);
    std::fill(row + (before + width) * c, row + padded * c, T{0});
  }
  d.is[2] = padded;
  d.g.w.pad_before = 0;
  return out.data();
}

/// Whether no weight is infinite or NaN (an exponent of all ones), in one
/// pass the compiler vectorizes.
bool AllFinite(const float* w, int64_t count) {
  uint32_t nonfinite = 0;
  for (int64_t i = 0; i < count; ++i) {
    uint32_t bits;
    std::memcpy(&bits, w + i, sizeof bits);
    nonfinite |= static_cast<uint32_t>((bits & 0x7f800000u) == 0x7f800000u);
  }
  return nonfinite == 0;
}

/// The largest Σ_taps |w[o]| over the output channels o: with inputs up to
/// max_in in magnitude, every partial sum of a channel is within max_in times it.
int64_t LargestChannelWeight(const Window& d, const int8_t* w) {
  const int64_t co = d.os[3], taps = d.ws[1] * d.ws[2];
  int64_t largest = 0;
  for (int64_t o = 0; o < co; ++o) {
    int64_t sum = 0;
    for (int64_t t = 0; t < taps; ++t) sum += std::abs(int64_t{w[t * co + o]});
    largest = std::max(largest, sum);
  }
  return largest;
}

struct FloatInput;  // KeptBuffer tags
struct FloatWeights;
struct FloatRowSums;

/// The integer layer summed in float lanes, for sums that stay below 2^24
/// (each partial sum is then an exact float, in any order): a float
/// multiply-add is several times faster than an int32 multiply.
Status IntegerAsFloat(const HostTensor& input, const int8_t* w, Window d,
                      const IntegerEpilogue& epilogue, HostTensor* output, Tail tail) {
  std::vector<float>& x = KeptBuffer<float, FloatInput>();
  x.resize(static_cast<size_t>(input.elements()));
  reference::VisitFormat(input.dtype(), [&](auto tag) {
    const auto* q = input.data<decltype(tag)>();
    for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(q[i]);
  });
  std::vector<float>& weights = KeptBuffer<float, FloatWeights>();
  weights.resize(static_cast<size_t>(NumElements(d.ws).value_or(0)));
  for (size_t i = 0; i < weights.size(); ++i) weights[i] = static_cast<float>(w[i]);
  const float* in = x.data();
  if (const float* padded = PadWidth(in, d)) in = padded;
  std::vector<float>& sums = KeptBuffer<float, FloatRowSums>();
  sums.resize(static_cast<size_t>(d.os[2] * d.os[3]));
  auto& rows = KeptBuffer<TapRow<float, float>, TapRows>();
  for (int64_t n = 0; n < d.os[0]; ++n)
    for (int64_t y = 0; y < d.os[1]; ++y) {
      DepthwiseRow(d, in, weights.data(), n, y, sums.data(), rows);
      const int64_t first = (n * d.os[1] + y) * d.os[2] * d.os[3];
      OPUC_RETURN_IF_ERROR(epilogue.Apply(sums.data(), d.os[2], output, first));
      if (tail.integers) tail.integers->Apply(*output, first, d.os[2] * d.os[3]);
    }
  return OkStatus();
}

}  // namespace

Status DepthwiseConv2D(reference::KernelContext& ctx, Tail tail) {
  const HostTensor& input = *ctx.input(0);
  const HostTensor& weights = *ctx.input(1);
  const Shape os = ctx.output_tensor().shape;
  const auto a = DepthwiseConv2DAttrs::Of(ctx.attrs());
  Window d{
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
    const float* in = input.data<float>();
    if (AllFinite(weights.data<float>(), weights.elements()))
      if (const float* padded = PadWidth(in, d)) in = padded;
    auto& rows = KeptBuffer<TapRow<float, float>, TapRows>();
    for (int64_t n = 0; n < os[0]; ++n)
      for (int64_t y = 0; y < os[1]; ++y) {
        float* sums = out + (n * os[1] + y) * row;
        DepthwiseRow(d, in, weights.data<float>(), n, y, sums, rows);
        epilogue.Apply(sums, os[2], os[3]);
        if (tail.floats) tail.floats->Apply(sums, (n * os[1] + y) * row, os[2], os[3]);
      }
    return OkStatus();
  }

  const int8_t* w = weights.data<int8_t>();
  const int64_t max_in = input.dtype() == DType::kI16  ? 32768
                         : input.dtype() == DType::kU8 ? 255
                                                       : 128;
  const int64_t largest_sum = max_in * LargestChannelWeight(d, w);
  if (largest_sum > std::numeric_limits<int32_t>::max()) return reference::EvalDepthwiseConv2D(ctx);
  OPUC_ASSIGN_OR_RETURN(IntegerEpilogue epilogue, IntegerEpilogue::Make(ctx, 3, os[3]));
  OPUC_ASSIGN_OR_RETURN(HostTensor * output, ctx.AllocateOutput());
  if (largest_sum <= int64_t{1} << 24) return IntegerAsFloat(input, w, d, epilogue, output, tail);
  std::vector<int32_t>& sums = KeptBuffer<int32_t, RowSums>();
  sums.resize(static_cast<size_t>(row));
  return reference::VisitFormat(input.dtype(), [&](auto tag) -> Status {
    const auto* in = input.data<decltype(tag)>();
    if (const auto* padded = PadWidth(in, d)) in = padded;  // integer sums: 0 · w is exact
    auto& rows = KeptBuffer<TapRow<decltype(tag), int8_t>, TapRows>();
    for (int64_t n = 0; n < os[0]; ++n)
      for (int64_t y = 0; y < os[1]; ++y) {
        DepthwiseRow(d, in, w, n, y, sums.data(), rows);
        OPUC_RETURN_IF_ERROR(epilogue.Apply(sums.data(), os[2], output, (n * os[1] + y) * row));
        if (tail.integers) tail.integers->Apply(*output, (n * os[1] + y) * row, row);
      }
    return OkStatus();
  });
}

}  // namespace opuc::cpu
