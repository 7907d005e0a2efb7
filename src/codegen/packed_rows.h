//===- src/codegen/packed_rows.h - A one-channel head, rows packed -*- C++ -*-===//
//
// A convolution to one output channel over a map of few channels (a
// segmentation head: pose landmarks' 3x3 from 8 channels to the 256x256
// mask) keeps one of the array's Co rows busy and one pixel's channels in
// its L lanes. Packed, it runs over the rows' pixels instead: the input's
// compact pixels (one granule of Co bytes each) read as pixels of L lanes
// holding L / Co of them, and an output pixel of Co channels holding Co
// output pixels of a row, stored as the map's bytes (PackLayout, a byte a
// pixel). The convolution becomes one of stride Co / (L / Co) (packed
// input pixels an output pixel) whose weights place each original tap on
// the lanes and rows where its input and output pixels meet
// (docs/codegen.md, "Packed rows").
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_CODEGEN_PACKED_ROWS_H
#define OPUC_SRC_CODEGEN_PACKED_ROWS_H

#include <cstdint>
#include <vector>

#include "estimate.h"
#include "inner_product_group.h"
#include "opuc/isa/isa.h"
#include "opuc/opu/buffer_units.h"
#include "opuc/program/activation_layout.h"

namespace opuc::codegen {

/// Rewrites `g` with packed rows where it may: a conv2d of stride 1 and no
/// dilation to one i8/u8 output channel of the input's width (a multiple
/// of Co), from at most Co i8/u8 channels laid out compact (`compact`),
/// with no residual, pool or upsample after it. Its output must then be
/// laid out with PackLayout(Co), and its input read through PackedInput.
/// Whether it did.
bool UsePackedRows(InnerProductGroup& g, const OpuBufferUnits& u, bool compact);

/// The maps of at least this many pixels UsePackedPixels packs.
inline constexpr int64_t kPackedPixelsLeast = 1024;

/// Rewrites `g` with packed pixels where it may and the loads would outrun
/// the array: a conv2d of stride 1 and no dilation, or an identity pass,
/// from at most Co i8/u8 channels to at most Co, of the input's width (a multiple of L / Co),
/// with residuals of at most Co i8/u8 channels, no pool or upsample, whose
/// input and residual tensors (a unit a pixel each) are at least its taps.
/// Its input and residuals are then read L / Co pixels a unit (PackedInput),
/// and output block k holds pixel k of each packed pixel: its weights, per-
/// channel constants and stores follow. The layouts do not change.
bool UsePackedPixels(InnerProductGroup& g, const OpuBufferUnits& u, bool compact);

/// The input of a packed group as its loads read it: `input`'s bytes as a
/// map of L-byte pixels, L / Co of its pixels each.
ActivationLayout PackedInput(const ActivationLayout& input, const OpuBufferUnits& u);

/// The Store of output block `block` (pixel `block` of each packed pixel)
/// of a tile of packed pixels from (y0, x0), `rows` x `cols` of them from
/// accumulator entry `acc_addr` (pitch `pitch`), into the output's own
/// layout: its pixels L bytes apart, a packed pixel's worth. With
/// `extra_blocks`, the blocks after it too, each from its own entries
/// (Store.extra_blocks), so a packed pixel's pixels go out in one beat:
/// each compact pixel is Co bytes (StoreBlocks), and the blocks before the
/// last write all Co lanes, the lanes past the map's channels 0.
void StorePackedPixels(const InnerProductGroup& g, const ActivationLayout& output, int64_t acc_addr,
                       int64_t rows, int64_t cols, int64_t pitch, int64_t block, int64_t y0,
                       int64_t x0, CycleEstimate& estimate, std::vector<isa::Instruction>& store,
                       int64_t extra_blocks = 0);

}  // namespace opuc::codegen

#endif  // OPUC_SRC_CODEGEN_PACKED_ROWS_H
