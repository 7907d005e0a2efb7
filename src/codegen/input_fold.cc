//===- src/codegen/input_fold.cc - First-layer folding ----------------===//
#include "input_fold.h"

#include <algorithm>

namespace opuc::codegen {
namespace {

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

bool EveryReaderFolds(const HwPartition& partition, TensorId t, const InputFold& fold,
                      const std::map<int32_t, FoldCandidate>& candidates) {
  for (const HwGroup& reader : partition.groups) {
    if (reader.kind != GroupKind::kOpu || !Has(reader.inputs, t)) continue;
    const auto it = candidates.find(reader.id);
    if (it == candidates.end() || it->second.input != t || !it->second.fold ||
        !(*it->second.fold == fold))
      return false;
  }
  return true;
}

void FoldInnerProduct(const InputFold& fold, InnerProductGroup& g) {
  g.in_h = fold.out_h;
  g.in_w = fold.out_w;
  g.in_c = fold.folded_channels();
  g.kh = g.kw = g.sy = g.sx = 1;
  g.pad_top = g.pad_left = 0;
}

}  // namespace opuc::codegen
