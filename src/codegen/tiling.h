//===- src/codegen/tiling.h - Tiles that fit the buffers ------*- C++ -*-===//
//
// An inner-product group runs as units: one output tile x one block of Co
// output channels x one chunk of its weight rows. The feature-map buffer
// and the accumulator are split in two halves (ping-pong): while one unit
// computes from one half, the next unit's loads fill the other (a lookup
// table takes rows of its own at the feature-map buffer's end); where the
// tiles fit, in quarters (FmQuarters, AccQuartersFit, StoreGroupsFourDeep);
// the weight and param buffers in two to four slots (Tiling::slots). ChooseTiling
// picks the output tile (spans.h) with the fewest tiles that fits a half of
// the feature-map buffer (its input window, every input block and plane)
// and of the accumulator, and the weight chunk that fits a half of the
// weight buffer.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_CODEGEN_TILING_H
#define OPUC_SRC_CODEGEN_TILING_H

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "input_blocks.h"
#include "opuc/opu/buffer_units.h"
#include "spans.h"

namespace opuc::codegen {

/// Full tiles of feature-map rows the residuals before residual `k` take:
/// one per plane (an i16 residual has two); per-channel constants take none.
int64_t ResidualTilesBefore(const InnerProductGroup& g, size_t k);
/// Feature-map rows the per-channel constants before residual `k` take,
/// from Tiling::constant_row: per block of L channels, a row per plane.
int64_t ConstantRowsBefore(const InnerProductGroup& g, size_t k, int64_t lanes);

struct Tiling {
  std::vector<Span> rows, cols;           ///< The tiles along each axis.
  int64_t tile_h = 1, tile_w = 1;         ///< Output pixels of the largest tile.
  int64_t blocks = 1;                     ///< Input blocks a unit reads (depthwise: its one block).
  std::vector<InputBlockSource> sources;  ///< Every input block: where it comes from.
  int64_t planes = 1;                     ///< 2 for an i16 input.
  int64_t taps = 1;
  int64_t out_blocks = 1;          ///< ceil(out_c / Co).
  int64_t rows_per_out_block = 1;  ///< Weight rows: taps x blocks (a depthwise window: Gemms).
  int64_t chunk_rows = 1;          ///< Weight rows per unit.
  // Half of each buffer, in its units (the weight and param buffers' slots:
  // `slots` below); the feature-map buffer's rows in each of its
  // `fm_slots` slots (two: halves).
  int64_t fm_slot_rows = 0, weight_half = 0, acc_half = 0;
  /// The feature-map slots the input windows take in turn: 2 (halves) or
  /// 4, window w in slot w % fm_slots, so that a window's loads wait for
  /// the window fm_slots before rather than two before (a residual tile in
  /// the window's slot holds it until the post stages are done). Only where
  /// FmQuarters allows.
  int64_t fm_slots = 2;
  /// Where the accumulator's second half starts: the RTL's second bank, so
  /// the array and the post side never wait on each other (acc_half before
  /// it only when a global pool's sums leave too little room).
  int64_t acc_second = 0;
  /// With residual adds: the feature-map row, within a half, after the
  /// largest window, where a unit's residual tiles (one row per pixel and
  /// plane, one full tile of rows after another) go.
  int64_t residual_row = 0;
  /// Whether the residual tiles come with the input window, once for all
  /// of its output blocks, into the window's half: a slot of tiles per block
  /// of L lanes its blocks read (`residual_slots`; lane block b's is slot
  /// b % residual_slots). Else each (tile, output block) pair loads them,
  /// into the unit's own half: L lanes for each Co (issue 48, item 3).
  bool residual_per_window = false;
  int64_t residual_slots = 1;
  /// The post stages and the store of a tile in this many slices of its
  /// rows, a token each, so that a slice's store starts once its stages are
  /// done rather than the tile's: the store runs beside the stages instead
  /// of after them (issue 48). 1 without; only where PostSlicesFit.
  int64_t post_slices = 1;
  /// The accumulator regions the (tile, output block) pairs take in turn:
  /// 2 (a half each, the banks alternating) or 4 (each half split in two,
  /// pair p in quarter p % 4 of bank p % 2). With 4, pair p's Gemms wait
  /// for the store of pair p - 4 rather than p - 2: the store reads its
  /// bank's copy of its own quarter while the array writes the other one
  /// (docs/rtl.md's bank rule still waits for pair p - 2's post stages),
  /// so the array need not wait for the store. Only where AccQuartersFit.
  int64_t acc_regions = 2;
  /// Output blocks one Store writes together, each pixel's blocks into
  /// one beat (Store.extra_blocks + 1; docs/codegen.md, "Whole-pixel
  /// stores"): the blocks of one lane block of L channels, a store group,
  /// stay in the accumulator until the last one's stages are done, and the
  /// group's one Store frees them all. Block k of store group s (tile by
  /// tile, lane block by lane block), pair p, sits at (s % 2) x acc_half in
  /// bank p % 2, ⌊k / 2⌋ half a bank on (StoreBlockEntry). 1 without; only
  /// where StoreBlocks says.
  int64_t store_blocks = 1;
  /// InnerProductGroup::block_pairs, with store_blocks: a store group's
  /// blocks 2k and 2k + 1, at one offset in the two banks, in one Gemm
  /// (FirstOfPair), the second's unit without a Gemm of its own.
  bool block_pairs = false;
  /// With store_blocks: how many store groups the accumulator holds at
  /// once, each in a slot of its own (2, or 4 where a tile fits a quarter
  /// of a block's room: StoreGroupsFourDeep). A group's first pair waits
  /// for the Store of the group store_depth before.
  int64_t store_depth = 2;
  /// How many units deep the weight and param buffers rotate: unit i's
  /// chunk in weight slot i % slots, pair p's row in param slot p % slots,
  /// and unit i's loads wait for the token of unit i − slots (2: double
  /// buffering). CandidateTilings sets the most it may be; EmitInnerProduct
  /// what the units allow (UnitSlots).
  int64_t slots = 2;
  /// Every output block's weight rows loaded once, by the first unit, from
  /// row 0 of the weight buffer; the units after load none. Only where
  /// WeightsResidentFit.
  bool weights_resident = false;
  /// Every output block's param row loaded once, by the first unit, block
  /// b's in param row param_base + b; where they fit the param buffer
  /// (EmitInnerProduct).
  bool params_resident = false;
  /// The row resident params start at: 0, or in a run's next group one
  /// clear of the rows the group before's last post stages read (docs/
  /// codegen.md, "Runs"), so that the seam's token may come at its last Gemm.
  int64_t param_base = 0;
  /// A unit frees its feature-map half and weight slot for the loads of
  /// the unit `slots` on at its last Gemm, not at its post stages' end:
  /// with resident params no post stage reads a buffer a load writes,
  /// unless it adds a residual from the feature-map buffer.
  bool frees_at_gemm = false;
  /// With a lookup table: its feature-map rows, after both halves, loaded
  /// once for the whole group; then the per-channel constants' rows.
  int64_t table_row = 0, table_rows = 0, constant_row = 0, constant_rows = 0;
  /// Whether the first tile, and maybe the last, has fewer rows than
  /// tile_h (TaperedTilings).
  bool tapered = false;
  /// With a global pool: the accumulator entry of output block 0's sums,
  /// after both halves, in the RTL's sums bank when they fit there (block
  /// b's is pool_sums + b).
  int64_t pool_sums = 0;

