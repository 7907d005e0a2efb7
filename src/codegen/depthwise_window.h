//===- src/codegen/depthwise_window.h - Depthwise on the array -*- C++ -*-===//
//
// Which mapping a depthwise product runs on (docs/codegen.md, "Depthwise
// on the array"). The diagonal mapping puts one channel on one lane of
// each of the Co dot products: a tap per Gemm, Co of the L x Co
// multipliers busy. Where the HwConfig's array has a depthwise mode
// (ipa.depthwise_window), the taps become the reduction axis instead: row
// j of the array sums a window of its channel's taps (tap (ky, kx) on lane
// 8 ky + kx), so one Gemm takes up to ipa.depthwise_window kernel rows.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_CODEGEN_DEPTHWISE_WINDOW_H
#define OPUC_SRC_CODEGEN_DEPTHWISE_WINDOW_H

#include <cstdint>
#include <vector>

#include "inner_product_group.h"
#include "opuc/isa/isa.h"
#include "opuc/opu/buffer_units.h"
#include "opuc/opu/hw_config.h"
#include "tiling.h"

namespace opuc::codegen {

/// Lanes from one kernel row of a depthwise window to the next (Gemm.depthwise).
constexpr int64_t kTapRow = 8;

/// The kernel rows one depthwise Gemm of `g` takes on `hw` (sets
/// `g.window_rows`): 0 for the diagonal mapping, which a product keeps
/// when the array has no depthwise mode, it is not depthwise (or only the
/// identity pass, or one tap), dilated, strided further than its kernel is
/// wide, of a depth multiplier other than 1 or 2, or its kernel's row does
/// not fit the lanes or Gemm's fields.
void ChooseDepthwiseWindow(InnerProductGroup& g, const HwConfig& hw, const OpuBufferUnits& u);

/// The kernel rows of `kw` taps a Gemm of the depthwise mode may take on
/// `hw`: the HwConfig's, as many as the lanes hold (kTapRow apart), 8 at most.
int64_t DepthwiseWindowRows(const HwConfig& hw, int64_t lanes, int64_t kw);

/// Whether `g`'s depthwise Gemms can take output pixels in pairs on `u`
/// (Gemm.init PairsFromBias; sets nothing): the window mapping in one Gemm
/// a tile and block, the kernel's rows in half the lanes and one column
/// more than its width in the window, stride 1, bytes (an i16 in one
/// plane pass neither), line buffers and the feature-map buffer's pairs.
bool UsesWindowPairs(const InnerProductGroup& g, const OpuBufferUnits& u);

/// Whether `g`'s stride-2 depthwise Gemms can take two channel blocks each
/// on `u` (block pairs: Gemm.init PairsFromBias at stride_x 2; sets
/// nothing): the window mapping in one Gemm a tile, the kernel's rows in
/// half the lanes and in half the window's rows and line buffers, an odd
/// width (a pair of pixels a read), one row a channel, bytes, line buffers
/// and the feature-map buffer's pairs, more than one output block, and
/// every block's param row and a bias-pair row for each pair of blocks in
/// the param buffer at once (the pairs' rows stay resident).
bool UsesBlockPairs(const InnerProductGroup& g, const OpuBufferUnits& u);
/// The param rows a group of `out_blocks` output blocks keeps resident:
/// a block's, then with block pairs a bias-pair row for each pair.
int64_t ResidentParamRows(const InnerProductGroup& g, int64_t out_blocks);

/// Lanes from one kernel row to the next in packed pairs (WindowTapRow).
constexpr int64_t kPackedTapRow = 6;

/// Whether `g`'s window pairs take its kernel rows 6 lanes apart (a 5x5
/// kernel, whose 5 rows of 8 lanes overrun half of `u`'s lanes: packed
/// rows, docs/isa.md).
bool PacksWindowRows(const InnerProductGroup& g, const OpuBufferUnits& u);

/// Lanes from one kernel row of `g`'s weight rows to the next: 6 in packed
/// pairs, else kTapRow.
int64_t WindowTapRowOf(const InnerProductGroup& g, const OpuBufferUnits& u);

/// Whether every Gemm of packed pairs under tiling `t` takes its pixels in
/// pairs (an even tile width whose rows fit the line buffers): a Gemm that
/// cannot would read the packed weight rows 8 lanes a row. True for every
/// other group.
bool WindowPairsFit(const InnerProductGroup& g, const Tiling& t, const OpuBufferUnits& u);

/// Whether `g` may compute its tiles' columns in even counts
/// (InnerProductGroup::even_columns): window pairs, its output stored as it
/// is (no pool, upsample, phases or packing) and no residual tiles, whose
/// loads and rows count a tile's columns as they are.
bool EvenColumnsFit(const InnerProductGroup& g);

/// `spans` with each odd one a column longer (its `kept` columns as they
/// were): EvenColumns tilings' columns.
std::vector<Span> EvenSpans(std::vector<Span> spans);

/// The Gemms a depthwise window mapping runs per tile, output block and
/// plane: one per `g.window_rows` kernel rows.
inline int64_t WindowGemms(const InnerProductGroup& g) {
  return (g.kh + g.window_rows - 1) / g.window_rows;
}

}  // namespace opuc::codegen

#endif  // OPUC_SRC_CODEGEN_DEPTHWISE_WINDOW_H
