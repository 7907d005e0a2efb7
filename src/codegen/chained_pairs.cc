//===- src/codegen/chained_pairs.cc - Depthwise output kept on chip --===//
#include "chained_pairs.h"

#include <algorithm>

#include "support/format.h"
#include "tiling_search.h"

namespace opuc::codegen {
namespace {

int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

bool IsByteFormat(DType format) { return format == DType::kI8 || format == DType::kU8; }

}  // namespace

int64_t ChainRows(const InnerProductGroup& first, int64_t lanes) {
  return first.out_h * first.out_w * CeilDiv(first.out_c, lanes);
}

// An identity pass (no inner product: elementwise ops alone) is not a
// first group: chained, its ops would join the 1x1's layer as ops before
// it, and the layers the physical limit counts would move with the
// chaining (decisions-codegen.md, "Layers, not steps, are the unit of the
// physical limit").
bool MayChain(const InnerProductGroup& first, const InnerProductGroup& second) {
  return first.depthwise && !first.identity && second.group == first.group + 1 &&
         (second.input == first.output ||
          std::any_of(second.pieces.begin(), second.pieces.end(),
                      [&](const InputPiece& p) { return p.tensor == first.output; }));
}

std::string ChainRefusal(const Graph& graph, const HwPartition& partition,
                         const InnerProductGroup& first, const InnerProductGroup& second,
                         const OpuBufferUnits& units, const PlanOptions& options) {
  if (first.diagonal) return "the depthwise product runs as a dense one";
  if (!first.store_output || first.pool || first.upsampled != kNoTensor || first.packed ||
      first.pairs || first.Phases() > 1)
    return "the depthwise group stores more than its output, or packed";
  if (!IsByteFormat(first.out_format)) return "the depthwise output is not i8 or u8";
  if (std::count(graph.outputs.begin(), graph.outputs.end(), first.output) > 0)
    return "the depthwise output is a graph output";
  const HwGroup& producer = partition.groups[static_cast<size_t>(first.group)];
  if (producer.outputs.size() != 1 || producer.outputs[0] != first.output)
    return "the depthwise group has other outputs";
  for (const HwGroup& g : partition.groups)
    if (g.id != second.group && std::count(g.inputs.begin(), g.inputs.end(), first.output) > 0)
      return Cat("group ", g.id, " reads the depthwise output too");
  if (second.depthwise || second.kh != 1 || second.kw != 1 || second.sy != 1 || second.sx != 1 ||
      second.pad_top != 0 || second.pad_left != 0 || second.gap_y != 1 || second.gap_x != 1)
    return "the second is not a 1x1 conv of stride 1";
  if (second.input != first.output || !second.pieces.empty() || second.in_h != first.out_h ||
      second.in_w != first.out_w || second.in_c != first.out_c)
    return "the 1x1 reads more than the depthwise output";
  if (second.packed || second.pairs || second.Phases() > 1 || second.i16_whole ||
      !IsByteFormat(second.in_format))
    return "the 1x1 reads its input packed, folded or as i16";
  if (ChainRows(first, units.lanes) * 2 > units.fm_rows)
    return Cat("the depthwise output takes ", ChainRows(first, units.lanes),
               " feature-map rows, more than half the buffer's ", units.fm_rows);
  OpuBufferUnits below = units;
  below.fm_rows -= ChainRows(first, units.lanes);
  Expected<Tiling> fewest = ChooseTiling(first, below);
  if (!fewest.ok()) return "no depthwise tile fits beside the map";
  const std::vector<Tiling> tilings = CandidateTilings(first, *fewest, below, options);
  if (std::none_of(tilings.begin(), tilings.end(),
                   [&](const Tiling& t) { return ChainTilingRefusal(first, t, units).empty(); }))
    return "no depthwise tiling stores a pixel's channels in one Store";
  return {};
}

std::string ChainTilingRefusal(const InnerProductGroup& first, const Tiling& tiling,
                               const OpuBufferUnits& units) {
  const int64_t blocks = CeilDiv(first.out_c, units.out_lanes);
  if (blocks > 1 && tiling.store_blocks != std::min(blocks, units.lanes / units.out_lanes))
    return "its tiling does not store a pixel's channels in one Store";
  return {};
}

ActivationLayout ChainLayout(const Graph& graph, const InnerProductGroup& first, int64_t row,
                             int64_t lanes) {
  ActivationLayout layout;
  layout.tensor = first.output;
  layout.address = row * lanes;
  layout.height = first.out_h;
  layout.width = first.out_w;
  layout.channels = first.out_c;
  layout.lanes = lanes;
  layout.format = graph.tensor(first.output).dtype;
  return layout;
}

}  // namespace opuc::codegen
