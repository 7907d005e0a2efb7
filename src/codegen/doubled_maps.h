//===- src/codegen/doubled_maps.h - Two pixels an entry for depthwise -*- C++ -*-===//
//
// A depthwise product over a map of Co/2 channels (pose landmarks' 256x256
// maps of 8) fills half the array's rows: one output pixel an entry, a
// cycle each through the window, the post side and the store. Where the
// map is doubled (ActivationLayout::doubled: each pixel's channels again in
// its compact granule's upper half), row j of the depthwise window reads
// lane j, the channel j mod Co/2, so rows Co/2 on can make the next output
// pixel with the same channels: the product runs as one of Co channels,
// kernel kw + 2 wide at stride 2 over the same rows, row j's taps shifted
// by 1 + j / (Co/2) columns, its entries two pixels (a Store with `pair`).
// At stride 2 with an odd window the window reads a pair of input pixels a
// cycle (opu_gemm.sv), so the array, the post side and the store each take
// half the cycles. No instruction changes.
//
// Who writes a doubled map writes both copies: the host (WriteActivation),
// or an OPU group whose rows Co/2 on repeat its rows' channels (weights,
// constants, and a doubled residual). Every other reader ignores the
// copies (zero weights past a map's channels, and the stores write only
// its channels). docs/codegen.md, "Doubled maps".
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_CODEGEN_DOUBLED_MAPS_H
#define OPUC_SRC_CODEGEN_DOUBLED_MAPS_H

#include <cstdint>
#include <map>
#include <set>
#include <vector>

#include "inner_product_group.h"
#include "opuc/opu/buffer_units.h"

namespace opuc::codegen {

/// Whether depthwise group `g` may run as pairs of output pixels over a
/// doubled input on hardware of units `u`: one channel a row (multiplier
/// 1), Co/2 channels, stride 1, undilated, an odd kernel width of at most
/// kTapRow − 3 (the wider window and the pair's extra column fit a kernel
/// row's lanes: 5 on opu1024), 8-bit maps, the output stored as it is (no residual, pool
/// or upsample), and a window with line buffers.
bool PairsDepthwise(const InnerProductGroup& g, const OpuBufferUnits& u);

/// Whether group `g` can write its output doubled, given doubled
/// residuals: a dense conv2d to Co/2 channels of an 8-bit map, stored as it
/// is, not folded.
bool CanDoubleOutput(const InnerProductGroup& g, const OpuBufferUnits& u);

/// The tensors to lay out doubled: the inputs of the depthwise groups
/// PairsDepthwise takes whose writers can write them so, with the
/// residuals those writers need doubled too. `groups` are the OPU groups
/// (before any rewrite), `folded` those whose input is folded.
std::set<TensorId> ChooseDoubledMaps(const std::vector<const InnerProductGroup*>& groups,
                                     const std::set<int32_t>& folded, const OpuBufferUnits& u);

/// Makes `g`'s rows Co/2 on repeat rows 0 to Co/2 − 1 (its output doubled):
/// Co output channels whose weights, biases, shifts, slopes and constants
/// repeat, each doubled residual read whole.
void DoubleOutput(InnerProductGroup& g, const OpuBufferUnits& u);

/// Makes depthwise group `g` (PairsDepthwise) over its doubled input the
/// product of Co channels, kernel kw + 2 at stride 2, whose entries hold
/// output pixels 2x and 2x + 1 (InnerProductGroup::pairs).
void PairDepthwise(InnerProductGroup& g, const OpuBufferUnits& u);

}  // namespace opuc::codegen

#endif  // OPUC_SRC_CODEGEN_DOUBLED_MAPS_H
