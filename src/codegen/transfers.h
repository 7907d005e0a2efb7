//===- src/codegen/transfers.h - A tile's loads and stores -----*- C++ -*-===//
//
// The Load and Store instructions that move a tile between DRAM and the
// chip: which input pixels a window's load reads (the rest is the zero
// frame, and for a transposed convolution the zeros between), the rows a
// whole group keeps on chip, and a tile's stores, plane by plane.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_CODEGEN_TRANSFERS_H
#define OPUC_SRC_CODEGEN_TRANSFERS_H

#include <cstdint>
#include <vector>

#include "estimate.h"
#include "opuc/codegen/codegen.h"
#include "opuc/isa/isa.h"

namespace opuc::codegen {

/// Along one axis, what a load of the window [first, first + n) reads: the
/// input's pixels sit `gap` apart over [0, extent) of the window's space
/// (1 but for a transposed convolution's zero-inserted input); the rest of
/// the window is zero.
struct AxisLoad {
  int64_t pixel = 0, pixels = 0;  ///< The input pixels read.
  int64_t pad_before = 0, pad_after = 0;
};
AxisLoad LoadAlong(int64_t first, int64_t n, int64_t extent, int64_t gap);

/// The DRAM bytes a feature-map load `fm` reads on the RTL: a compact
/// pixel's rows as the whole beats of L bytes that hold them.
int64_t ReadBytes(const isa::LoadInsn& fm, int64_t L, int64_t Co);
/// The writes of a compact feature-map load's pixels: one a pixel, or with
/// `pairs` (FeatureMapPairs) and no zeros between them one a pair of a row.
int64_t PixelWrites(const isa::LoadInsn& fm, bool pairs);
/// The cycles a compact feature-map load of `beats` beats (ReadBytes / L)
/// takes from its first request to its last pixel: its PixelWrites a
/// cycle each, the requests paced to that (`granules` of a beat's L / Co a
/// cycle, twice that for pairs, so a row's partly used beats cost more); 0
/// for a load of L-byte pixels.
int64_t Written(const isa::LoadInsn& fm, int64_t beats, int64_t L, int64_t Co, bool pairs);
/// A feature-map load `fm` into the estimate: its bytes read, the `units`
/// it writes when they may bound it (a zero-inserted window; else 0), its
/// pixels' pace and its frame, which the load engine's writers fill a unit
/// a cycle after the load before.
void EstimateLoad(const isa::LoadInsn& fm, int64_t L, int64_t Co, int64_t units,
                  CycleEstimate& estimate);

/// `rows` feature-map rows of L bytes from DRAM `dram` to row `sram_row`,
/// kept for the whole group (a table, per-channel constants).
isa::LoadInsn WholeRowsLoad(int64_t sram_row, int64_t dram, int64_t rows, int64_t L,
                            CycleEstimate& estimate);

/// Pixels in the accumulator, row by row from `acc_addr`, `pitch` entries
/// apart (`cols` when 0).
/// The DRAM writes of `s` on the RTL (opu_store.sv), its pixels
/// `pixel_bytes` apart: one per run of consecutive pixels inside one beat
/// of L bytes, a compact map's pixels sharing it.
int64_t StoreWrites(const isa::StoreInsn& s, int64_t pixel_bytes, int64_t L);

struct TileRect {
  int64_t acc_addr, rows, cols, pitch = 0;
  /// Blocks of `block_lanes` (Co) lanes each pixel stores before its last
  /// one's `lanes` (Store.extra_blocks), from their own entries
  /// (OpuBufferUnits::StoreBlockEntry).
  int64_t extra_blocks = 0, block_lanes = 0;
};

/// How a Store lays a tile's entries out: a pixel each, each as a 2x2
/// block of the doubled map (upsample), or two pixels each (pixel pairs:
/// `tile.cols` then counts pixels, `tile.pitch` entries), or a pixel each
/// into the feature-map buffer (Store.to_fm: the layout's address and
/// strides count its bytes; a chained pair's first group, emit.h).
enum class StoreShape : uint8_t { kPixels, kUpsample, kPairs, kToFeatureMap };

/// Stores lanes [c0, c0 + lanes) of `tile` to `layout` at pixel (y0, x0),
/// one Store per byte plane; with kUpsample, each pixel as a 2x2 block of
/// `layout`, the doubled map, from pixel (2 y0, 2 x0).
void StoreTile(const ActivationLayout& layout, const TileRect& tile, int64_t c0, int64_t lanes,
               int64_t y0, int64_t x0, CycleEstimate& estimate,
               std::vector<isa::Instruction>& store, StoreShape shape = StoreShape::kPixels);

}  // namespace opuc::codegen

#endif  // OPUC_SRC_CODEGEN_TRANSFERS_H
