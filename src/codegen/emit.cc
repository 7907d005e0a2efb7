//===- src/codegen/emit.cc - Units, tokens and words ------------------===//
//
// Unit u uses weight half u % 2; the feature-map half alternates with each
// new input window (a tile, or a depthwise input block), the param and
// accumulator halves with each (tile, output block) pair. Tokens:
//
//   load(u), u >= 2:     pop compute->load (unit u-2 finished with its halves),
//                        on its first load into a half unit u-2 used: a new
//                        window's loads go before it when the window two
//                        before ended by unit u-3 (the pops before proved it)
//   load(u) last:        push load->compute
//   compute(u) first:    pop load->compute; and, first chunk of pair p >= R,
//                        pop store->compute (pair p-R stored: its acc region is free)
//   compute(u) last:     push compute->load (u < U-2); push compute->store (last chunk)
//   store(p) first/last: pop compute->store / push store->compute (p < P-R)
//
// R is Tiling::acc_regions (2: the accumulator's halves; 4: their quarters,
// where the RTL's bank rule holds pair p's Gemms until pair p-2's post
// stages are done, and the store of p-2 reads a quarter they do not write).
//
// With post slices (Tiling::post_slices) the last chunk's stages push
// compute->store at the end of each slice, and the pair's store pops one at
// the start of each.
//
// so every token pushed is popped. A half reused by unit u was last used by
// unit u-2 or earlier, which the pop proves finished.
//
//===----------------------------------------------------------------------===//
#include "emit.h"

#include <algorithm>

#include "depthwise_window.h"
#include "phases.h"
#include "support/format.h"
#include "transfers.h"
#include "units.h"

