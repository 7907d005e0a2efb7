//===- src/codegen/doubled_maps.cc - Two pixels an entry for depthwise ----===//
#include "doubled_maps.h"

#include <functional>

#include "depthwise_window.h"

namespace opuc::codegen {
namespace {

bool Is8Bit(DType t) { return t == DType::kI8 || t == DType::kU8; }

/// Row o of `v`'s Co rows takes channel o mod Co/2.
template <typename T>
void Repeat(std::vector<T>& v, int64_t half) {
  if (v.empty()) return;
  v.resize(static_cast<size_t>(half));
  const std::vector<T> once = v;
  v.insert(v.end(), once.begin(), once.end());
}

void UseWeights(InnerProductGroup& g, std::vector<int8_t> weights, Shape shape) {
  auto copy = std::make_shared<const std::vector<int8_t>>(std::move(weights));
  g.weights = copy->data();
  g.weight_shape = std::move(shape);
  g.weight_copy = std::move(copy);
}

}  // namespace

bool PairsDepthwise(const InnerProductGroup& g, const OpuBufferUnits& u) {
  return g.op == OpKind::kDepthwiseConv2D && g.depthwise && !g.identity && !g.diagonal &&
         g.multiplier == 1 && g.in_c == g.out_c && 2 * g.out_c == u.out_lanes && g.sy == 1 &&
         g.sx == 1 && g.dy == 1 && g.dx == 1 && g.kw % 2 == 1 && g.kw + 3 <= kTapRow &&
         g.pieces.empty() && !g.packed && !g.pairs && g.Phases() == 1 && g.residuals.empty() &&
         !g.pool && g.upsampled == kNoTensor && g.store_output && Is8Bit(g.in_format) &&
         Is8Bit(g.out_format) && u.line_buffers > 0 && u.line_columns > 1;
}

bool CanDoubleOutput(const InnerProductGroup& g, const OpuBufferUnits& u) {
  if (g.op != OpKind::kConv2D || g.depthwise || g.identity || g.diagonal || !g.pieces.empty() ||
      g.packed || g.pairs || 2 * g.out_c != u.out_lanes || !Is8Bit(g.out_format) || g.pool ||
      g.upsampled != kNoTensor || !g.store_output)
    return false;
  for (const ResidualStep& r : g.residuals)
    if (r.constant.empty() && (!Is8Bit(r.format) || r.channels != g.out_c)) return false;
  return true;
}

std::set<TensorId> ChooseDoubledMaps(const std::vector<const InnerProductGroup*>& groups,
                                     const std::set<int32_t>& folded, const OpuBufferUnits& u) {
  std::map<TensorId, const InnerProductGroup*> writer;
  for (const InnerProductGroup* g : groups)
    if (g->store_output) writer[g->output] = g;
  // A map the host writes can be doubled; one a group writes, when that
  // group can write it so and its residuals can be doubled too.
  std::function<bool(TensorId, std::set<TensorId>&)> doubles = [&](TensorId t,
                                                                   std::set<TensorId>& with) {
    const auto it = writer.find(t);
    if (it != writer.end()) {
      const InnerProductGroup& g = *it->second;
      if (folded.count(g.group) > 0 || !CanDoubleOutput(g, u)) return false;
      for (const ResidualStep& r : g.residuals)
        if (r.constant.empty() && !doubles(r.tensor, with)) return false;
    }
    with.insert(t);
    return true;
  };
  std::set<TensorId> doubled;
  for (const InnerProductGroup* g : groups) {
    std::set<TensorId> with;
    if (PairsDepthwise(*g, u) && doubles(g->input, with)) doubled.insert(with.begin(), with.end());
  }
  return doubled;
}

void DoubleOutput(InnerProductGroup& g, const OpuBufferUnits& u) {
  const int64_t half = u.out_lanes / 2;
  // [O, kh, kw, I]: rows half on repeat rows 0 to half − 1.
  const int64_t row = g.weight_shape[1] * g.weight_shape[2] * g.weight_shape[3];
  const std::vector<int8_t> once(g.weights, g.weights + half * row);
  std::vector<int8_t> w = once;
  w.insert(w.end(), once.begin(), once.end());
  Shape shape = g.weight_shape;
  shape[0] = 2 * half;
  UseWeights(g, std::move(w), std::move(shape));
  Repeat(g.bias, half);
  Repeat(g.shift, half);
  Repeat(g.alpha, half);
  for (ResidualStep& r : g.residuals) {
    Repeat(r.constant, half);
    if (r.constant.empty()) r.channels = 2 * half;  // the residual's copies too
  }
  g.out_c = 2 * half;
}

void PairDepthwise(InnerProductGroup& g, const OpuBufferUnits& u) {
  const int64_t half = u.out_lanes / 2, kw = g.kw + 2;
  // [1, kh, kw + 2, Co]: row o makes pixel o / half of the pair, channel
  // o mod half, its tap kx at column kx + 1 + pixel of the wider window.
  std::vector<int8_t> w(static_cast<size_t>(g.kh * kw * 2 * half), 0);
  for (int64_t ky = 0; ky < g.kh; ++ky)
    for (int64_t x = 0; x < kw; ++x)
      for (int64_t o = 0; o < 2 * half; ++o) {
        const int64_t kx = x - 1 - o / half;
        if (kx >= 0 && kx < g.kw)
          w[static_cast<size_t>((ky * kw + x) * 2 * half + o)] =
              g.weights[(ky * g.kw + kx) * g.out_c + o % half];
      }
  UseWeights(g, std::move(w), {1, g.kh, kw, 2 * half});
  g.pairs = InnerProductGroup::PixelPairs{g.kh, g.kw, g.in_c, g.out_c, g.sx, g.out_w, half};
  Repeat(g.bias, half);
  Repeat(g.shift, half);
  Repeat(g.alpha, half);
  g.kw = kw;
  g.pad_left += 1;
  g.sx = 2;
  g.out_w = (g.out_w + 1) / 2;
  g.in_c = g.out_c = 2 * half;
}

}  // namespace opuc::codegen