  /// Input rows/columns an output extent of `n` pixels reads.
  int64_t InRows(const InnerProductGroup& g, int64_t n) const {
    return (n - 1) * g.sy + (g.kh - 1) * g.dy + 1;
  }
  int64_t InCols(const InnerProductGroup& g, int64_t n) const {
    return (n - 1) * g.sx + (g.kw - 1) * g.dx + 1;
  }
  std::string Text(const InnerProductGroup& g) const;
  /// The first accumulator entry of pair `pair`'s region.
  int64_t AccBase(int64_t pair) const {
    if (store_blocks > 1) {  // OpuBufferUnits::StoreBlockEntry, acc_second its bank 1
      // Pair p in bank p % 2, as without: block 0 of a group in its first
      // pair's bank, the odd blocks in the other one.
      const int64_t k = pair % out_blocks % store_blocks;
      return StoreGroup(pair) % store_depth * acc_half + pair % 2 * acc_second +
             k / 2 * OpuBufferUnits::HalfBank(acc_second);
    }
    const int64_t per_half = acc_regions / 2;
    return (pair % 2) * acc_second + (pair / 2 % per_half) * (acc_half / per_half);
  }
  /// With block_pairs: whether pair `pair`'s Gemm takes its block and the
  /// next (block k even of its store group, k + 1 in it too: the other
  /// bank at the same offset), and whether its block is such a pair's
  /// second (its unit has no Gemm).
  bool FirstOfPair(int64_t pair) const {
    const int64_t k = pair % out_blocks % store_blocks;
    return block_pairs && k % 2 == 0 && k + 1 < store_blocks && pair % out_blocks + 1 < out_blocks;
  }
  bool SecondOfPair(int64_t pair) const {
    return block_pairs && pair % out_blocks % store_blocks % 2 == 1;
  }
  /// With store_blocks: the store groups of a tile, pair `pair`'s group
  /// (counted over the tiles), and the last pair of group `group`.
  int64_t GroupsPerTile() const { return (out_blocks + store_blocks - 1) / store_blocks; }
  int64_t StoreGroup(int64_t pair) const {
    return pair / out_blocks * GroupsPerTile() + pair % out_blocks / store_blocks;
  }
  int64_t GroupLastPair(int64_t group) const {
    const int64_t tile = group / GroupsPerTile(), first = group % GroupsPerTile() * store_blocks;
    return tile * out_blocks + std::min(out_blocks, first + store_blocks) - 1;
  }
  /// Whether pair `pair`'s Gemms wait for a Store to free its region;
  /// whether it ends with a Store (with store_blocks, its group's last
  /// pair); and whether that Store frees a region a later pair waits for,
  /// of `pairs` in all.
  bool WaitsForStore(int64_t pair) const {
    if (store_blocks > 1)
      return pair % out_blocks % store_blocks == 0 && StoreGroup(pair) >= store_depth;
    return pair >= acc_regions;
  }
  bool Stores(int64_t pair) const {
    return store_blocks <= 1 || GroupLastPair(StoreGroup(pair)) == pair;
  }
  bool StoreFrees(int64_t pair, int64_t pairs) const {
    if (store_blocks > 1)
      return StoreGroup(pair) < pairs / out_blocks * GroupsPerTile() - store_depth;
    return pair < pairs - acc_regions;
  }
};

/// Errors name the group's node, the buffer, and how much is missing.
/// `residual_per_window` keeps the residual tiles with the input window
/// (Tiling::residual_per_window), which takes more of the buffer.
/// `full_width` takes only tiles of the output's whole width (whose
/// depthwise Gemms may carry their rows from the tile above: line_carry.h).
/// `store_blocks` > 1 keeps a tile's output blocks for one Store
/// (Tiling::store_blocks; StoreBlocks says where), which takes more of the
/// accumulator.
Expected<Tiling> ChooseTiling(const InnerProductGroup& g, const OpuBufferUnits& units,
                              bool residual_per_window = false, bool full_width = false,
                              int64_t store_blocks = 1);

/// The output blocks a Store may write together in `g`
/// (Tiling::store_blocks): those of a lane block of L channels, where there
/// are two or more and the output is stored as it is (no pool, upsample,
/// phases or packing); else 1.
int64_t StoreBlocks(const InnerProductGroup& g, const OpuBufferUnits& units);

/// `fewest` and the same tiling cut into more tiles along the height (2, 3,
/// 4, 6, 8, ... times as many rows of tiles, each distinct): smaller tiles
/// let the next tile's loads start sooner, so the engines overlap more, at
/// the cost of more instructions and, with a window, more halo rows. The
/// caller keeps the one the estimator finds fastest.
std::vector<Tiling> TallerTilings(const InnerProductGroup& g, const Tiling& fewest);

/// Whether `g`'s post stages may run in slices of a tile's rows
/// (Tiling::post_slices): the stages are entrywise (no pool) and the tile
/// is stored as it is (no upsampled copy), and no residual is an i16 tile
/// (its low plane lies a whole tile after its high one, where a slice's
/// ResAdd would not look).
bool PostSlicesFit(const InnerProductGroup& g);

/// Whether `t`'s tiles, and a windowed pool's pooled entries after them,
/// fit a quarter of the accumulator in a bank of its own
/// (Tiling::acc_regions = 4), with halves that start at the RTL's banks.
bool AccQuartersFit(const InnerProductGroup& g, const Tiling& t, const OpuBufferUnits& u);

/// `t` with the feature-map buffer in four slots (Tiling::fm_slots), where
/// its largest window with its residual tiles fits a quarter, no residual
/// tile is loaded per pair (those take their unit's half), and the group
/// runs no pixel pairs nor tiles of one or two rows over an i16 input or
/// residual; else nothing. Over accumulator halves too: a tile of several
/// windows (a depthwise map of more than L channels) then loads the next
/// tile's while its own are read.
std::optional<Tiling> FmQuarters(const InnerProductGroup& g, const Tiling& t,
                                 const OpuBufferUnits& u);

/// `t` (of whole-pixel stores) with four store groups in the accumulator
/// at once (Tiling::store_depth), where a tile fits a quarter of each
/// block's room rather than a half; else nothing.
std::optional<Tiling> StoreGroupsFourDeep(const InnerProductGroup& g, const Tiling& t);

/// Whether the array may read `g`'s i16 input whole (InnerProductGroup::
/// i16_whole): a feature-map buffer of two banks (its read returns the next
/// row too), a depthwise window at most 4 taps wide (the low bytes take
/// the taps 4 further), and the whole input row's doubled pitch fits
/// Gemm.fm_pitch.
bool ReadsI16Whole(const InnerProductGroup& g, const OpuBufferUnits& u);

/// Whether every output block's weight rows fit the weight buffer at once
/// and a unit takes a block's rows in one chunk (so that every unit still
/// loads its params): then the tiles need not load them again.
bool WeightsResidentFit(const Tiling& t, const OpuBufferUnits& u);

/// The slices [first, end) of a tile of `size` rows whose first `kept` are
/// stored, `slices` of them at most: the kept rows split evenly, the last
/// slice taking the rows after them.
std::vector<std::pair<int64_t, int64_t>> PostSliceRows(int64_t size, int64_t kept, int64_t slices);

}  // namespace opuc::codegen

#endif  // OPUC_SRC_CODEGEN_TILING_H