namespace opuc::codegen {
namespace {

// Collects one engine's instructions of a unit, then sets the tokens of the
// first and last.
struct Batch {
  std::vector<isa::Instruction> insns;
  void Add(isa::Instruction insn) { insns.push_back(std::move(insn)); }
  isa::Deps& First() { return isa::DepsOf(insns.front()); }
  isa::Deps& Last() { return isa::DepsOf(insns.back()); }
};

int64_t BlockBase(const ActivationLayout& layout, int64_t plane, int64_t block) {
  return layout.PixelAddress(plane, block, 0, 0);
}

// What every unit's instructions are made from.
struct GroupEmitter {
  const InnerProductGroup& group;
  const Tiling& tiling;
  const OpuBufferUnits buffers;
  const int64_t depthwise_line;  // the window's line buffers' columns (ipa.depthwise_line)
  const ConstantPlacement& constants;
  const GroupLayouts& layouts;
  CycleEstimate& estimate;
};

// The buffer halves a unit uses (the file comment says which alternate
// when) and its input window.
struct UnitPlace {
  int64_t index = 0;  ///< The unit's, in program order.
  int64_t in_rows = 0, in_cols = 0;
  int64_t fm_base = 0, weight_base = 0, param_row = 0, acc_base = 0;
  /// The residual tiles of the (tile, output block) pair, in the rows
  /// after the window of feature-map half index % 2 (freed like the weights').
  int64_t residual_base = 0;
};

// The slot of residual tiles lane block `lane_block` takes in its window.
int64_t ResidualSlot(const GroupEmitter& e, int64_t lane_block) {
  return lane_block % e.tiling.residual_slots;
}

// Where lane block `lane_block`'s residual tiles start when kept with the
// window at `fm_base`: after the window, a slot of every residual's tiles.
int64_t WindowResidualBase(const GroupEmitter& e, int64_t fm_base, int64_t lane_block) {
  return fm_base + e.tiling.residual_row +
         ResidualSlot(e, lane_block) * ResidualTilesBefore(e.group, e.group.residuals.size()) *
             e.tiling.tile_h * e.tiling.tile_w;
}

UnitPlace PlaceUnit(const GroupEmitter& e, const Unit& unit, int64_t index) {
  const Tiling& tiling = e.tiling;
  UnitPlace place;
  place.index = index;
  place.in_rows = tiling.InRows(e.group, unit.row.size);
  place.in_cols = tiling.InCols(e.group, unit.col.size);
  place.fm_base = (unit.window % 2) * tiling.fm_half;
  place.weight_base = (index % 2) * tiling.weight_half;
  place.param_row = (unit.pair % 2) * tiling.param_half;
  place.acc_base = tiling.AccBase(unit.pair);
  place.residual_base = (index % 2) * tiling.fm_half + tiling.residual_row;
  if (tiling.residual_per_window)
    place.residual_base =
        WindowResidualBase(e, place.fm_base, unit.ob * e.buffers.out_lanes / e.buffers.lanes);
  return place;
}

// Where the pool of `unit`'s tile puts its entries (PostTile's pool_*).
void PlacePool(const InnerProductGroup& group, const Tiling& tiling, const Unit& unit,
               int64_t acc_base, PostTile& tile) {
  const PoolStep& pool = *group.pool;
  if (pool.global) {
    tile.pool_base = tiling.pool_sums + unit.ob;
    tile.pool_rows = tile.pool_cols = 1;
    tile.pool_accumulate = unit.row.first > 0 || unit.col.first > 0;
    tile.pool_last = unit.row.first + unit.row.size >= group.out_h &&
                     unit.col.first + unit.col.size >= group.out_w;
    return;
  }
  tile.pool_base = acc_base + tiling.tile_h * tiling.tile_w;
  tile.pool_rows = unit.row.pooled;
  tile.pool_cols = unit.col.pooled;
  tile.pool_y0 = unit.row.pooled_first;
  tile.pool_x0 = unit.col.pooled_first;
  tile.pool_pad_y = unit.row.pool_pad;
  tile.pool_pad_x = unit.col.pool_pad;
}

// A new input window: every plane and input block of it, with the padding
// and the zeros between its pixels the load engine writes.
void LoadInputWindow(const GroupEmitter& e, const Unit& unit, const UnitPlace& place, Batch& load) {
  const InnerProductGroup& g = e.group;
  const Tiling& tiling = e.tiling;
  const int64_t lanes = e.buffers.lanes;
  const AxisLoad along_y =
      LoadAlong(unit.row.first * g.sy - g.pad_top, place.in_rows, g.in_h, g.gap_y);
  const AxisLoad along_x =
      LoadAlong(unit.col.first * g.sx - g.pad_left, place.in_cols, g.in_w, g.gap_x);
  const int64_t width = (g.in_w - 1) / g.gap_x + 1;  // of the input in DRAM
  const int64_t window_units = place.in_rows * place.in_cols;
  for (int64_t plane = 0; plane < tiling.planes; ++plane) {
    for (int64_t block = 0; block < tiling.blocks; ++block) {
      const InputBlockSource& from =
          tiling.sources[static_cast<size_t>(g.depthwise ? unit.in_block : block)];
      const ActivationLayout& input = *e.layouts.inputs[from.piece];
      const int64_t pixel = input.PixelBytes(from.block);
      isa::LoadInsn fm;
      fm.buffer = isa::LoadInsn::kFeatureMap;
      fm.sram_addr = place.fm_base + (plane * tiling.blocks + block) * window_units;
      fm.dram_addr =
          BlockBase(input, plane, from.block) + (along_y.pixel * width + along_x.pixel) * pixel;
      fm.rows = along_y.pixels;
      fm.cols = along_x.pixels;
      fm.dram_stride = width * pixel;
      fm.granules = input.Granules(from.block);
      fm.pad_top = along_y.pad_before;
      fm.pad_bottom = along_y.pad_after;
      fm.pad_left = along_x.pad_before;
      fm.pad_right = along_x.pad_after;
      fm.zeros_y = g.gap_y - 1;
      fm.zeros_x = g.gap_x - 1;
      // Zeros between the pixels read: the load engine writes the window's
      // every unit, a cycle each.
      const bool zeros = g.gap_y > 1 || g.gap_x > 1;
      EstimateLoad(fm, lanes, e.buffers.out_lanes, zeros ? window_units : 0, e.estimate);
      load.Add(fm);
    }
  }
}

// The residual tiles of lane block `lane_block` for `unit`'s tile, from
// `base`. Lanes past a channel-padded residual's channels add 0, unloaded;
// an i16 residual's low plane follows its high plane's rows (ResAdd reads
// it `count` rows on).
void LoadResidualBlock(const GroupEmitter& e, const Unit& unit, int64_t lane_block, int64_t base,
                       Batch& load) {
  const InnerProductGroup& g = e.group;
  const int64_t lanes = e.buffers.lanes, out_lanes = e.buffers.out_lanes;
  for (size_t k = 0; k < g.residuals.size(); ++k) {
    if (!g.residuals[k].constant.empty() || g.residuals[k].channels <= lane_block * lanes) continue;
    const ActivationLayout& residual = *e.layouts.residuals[k];
    for (int64_t plane = 0; plane < residual.planes(); ++plane) {
      isa::LoadInsn res;
      res.buffer = isa::LoadInsn::kFeatureMap;
      res.sram_addr = base + ResidualTilesBefore(g, k) * e.tiling.tile_h * e.tiling.tile_w +
                      plane * unit.row.size * unit.col.size;
      res.dram_addr = residual.PixelAddress(plane, lane_block, unit.row.first, unit.col.first);
      res.rows = unit.row.size;
      res.cols = unit.col.size;
      res.dram_stride = g.out_w * residual.PixelBytes(lane_block);
      res.granules = residual.Granules(lane_block);
      EstimateLoad(res, lanes, out_lanes, 0, e.estimate);
      load.Add(res);
    }
  }
}

// The residual tiles a unit's ResAdds read: a pair's own, with its last
// chunk; or, kept per window, every lane block the window's output blocks
// read, with the window.
void LoadResiduals(const GroupEmitter& e, const Unit& unit, const UnitPlace& place, Batch& load) {
  const InnerProductGroup& g = e.group;
  const Tiling& t = e.tiling;
  const int64_t lanes = e.buffers.lanes, out_lanes = e.buffers.out_lanes;
  const int64_t lane_block = unit.ob * out_lanes / lanes;
  if (g.residuals.empty()) return;
  if (!t.residual_per_window) {
    if (unit.last_chunk) LoadResidualBlock(e, unit, lane_block, place.residual_base, load);
    return;
  }
  if (!unit.new_window) return;
  const int64_t first = lane_block - ResidualSlot(e, lane_block);
  for (int64_t b = first; b < first + t.residual_slots && b * lanes < g.out_c; ++b)
    LoadResidualBlock(e, unit, b, WindowResidualBase(e, place.fm_base, b), load);
}

// The load engine's part of a unit: the table and per-channel constants
// (first unit), the input window (when new; with it the residuals kept
// per window), the weight chunk, the params (first chunk) and a pair's
// residuals (last chunk). The first load into a half the unit two before
// used pops its token; a new window's loads come before that when its half
// is already proven free (`window_free`).
Batch EmitLoads(const GroupEmitter& e, const Unit& unit, const UnitPlace& place, bool window_free) {
  const Tiling& tiling = e.tiling;
  const int64_t lanes = e.buffers.lanes, out_lanes = e.buffers.out_lanes;
  Batch load;
  if (place.index == 0 && tiling.table_rows > 0)
    load.Add(
        WholeRowsLoad(tiling.table_row, e.constants.table, tiling.table_rows, lanes, e.estimate));
  if (place.index == 0 && tiling.constant_rows > 0)
    load.Add(WholeRowsLoad(tiling.constant_row, e.constants.channel_constants, tiling.constant_rows,
                           lanes, e.estimate));
  if (unit.new_window) LoadInputWindow(e, unit, place, load);
  if (tiling.residual_per_window) LoadResiduals(e, unit, place, load);
  const size_t waits_from = window_free ? load.insns.size() : 0;
  e.estimate.LoadsWaitFrom(static_cast<int64_t>(waits_from));
  isa::LoadInsn weights;
  const int64_t row_bytes = WeightRowBytes(e.group, e.buffers);
  weights.buffer = isa::LoadInsn::kWeights;
  weights.diagonal = CompactWeightRows(e.group, e.buffers);
  weights.sram_addr = place.weight_base;
  weights.dram_addr =
      e.constants.weights + (unit.ob * tiling.rows_per_out_block + unit.first_row) * row_bytes;
  weights.rows = 1;
  weights.cols = unit.rows;
  weights.dram_stride = unit.rows * row_bytes;
  e.estimate.Load(unit.rows * row_bytes);
  load.Add(weights);
  if (unit.first_chunk) {
    isa::LoadInsn params;
    params.buffer = isa::LoadInsn::kParams;
    params.sram_addr = place.param_row;
    params.dram_addr = e.constants.params + unit.ob * out_lanes * 8;
    params.rows = params.cols = 1;
    params.dram_stride = out_lanes * 8;
    e.estimate.Load(out_lanes * 8);
    load.Add(params);
  }
  if (!tiling.residual_per_window) LoadResiduals(e, unit, place, load);
  isa::DepsOf(load.insns[waits_from]).pop_next = place.index >= 2;
  load.Last().push_next = true;
  return load;
}

// The compute engine's part of a unit: a Gemm per weight row and plane,
// then (last chunk) the stages after the inner product.
Batch EmitCompute(const GroupEmitter& e, const Unit& unit, const UnitPlace& place,
                  int64_t unit_count) {
  const InnerProductGroup& g = e.group;
  const Tiling& tiling = e.tiling;
  const int64_t lanes = e.buffers.lanes, out_lanes = e.buffers.out_lanes;
  Batch compute;
  for (int64_t row = unit.first_row; row < unit.first_row + unit.rows; ++row) {
    const int64_t tap = row / tiling.blocks, block = row % tiling.blocks;
    // A depthwise window's row starts at its first kernel row.
    const bool window = g.window_rows > 0;
    const int64_t ky = window ? row * g.window_rows : tap / g.kw, kx = window ? 0 : tap % g.kw;
    // A phased tile's taps each fill a sub-tile of their own (phases.h).
    const int64_t sub =
        g.Phases() > 1 ? (ky * g.phases_x + kx % g.phases_x) * unit.row.size * unit.col.size : 0;
    for (int64_t plane = 0; plane < tiling.planes; ++plane) {
      isa::GemmInsn gemm;
      gemm.acc_addr = place.acc_base + sub;
      gemm.fm_addr = place.fm_base +
                     (plane * tiling.blocks + block) * place.in_rows * place.in_cols +
                     ky * g.dy * place.in_cols + kx * g.dx;
      gemm.fm_pitch = place.in_cols;
      gemm.wgt_addr = place.weight_base + (row - unit.first_row);
      gemm.param_addr = place.param_row;
      gemm.out_rows = unit.row.size;
      gemm.out_cols = unit.col.size;
      gemm.stride_y = g.sy;
      gemm.stride_x = g.sx;
      const bool first = g.Phases() > 1
                             ? block == 0 && plane == 0 && kx < g.phases_x  // a sub-tile's first
                             : unit.first_chunk && compute.insns.empty();
      gemm.init = first ? isa::GemmInsn::kFromBias : isa::GemmInsn::kAccumulate;
      // An i16 input runs as two planes: the high bytes (signed, counting
      // 256 times), then the low bytes (unsigned).
      gemm.fm_unsigned = g.in_format == DType::kU8 || (tiling.planes == 2 && plane == 1);
      gemm.high_byte = tiling.planes == 2 && plane == 0;
      if (window) {
        gemm.depthwise = true;
        gemm.window_h = std::min(g.window_rows, g.kh - ky) - 1;
        gemm.window_w = g.kw - 1;
        gemm.lane = (unit.ob * out_lanes / g.multiplier) % lanes;
        gemm.pair_rows = g.multiplier == 2;
      }
      e.estimate.Compute(window ? WindowGemmCycles(gemm, e.depthwise_line)
                                : unit.row.size * unit.col.size);
      compute.Add(gemm);
    }
  }
  if (unit.last_chunk) {
    PostTile tile;
    tile.acc_base = place.acc_base;
    tile.param_row = place.param_row;
    tile.residual_row = place.residual_base;
    tile.residual_pitch = tiling.tile_h * tiling.tile_w;
    tile.residual_lane = (unit.ob * out_lanes) % lanes;
    tile.c0 = unit.ob * out_lanes;
    tile.co = out_lanes;
    tile.table_row = tiling.table_row;
    tile.constant_row = tiling.constant_row;
    tile.lanes = lanes;
    tile.th = unit.row.size * g.Phases();  // entrywise stages: every sub-tile
    tile.tw = unit.col.size;
    if (g.pool) PlacePool(g, tiling, unit, place.acc_base, tile);
    if (tiling.post_slices > 1) {
      // A slice's entries and residual rows start its rows' pixels in; its
      // last stage tells the store engine it may store them.
      for (const auto& [first, end] :
           PostSliceRows(unit.row.size, unit.row.kept, tiling.post_slices)) {
        PostTile slice = tile;
        slice.acc_base += first * tile.tw;
        slice.residual_row += first * tile.tw;
        slice.th = end - first;
        EmitPostStages(g, slice, e.estimate, compute.insns);
        compute.Last().push_next = true;
        e.estimate.EndPostSlice();
      }
    } else {
      EmitPostStages(g, tile, e.estimate, compute.insns);
    }
  }
  compute.First().pop_prev = true;
  compute.First().pop_next = unit.first_chunk && unit.pair >= tiling.acc_regions;
  compute.Last().push_prev = place.index < unit_count - 2;
  compute.Last().push_next = unit.last_chunk;
  return compute;
}

// The store engine's part of a pair's last chunk: the output tile, the
// pooled tile once its windows are complete, and the upsampled map of the
// last of them.
Batch EmitStores(const GroupEmitter& e, const Unit& unit, const UnitPlace& place,
                 int64_t pair_count) {
  const InnerProductGroup& g = e.group;
  const GroupLayouts& layouts = e.layouts;
  Batch store;
  if (!unit.last_chunk) return store;
  const int64_t out_lanes = e.buffers.out_lanes;
  const int64_t c0 = unit.ob * out_lanes, lanes = std::min(out_lanes, g.out_c - c0);
  const int64_t acc_base = place.acc_base;
  if (e.tiling.post_slices > 1) {
    // A slice's store waits for its post stages' token (PostSlicesFit: the
    // output is all there is to store).
    for (const auto& [first, end] :
         PostSliceRows(unit.row.size, unit.row.kept, e.tiling.post_slices)) {
      const size_t at = store.insns.size();
      const int64_t rows = std::min(end, unit.row.kept) - first;
      StoreTile(*layouts.output,
                {acc_base + first * unit.col.size, rows, unit.col.kept, unit.col.size}, c0, lanes,
                unit.row.first + first, unit.col.first, e.estimate, store.insns);
      if (store.insns.size() == at) {  // no pixels: a Store of none carries the token
        isa::StoreInsn none;
        none.lanes = 1;
        store.Add(none);
      }
      isa::DepsOf(store.insns[at]).pop_prev = true;
      e.estimate.EndStoreSlice();
    }
    store.Last().push_prev = unit.pair < pair_count - e.tiling.acc_regions;
    return store;
  }
  if (g.Phases() > 1)
    StorePhases(g, *layouts.output, acc_base, unit.row.size, unit.col.size, unit.row.kept,
                unit.col.kept, c0, lanes, unit.row.first, unit.col.first, e.estimate, store.insns);
  else if (g.store_output)  // the pixels up to the next tile's (spans.h)
    StoreTile(*layouts.output, {acc_base, unit.row.kept, unit.col.kept, unit.col.size}, c0, lanes,
              unit.row.first, unit.col.first, e.estimate, store.insns);
  if (g.upsampled != kNoTensor && !g.pool)
    StoreTile(*layouts.upsampled, {acc_base, unit.row.size, unit.col.size}, c0, lanes,
              unit.row.first, unit.col.first, e.estimate, store.insns, /*upsample=*/true);
  PostTile tile;
  if (g.pool) PlacePool(g, e.tiling, unit, acc_base, tile);
  const TileRect pooled{tile.pool_base, tile.pool_rows, tile.pool_cols};
  if (g.store_pool && tile.pool_last)
    StoreTile(*layouts.pool, pooled, c0, lanes, tile.pool_y0, tile.pool_x0, e.estimate,
              store.insns);
  if (g.upsampled != kNoTensor && g.pool && tile.pool_last)
    StoreTile(*layouts.upsampled, pooled, c0, lanes, tile.pool_y0, tile.pool_x0, e.estimate,
              store.insns, /*upsample=*/true);
  if (store.insns.empty()) {  // a global pool's tile before the last: a Store of no
    isa::StoreInsn none;      // pixels carries the pair's tokens
    none.lanes = 1;
    store.Add(none);
  }
  store.First().pop_prev = true;
  store.Last().push_prev = unit.pair < pair_count - e.tiling.acc_regions;
  return store;
}

}  // namespace

Expected<PlannedStep> EmitInnerProduct(const InnerProductGroup& group, const Tiling& tiling,
                                       const HwConfig& hw, const ConstantPlacement& constants,
                                       const GroupLayouts& layouts) {
  CycleEstimate estimate(hw);
  estimate.AccRegions(tiling.acc_regions);
  const GroupEmitter emitter{group,     tiling,  BufferUnits(hw), hw.ipa.depthwise_line,
                             constants, layouts, estimate};
  const std::vector<Unit> units = Units(group, tiling, emitter.buffers);
  const auto unit_count = static_cast<int64_t>(units.size());
  const int64_t pair_count = units.back().pair + 1;
  std::vector<isa::Instruction> program;
  for (int64_t index = 0; index < unit_count; ++index) {
    const Unit& unit = units[static_cast<size_t>(index)];
    const UnitPlace place = PlaceUnit(emitter, unit, index);
    estimate.BeginUnit();
    // A new window's half was last read by the window two before, whose
    // last unit the pops of the loads before proved finished when it is
    // three or more units back.
    int64_t before = -1;  // the last unit of window unit.window - 2
    for (int64_t v = index - 1; v >= 0 && before < 0; --v)
      if (units[static_cast<size_t>(v)].window <= unit.window - 2) before = v;
    const bool window_free = unit.new_window && before <= index - 3;
    Batch load = EmitLoads(emitter, unit, place, window_free);
    Batch compute = EmitCompute(emitter, unit, place, unit_count);
    Batch store = EmitStores(emitter, unit, place, pair_count);
    estimate.Fetch(
        static_cast<int64_t>(load.insns.size() + compute.insns.size() + store.insns.size()));
    for (Batch* batch : {&load, &compute, &store})
      for (isa::Instruction& insn : batch->insns) program.push_back(std::move(insn));
  }

  PlannedStep step;
  step.kind = StepKind::kOpu;
  step.group = group.group;
  step.tiling = tiling.Text(group);
  step.estimated_cycles = estimate.Total();
  for (size_t i = 0; i < program.size(); ++i) {
    Expected<isa::Word> word = isa::Encode(program[i]);
    if (!word.ok()) return word.status().WithContext(Cat(group.what, ": instruction ", i));
    step.words.push_back(*word);
  }
  return step;
}

}  // namespace opuc::codegen
