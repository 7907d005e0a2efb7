//===- opuc/opu/buffer_units.h - The OPU's buffers in their units -*- C++ -*-===//
//
// Buffer geometry is a fact of the HwConfig, not of one executor: codegen
// tiles into it, the program's checks bound every access by it, and the
// functional simulator and the RTL size their buffers from it. What one
// Load or Store covers, in those units, is here too.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_OPU_BUFFER_UNITS_H
#define OPUC_OPU_BUFFER_UNITS_H

#include <algorithm>
#include <cstdint>

#include "opuc/isa/isa.h"
#include "opuc/opu/hw_config.h"

namespace opuc {

/// The on-chip buffers of `hw` in their units (docs/isa.md): feature-map
/// rows of L bytes, weight rows of Co x L bytes, param rows of Co x 8
/// bytes, accumulator entries of Co 48-bit lanes; both banks together.
struct OpuBufferUnits {
  int64_t lanes = 0;      ///< L: array.input_channels.
  int64_t out_lanes = 0;  ///< Co: array.output_channels.
  int64_t fm_rows = 0;
  int64_t weight_rows = 0;
  int64_t param_rows = 0;
  int64_t acc_entries = 0;
  /// The depthwise window's line buffers (ipa.depthwise_line; hw/rtl's
  /// LINE_BUFS and LINE_COLS): the kernel rows above the one a Gemm reads,
  /// `line_columns` columns of Co bytes each; none without.
  int64_t line_buffers = 0;
  int64_t line_columns = 0;
  /// Whether the feature-map buffer keeps even and odd rows in two banks
  /// (FeatureMapPairs): a read then returns the row after too.
  bool fm_pairs = false;
  /// Columns from one Gemm.line_slot to the next: an eighth of the line
  /// buffers, even (the buffers keep even and odd columns in two banks).
  int64_t LineSlotColumns() const { return line_columns / 16 * 2; }
  /// The window's rows from a pair's first pixel's (or a block pair's
  /// first block's) to its second's: half the window's rows, which are
  /// one more than the line buffers (hw/rtl's WIN_ROWS / 2).
  int64_t WindowHalfRows() const { return (line_buffers + 1) / 2; }

  /// The accumulator's three banks in the RTL (docs/rtl.md), each one block
  /// RAM a side may hold alone: [0, AccBank1()) and [AccBank1(),
  /// AccSumsBank()) for codegen's two halves, and a small last bank from
  /// AccSumsBank() for a global pool's sums, which stay for a whole group.
  int64_t AccBank1() const { return acc_entries / 2; }
  int64_t AccSumsBank() const { return acc_entries - std::min<int64_t>(128, acc_entries / 8); }

