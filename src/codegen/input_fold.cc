//===- src/codegen/input_fold.cc - First-layer folding ----------------===//
#include "input_fold.h"

#include "transfers.h"

#include <algorithm>

namespace opuc::codegen {
namespace {

int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

bool Has(const std::vector<TensorId>& list, TensorId t) {
  return std::find(list.begin(), list.end(), t) != list.end();
}

/// Only the host writes `t`, and only one op of `group` reads it (the
/// conv, or the zero pad folded into its loads).
bool OnlyHostWritesForGroup(const Graph& graph, const HwPartition& partition, const HwGroup& group,
                            TensorId t) {
  for (const HwGroup& other : partition.groups)
    if (other.kind == GroupKind::kOpu && Has(other.outputs, t)) return false;
  const auto reads = [&](NodeId n) { return Has(graph.node(n).inputs, t); };
  return std::count_if(group.ops.begin(), group.ops.end(), reads) == 1;
}

}  // namespace

std::optional<InputFold> ChooseInputFold(const Graph& graph, const HwPartition& partition,
                                         const HwGroup& group, const InnerProductGroup& g,
                                         int64_t lanes) {
  if (g.op != OpKind::kConv2D || g.identity || g.depthwise || g.diagonal || !g.pieces.empty() ||
      g.dy != 1 || g.dx != 1 || g.gap_y != 1 || g.gap_x != 1)
    return std::nullopt;
  const int64_t taps = g.kh * g.kw;
  const int64_t folded_passes = (taps * g.in_c + lanes - 1) / lanes;
  if (g.in_c >= lanes || folded_passes >= taps) return std::nullopt;
  if (!OnlyHostWritesForGroup(graph, partition, group, g.input)) return std::nullopt;
  InputFold fold;
  fold.kernel_h = g.kh;
  fold.kernel_w = g.kw;
  fold.stride_h = g.sy;
  fold.stride_w = g.sx;
  fold.pad_top = g.pad_top;
  fold.pad_left = g.pad_left;
  fold.out_h = g.out_h;
  fold.out_w = g.out_w;
  fold.in_h = g.in_h;
  fold.in_w = g.in_w;
  fold.in_c = g.in_c;
  // A folded pad may put a window wholly in the padding: not a fold's.
  if (!CheckInputFold(fold).ok()) return std::nullopt;
  return fold;
}

bool PairsCutPasses(const InputFold& fold, const InnerProductGroup& g, int64_t lanes,
                    int64_t out_lanes, bool pointwise_pairs) {
  if (out_lanes % 2 != 0 || fold.out_w < 2 || !g.residuals.empty() || g.pool ||
      g.upsampled != kNoTensor || !g.store_output)
    return false;
  InputFold pairs = fold;
  pairs.pixels = 2;
  if (!CheckInputFold(pairs).ok()) return false;
  const int64_t half = out_lanes / 2;
  // Pointwise pairs read two pixels a pass (an even width: a tile of an odd
  // one cannot pair).
  const bool single_paired = pointwise_pairs && fold.out_w % 2 == 0;
  const int64_t single = CeilDiv(fold.folded_channels(), lanes) * CeilDiv(g.out_c, out_lanes) *
                         (single_paired ? fold.out_w / 2 : fold.out_w);
  const int64_t paired =
      CeilDiv(pairs.folded_channels(), lanes) * CeilDiv(g.out_c, half) * pairs.folded_w();
  return paired < single;
}

std::optional<InputFold> SharedFold(const HwPartition& partition, TensorId t,
                                    const std::map<int32_t, FoldCandidate>& candidates) {
  std::optional<InputFold> fold;
  bool pairs = true;
  for (const HwGroup& reader : partition.groups) {
    if (reader.kind != GroupKind::kOpu || !Has(reader.inputs, t)) continue;
    const auto it = candidates.find(reader.id);
    if (it == candidates.end() || it->second.input != t || !it->second.fold ||
        (fold && !(*it->second.fold == *fold)))
      return std::nullopt;
    fold = it->second.fold;
    pairs = pairs && it->second.pairs;
  }
  if (fold && pairs) fold->pixels = 2;
  return fold;
}

void FoldInnerProduct(const InputFold& fold, InnerProductGroup& g, int64_t out_lanes) {
  if (fold.pixels == 2) {
    const int64_t half = out_lanes / 2;
    g.pairs = InnerProductGroup::PixelPairs{g.kh, g.kw, g.in_c, g.out_c, g.sx, g.out_w, half};
    // Block k's rows: channels half·k on for the pair's first pixel, then
    // the same for its second; 0 past the channels.
    const int64_t blocks = CeilDiv(g.out_c, half);
    const auto spread = [&](auto& v) {
      auto one = v;
      v.assign(static_cast<size_t>(blocks * out_lanes), 0);
      for (int64_t o = 0; o < blocks * out_lanes; ++o) {
        const int64_t channel = half * (o / out_lanes) + o % half;
        if (channel < g.out_c) v[static_cast<size_t>(o)] = one[static_cast<size_t>(channel)];
      }
    };
    spread(g.bias);
    spread(g.shift);
    if (!g.alpha.empty()) spread(g.alpha);
    g.out_c = blocks * out_lanes;
    g.out_w = fold.folded_w();
  }
  g.in_h = fold.out_h;
  g.in_w = fold.folded_w();
  g.in_c = fold.folded_channels();
  g.kh = g.kw = g.sy = g.sx = 1;
  g.pad_top = g.pad_left = 0;
}

void StorePixelPairs(const InnerProductGroup& g, const ActivationLayout& output, int64_t acc_addr,
                     int64_t rows, int64_t cols, int64_t pitch, int64_t block, int64_t y0,
                     int64_t x0, CycleEstimate& estimate, std::vector<isa::Instruction>& store,
                     int64_t extra_blocks) {
  const InnerProductGroup::PixelPairs& p = *g.pairs;
  const int64_t c0 = p.half * block, last = c0 + extra_blocks * p.half;
  const int64_t pixels = std::min(2 * cols, p.out_w - 2 * x0);  // the last pair may be one
  TileRect rect{acc_addr, rows, pixels, pitch};
  rect.extra_blocks = extra_blocks;
  rect.block_lanes = p.half;
  StoreTile(output, rect, c0, std::min(p.half, p.out_c - last), y0, 2 * x0, estimate, store,
            StoreShape::kPairs);
}

}  // namespace opuc::codegen