  /// DRAM bytes of one unit `load` reads: L into the feature map (a
  /// compact pixel's `granules` x Co), Co x L into the weights (L with
  /// `diagonal`), Co x 8 into the params.
  int64_t LoadUnitBytes(const isa::LoadInsn& load) const {
    if (load.buffer == isa::LoadInsn::kWeights) return load.diagonal ? lanes : lanes * out_lanes;
    if (load.buffer != isa::LoadInsn::kFeatureMap) return out_lanes * 8;
    return load.granules > 0 ? load.granules * out_lanes : lanes;
  }
  /// DRAM bytes from one pixel a Store writes to the next: L, or a compact
  /// map's `granules` x Co.
  int64_t StorePixelBytes(const isa::StoreInsn& store) const {
    return store.granules > 0 ? store.granules * out_lanes : lanes;
  }
  /// The lanes of each block of a Store's pixel before its last
  /// (`extra_blocks`): Co, or with `pair` (an entry two pixels) Co/2.
  int64_t StoreBlockLanes(const isa::StoreInsn& store) const {
    return store.pair ? out_lanes / 2 : out_lanes;
  }
  /// The consecutive bytes of a pixel a Store writes: StoreBlockLanes for
  /// each block before the last (`extra_blocks`), then `lanes`.
  int64_t StorePixelLanes(const isa::StoreInsn& store) const {
    return store.extra_blocks * StoreBlockLanes(store) + store.lanes;
  }
  /// The accumulator entry of block `k` of the Store pixel whose block 0
  /// is `entry`: the odd blocks in the other bank (AccBank1() on from bank
  /// 0, back from bank 1), so that the array fills one block while the post
  /// side finishes the one before (the RTL's bank rule), the blocks after
  /// the second half a bank further on.
  int64_t StoreBlockEntry(int64_t entry, int64_t k) const {
    const int64_t other = entry < AccBank1() ? AccBank1() : -AccBank1();
    return entry + (k % 2) * other + (k / 2) * AccHalfBank();
  }
  /// How far a store group's blocks 2 and 3 lie from blocks 0 and 1: half
  /// a bank, rounded down to a multiple of 4 as the regions are, so that
  /// they start on even entries too (the array's pairs of output pixels
  /// and the post side's dual passes need one).
  int64_t AccHalfBank() const { return HalfBank(AccBank1()); }
  static int64_t HalfBank(int64_t bank1) {
    const int64_t half = bank1 / 2;
    return half >= 4 ? half - half % 4 : half;
  }
};
OpuBufferUnits BufferUnits(const HwConfig& hw);

/// The region a Load writes from `sram_addr`: its rows and its units per
/// row (the pitch), the zeros between (`zeros_y`, `zeros_x`) and the frame
/// included.
inline int64_t LoadedRows(const isa::LoadInsn& l) {
  return l.pad_top + (l.rows == 0 ? 0 : (l.rows - 1) * (l.zeros_y + 1) + 1) + l.pad_bottom;
}
inline int64_t LoadedPitch(const isa::LoadInsn& l) {
  return l.pad_left + (l.cols == 0 ? 0 : (l.cols - 1) * (l.zeros_x + 1) + 1) + l.pad_right;
}
inline int64_t LoadedUnits(const isa::LoadInsn& l) { return LoadedRows(l) * LoadedPitch(l); }
/// The buffer rows from `sram_addr` the region spans: an interleaved load's
/// units are two rows apart.
inline int64_t LoadedSpan(const isa::LoadInsn& l) {
  const int64_t units = LoadedUnits(l);
  return l.interleave && units > 0 ? 2 * units - 1 : units;
}

/// Pixels each input row of a depthwise Gemm spans: its window's width and
/// the columns between its first and last output pixel.
inline int64_t WindowRowPixels(const isa::GemmInsn& g) {
  return g.window_w + 1 + (g.out_cols - 1) * g.stride_x;
}
/// Feature-map rows a pixel of a Gemm's input takes: 2 for an i16 read
/// whole (operand I16: its high row, then its low), else 1.
inline int64_t PixelRows(const isa::GemmInsn& g) {
  return g.operand == isa::GemmInsn::kI16 ? 2 : 1;
}
/// Whether a depthwise Gemm reads its rows through the window's line
/// buffers (opu_gemm.sv's `line`): rows of 2 to line_columns pixels (half
/// as many for an i16 read whole, whose pixel takes an address of both
/// banks), stride_x 1 or 2, and every input row in a window.
inline bool GemmUsesLines(const isa::GemmInsn& g, int64_t line_columns) {
  const int64_t row = WindowRowPixels(g);
  return g.depthwise && line_columns > 1 && row >= 2 && row * PixelRows(g) <= line_columns &&
         (g.stride_x == 1 || g.stride_x == 2) && g.stride_y >= 1 && g.stride_y <= g.window_h + 1;
}
/// Whether such a Gemm takes a pair of pixels a cycle (stride_x 2, an odd
/// window width, bytes): the pair's second is read, and kept, one column
/// past the row's last.
inline bool GemmReadsPairs(const isa::GemmInsn& g) {
  return g.stride_x == 2 && g.window_w % 2 == 0 && PixelRows(g) == 1;
}
/// The line buffers' columns a depthwise Gemm with line buffers keeps (in
/// units of a bank's half-address: a byte column; an i16's pixel takes two,
/// its high bytes and its low): its row's, and a pair's second.
inline int64_t GemmLineColumns(const isa::GemmInsn& g) {
  return WindowRowPixels(g) * PixelRows(g) + (GemmReadsPairs(g) ? 1 : 0);
}
/// The pooled entries a 2x2 max pool that ends a post pass keeps
/// (hw/rtl/opu_pool_tail.sv, POOL_TAIL_ENTRIES).
inline constexpr int64_t kPoolTailEntries = 512;
/// Whether a Pool of 2x2 max windows at stride 2 over whole windows (even
/// rows and columns, no padding, none gathered over tiles) can be a post
/// pass's tail, with at most kPoolTailEntries pooled entries.
inline bool PoolTakesHalves(const isa::PoolInsn& p) {
  return !p.sum && !p.accumulate && p.size_y == 2 && p.size_x == 2 && p.stride_y == 2 &&
         p.stride_x == 2 && p.pad_y == 0 && p.pad_x == 0 && p.src_rows % 2 == 0 &&
         p.src_cols % 2 == 0 && p.out_rows == p.src_rows / 2 && p.out_cols == p.src_cols / 2 &&
         p.out_rows * p.out_cols <= kPoolTailEntries;
}
/// Whether a Pool ends, as its tail, a post pass over `count` entries from
/// `acc_addr` (hw/rtl/opu_compute_engine.sv): its source exactly those
/// entries, and either one window summed (the pass adds each entry it
/// writes into the sum) or PoolTakesHalves (the pass hands each entry to
/// the pooling, which writes the pooled entries after the last); the Pool
/// does not read the entries again.
inline bool PoolEndsPass(const isa::PoolInsn& p, int64_t acc_addr, int64_t count) {
  const bool sums_all = p.sum && p.out_rows == 1 && p.out_cols == 1 && p.pad_y == 0 &&
                        p.pad_x == 0 && p.size_y >= p.src_rows && p.size_x >= p.src_cols;
  return (sums_all || PoolTakesHalves(p)) && count > 0 && p.src_addr == acc_addr &&
         p.src_rows * p.src_cols == count;
}
/// The input rows a depthwise Gemm with line buffers reads: the window's
/// rows and stride_y an output row after the first, or, with `carry`,
/// stride_y an output row (the rows above come from its line slot).
inline int64_t WindowRowsRead(const isa::GemmInsn& g) {
  return g.carry ? g.out_rows * g.stride_y : g.window_h + 1 + (g.out_rows - 1) * g.stride_y;
}

/// Whether `g` takes two channel blocks of a stride-2 depthwise window in
/// one Gemm (init PairsFromBias at stride_x 2; docs/isa.md; format version
/// 16): rows j read lanes `lane + j` and `lane + Co + j`, the adder tree's
/// halves sum the two blocks, the second's entries in the other of the
/// accumulator's first two banks at the same offset
/// (OpuBufferUnits::StoreBlockEntry(entry, 1), where a whole-pixel store
/// reads a pixel's next block).
inline bool BlockPairs(const isa::GemmInsn& g) {
  return g.init == isa::GemmInsn::kPairsFromBias && g.stride_x == 2;
}

/// Whether `g` takes a 5-wide depthwise kernel's output pixels in pairs:
/// a window of 5 rows of 6 columns (docs/isa.md; format version 15).
inline bool FiveWidePairs(const isa::GemmInsn& g) {
  return g.depthwise && g.init == isa::GemmInsn::kPairsFromBias && g.stride_x == 1 &&
         g.window_h == 4 && g.window_w == 5;
}

/// Lanes from one kernel row of a depthwise Gemm's window to the next
/// (docs/isa.md): 8; or, for output pixels in pairs (init PairsFromBias)
/// whose window's rows do not fit the lanes below lanes / 2 8 apart, 6
/// where it is 5 rows of 6 columns (a 5-wide kernel's pair) and they fit
/// so (packed rows); 0 where they fit neither way.
inline int64_t WindowTapRow(const isa::GemmInsn& g, int64_t lanes) {
  if (g.init != isa::GemmInsn::kPairsFromBias || (g.window_h + 1) * 8 <= lanes / 2) return 8;
  return FiveWidePairs(g) && 5 * 6 <= lanes / 2 ? 6 : 0;
}
/// The array cycles of a Gemm of the depthwise mode on the RTL
/// (opu_gemm.sv), whose window has line buffers of `line_columns` columns
/// (ipa.depthwise_line). Where its input rows fit them (2 to line_columns
/// pixels), stride_x is 1 or 2 and each row is in a window (stride_y <=
/// window_h + 1), it reads each input pixel once, a cycle each (a pair a
/// cycle at stride_x 2 with an odd window width): window_h + 1 rows for the
/// first output row (with carry stride_y: its line slot holds the rest),
/// stride_y for each next. Else a
/// column of window_h + 1 rows a cycle each, for every output row. One more
/// for the window's register.
inline int64_t WindowGemmCycles(const isa::GemmInsn& gemm, int64_t line_columns) {
  const int64_t window_rows = gemm.window_h + 1;
  const int64_t row_pixels = WindowRowPixels(gemm);
  // In pairs, a pair read a cycle up to the last pair's: (window_w rounded
  // down to even + out_cols) / 2 a row.
  if (GemmUsesLines(gemm, line_columns) && gemm.init == isa::GemmInsn::kPairsFromBias &&
      !BlockPairs(gemm))
    return WindowRowsRead(gemm) * ((gemm.window_w & ~int64_t{1}) + gemm.out_cols) / 2 + 1;
  if (GemmUsesLines(gemm, line_columns))
    return WindowRowsRead(gemm) * (GemmReadsPairs(gemm) ? (row_pixels + 1) / 2 : row_pixels) + 1;
  return gemm.out_rows * window_rows * row_pixels + 1;
}
/// The cycles a Gemm holds the array when the next Gemm follows at once
/// (docs/rtl.md, opu_gemm: Gemms back to back): its pixels, a pair a cycle
/// in pairs (init PairsFromBias), or its window's reads (WindowGemmCycles),
/// and a cycle before the next one's first pixel.
inline int64_t GemmBackToBackCycles(const isa::GemmInsn& gemm, int64_t line_columns) {
  if (gemm.depthwise) return WindowGemmCycles(gemm, line_columns) + 1;
  const int64_t pixels = gemm.out_rows * gemm.out_cols;
  return (gemm.init == isa::GemmInsn::kPairsFromBias ? pixels / 2 : pixels) + 1;  // (stride_x 1)
}

/// DRAM bytes a Store writes: its pixel's lanes (StorePixelLanes) per
/// pixel, each pixel four times with `upsample`; none into the feature-map
/// buffer (to_fm).
inline int64_t StoredBytes(const isa::StoreInsn& s, const OpuBufferUnits& units) {
  if (s.to_fm) return 0;
  return s.rows * s.cols * units.StorePixelLanes(s) * (s.upsample ? 4 : 1);
}
/// The bytes a Store puts on the DRAM port: the pixels of a row that share
/// an L-byte beat go out as one masked write of the whole beat (docs/rtl.md,
/// Store), so a block of a compact map's pixels costs the beats it touches,
/// not its bytes (at least StoredBytes; none with to_fm).
int64_t StoreBeatBytes(const isa::StoreInsn& store, const OpuBufferUnits& units);
/// The cycles a Store's engine takes to read its pixels (StorePixelBytes
/// apart): one a pixel and block (four with `upsample`), but one for blocks
/// 0 and 1 (and 2 and 3) of a pixel where both fall in one L-byte beat (a
/// twin read: they lie at one offset of the accumulator's two banks), and
/// with `pair` one a block for both pixels of an entry where they fall in
/// one beat (docs/rtl.md, Store); into a feature-map buffer of two banks
/// (`to_fm`, `fm_pairs`), a pixel from an even entry of the accumulator's
/// first two banks with another after it in its row is read with that one
/// (StoreFmPairs), the two blocks at a time; to DRAM, a pixel of one block
/// from an even entry is read with the next where both fall in one beat
/// (StoreDramPairs).
int64_t StoreIssueCycles(const isa::StoreInsn& store, const OpuBufferUnits& units);
/// Whether pixel `c` of row `r` of a Store into the feature-map buffer
/// starts a fm pair: it and the next are read together and written as two
/// rows in one cycle (opu_store.sv). Only a pair's first pixel says yes.
bool StoreFmPairs(const isa::StoreInsn& store, const OpuBufferUnits& units, int64_t r, int64_t c);
/// Whether pixel `c` of row `r` of a Store to DRAM starts a DRAM pair: a
/// pixel of one block (no extra_blocks, pair or upsample) from an even entry
/// of the accumulator's first two banks, with a next pixel in its row, both
/// in the pixel's L-byte beat: the two are read and written at once
/// (opu_store.sv). Only a pair's first pixel says yes.
bool StoreDramPairs(const isa::StoreInsn& store, const OpuBufferUnits& units, int64_t r, int64_t c);
/// The writes of the feature-map buffer's port a Store with `to_fm`
/// takes: a pixel's row, or a fm pair's two in one; 0 without `to_fm`.
int64_t StoreFmWrites(const isa::StoreInsn& store, const OpuBufferUnits& units);
/// The span of DRAM bytes a Store writes in, from `dram_addr` to past its
/// last byte, with pixels `pixel_bytes` apart (OpuBufferUnits::
/// StorePixelBytes); 0 when it stores nothing.
inline int64_t StoredSpan(const isa::StoreInsn& s, const OpuBufferUnits& units) {
  if (s.rows == 0 || s.cols == 0) return 0;
  const int64_t copies = s.upsample ? 2 : 1;  // per axis
  return (copies * s.rows - 1) * s.dram_stride + (copies * s.cols - 1) * units.StorePixelBytes(s) +
         units.StorePixelLanes(s);
}

}  // namespace opuc

#endif  // OPUC_OPU_BUFFER_UNITS_H
