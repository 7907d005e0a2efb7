//===- src/codegen/unit_transfers.cc - A unit's loads and stores -------===//
//
// The load and store engines' parts of a unit (unit_emitter.h); emit.cc's
// file comment says which buffer halves alternate and which tokens they
// pop and push.
//
//===----------------------------------------------------------------------===//
#include <algorithm>

#include "depthwise_window.h"
#include "input_fold.h"
#include "packed_rows.h"
#include "phases.h"
#include "transfers.h"
#include "unit_emitter.h"

namespace opuc::codegen {
namespace {

int64_t BlockBase(const ActivationLayout& layout, int64_t plane, int64_t block) {
  return layout.PixelAddress(plane, block, 0, 0);
}

// The slot of residual tiles lane block `lane_block` takes in its window.
int64_t ResidualSlot(const GroupEmitter& e, int64_t lane_block) {
  return lane_block % e.tiling.residual_slots;
}

}  // namespace

// Where lane block `lane_block`'s residual tiles start when kept with the
// window at `fm_base`: after the window, a slot of every residual's tiles.
int64_t WindowResidualBase(const GroupEmitter& e, int64_t fm_base, int64_t lane_block) {
  return fm_base + e.tiling.residual_row +
         ResidualSlot(e, lane_block) * ResidualTilesBefore(e.group, e.group.residuals.size()) *
             e.tiling.tile_h * e.tiling.tile_w;
}

namespace {

// A new input window: every plane and input block of it, with the padding
// and the zeros between its pixels the load engine writes; but its first
// `carried` rows, which every Gemm reading it takes from its line slot.
void LoadInputWindow(const GroupEmitter& e, const Unit& unit, const UnitPlace& place,
                     int64_t carried, Batch& load) {
  const InnerProductGroup& g = e.group;
  const Tiling& tiling = e.tiling;
  const int64_t lanes = e.buffers.lanes;
  const AxisLoad along_y =
      LoadAlong(unit.row.first * g.sy - g.pad_top, place.in_rows, g.in_h, g.gap_y);
  const AxisLoad along_x =
      LoadAlong(unit.col.first * g.sx - g.pad_left, place.in_cols, g.in_w, g.gap_x);
  const int64_t width = (g.in_w - 1) / g.gap_x + 1;  // of the input in DRAM
  const int64_t window_units = place.in_rows * place.in_cols;
  // The carried rows are skipped where they are rows of the input (no
  // padding above the window) and not all it loads.
  const int64_t skip =
      along_y.pad_before == 0 && g.gap_y == 1 && carried < along_y.pixels ? carried : 0;
  const int64_t spread = g.i16_whole ? 2 : 1;  // buffer rows a pixel of a block takes
  for (int64_t plane = 0; plane < tiling.planes; ++plane) {
    for (int64_t block = 0; block < tiling.blocks; ++block) {
      const InputBlockSource& from =
          tiling.sources[static_cast<size_t>(g.depthwise ? unit.in_block : block)];
      const ActivationLayout& input = *e.layouts.inputs[from.piece];
      const int64_t pixel = input.PixelBytes(from.block);
      isa::LoadInsn fm;
      fm.buffer = isa::LoadInsn::kFeatureMap;
      // Interleaved planes: a block's pixels take two rows, high then low.
      fm.sram_addr =
          (g.i16_whole ? place.fm_base + 2 * block * window_units + plane
                       : place.fm_base + (plane * tiling.blocks + block) * window_units) +
          skip * spread * place.in_cols;
      fm.interleave = g.i16_whole;
      fm.dram_addr = BlockBase(input, plane, from.block) +
                     ((along_y.pixel + skip) * width + along_x.pixel) * pixel;
      fm.rows = along_y.pixels - skip;
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

// How the output tile's pixels go out: to DRAM, or (a chained pair's
// first group) into the feature-map buffer.
StoreShape OutputShape(const GroupEmitter& e) {
  return e.layouts.output_to_fm ? StoreShape::kToFeatureMap : StoreShape::kPixels;
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
}  // namespace

// The load engine's part of a unit: the table and per-channel constants
// (first unit), the input window (when new; with it the residuals kept
// per window), the weight chunk, the params (first chunk) and a pair's
// residuals (last chunk). The first load into a slot the unit `slots`
// before used pops its token; a new window's loads come before that when
// its half is already proven free (`window_free`).
Batch EmitLoads(const GroupEmitter& e, const Unit& unit, const UnitPlace& place, bool window_free,
                int64_t carried_rows) {
  const Tiling& tiling = e.tiling;
  const int64_t lanes = e.buffers.lanes, out_lanes = e.buffers.out_lanes;
  Batch load;
  if (place.index == 0 && tiling.table_rows > 0)
    load.Add(
        WholeRowsLoad(tiling.table_row, e.constants.table, tiling.table_rows, lanes, e.estimate));
  if (place.index == 0 && tiling.constant_rows > 0)
    load.Add(WholeRowsLoad(tiling.constant_row, e.constants.channel_constants, tiling.constant_rows,
                           lanes, e.estimate));
  if (unit.new_window && e.layouts.input_fm_row < 0)
    LoadInputWindow(e, unit, place, carried_rows, load);
  if (tiling.residual_per_window) LoadResiduals(e, unit, place, load);
  // The first load after a free window's takes the token; with nothing
  // after the window (resident weights and params), its last load does.
  const size_t after_window = window_free ? load.insns.size() : 0;
  // The rows the unit's Gemms take; resident weights: the first unit
  // loads every block's rows, the rest none.
  const int64_t weight_rows = !tiling.weights_resident ? GemmRows(tiling, unit)
                              : place.index == 0       ? tiling.out_blocks * unit.rows
                                                       : 0;
  if (weight_rows > 0) {
    isa::LoadInsn weights;
    const int64_t row_bytes = WeightRowBytes(e.group, e.buffers);
    weights.buffer = isa::LoadInsn::kWeights;
    weights.diagonal = CompactWeightRows(e.group, e.buffers);
    weights.sram_addr = tiling.weights_resident ? 0 : place.weight_base;
    weights.dram_addr =
        e.constants.weights +
        (tiling.weights_resident ? 0 : unit.ob * tiling.rows_per_out_block + unit.first_row) *
            row_bytes;
    weights.rows = 1;
    weights.cols = weight_rows;
    weights.dram_stride = weight_rows * row_bytes;
    e.estimate.Load(weight_rows * row_bytes);
    load.Add(weights);
  }
  // Resident params: the first unit loads every block's row, the rest none.
  if (tiling.params_resident ? place.index == 0 : unit.first_chunk) {
    const int64_t rows = tiling.params_resident ? ResidentParamRows(e.group, tiling.out_blocks) : 1;
    isa::LoadInsn params;
    params.buffer = isa::LoadInsn::kParams;
    params.sram_addr = tiling.params_resident ? tiling.param_base : place.param_row;
    params.dram_addr = e.constants.params + (tiling.params_resident ? 0 : unit.ob) * out_lanes * 8;
    params.rows = 1;
    params.cols = rows;
    params.dram_stride = rows * out_lanes * 8;
    e.estimate.Load(rows * out_lanes * 8);
    load.Add(params);
  }
  if (!tiling.residual_per_window) LoadResiduals(e, unit, place, load);
  // Nothing to load (resident weights and params, no new window): a Load
  // of nothing carries the unit's tokens.
  if (load.insns.empty()) {
    isa::LoadInsn tokens;
    tokens.buffer = isa::LoadInsn::kFeatureMap;
    e.estimate.TokenLoad();
    load.Add(tokens);
  }
  const size_t waits_from = std::min(after_window, load.insns.size() - 1);
  e.estimate.LoadsWaitFrom(static_cast<int64_t>(waits_from));
  isa::DepsOf(load.insns[waits_from]).pop_next = place.index >= tiling.slots;
  load.Last().push_next = true;
  return load;
}

// The store engine's part of a pair's last chunk: the output tile, the
// pooled tile once its windows are complete, and the upsampled map of the
// last of them.
Batch EmitStores(const GroupEmitter& e, const Unit& unit, const UnitPlace& place,
                 int64_t pair_count) {
  const InnerProductGroup& g = e.group;
  const GroupLayouts& layouts = e.layouts;
  Batch store;
  if (!unit.last_chunk || !e.tiling.Stores(unit.pair)) return store;
  const int64_t out_lanes = e.buffers.out_lanes;
  if (const int64_t blocks = e.tiling.store_blocks; blocks > 1) {
    // The store group's every block, each pixel's in one beat
    // (StoreBlocks: the output stored as it is; the group one lane block).
    const int64_t k = unit.ob % blocks, c0 = (unit.ob - k) * out_lanes;
    const int64_t last_lanes = std::min(out_lanes, g.out_c - c0 - k * out_lanes);
    const int64_t acc_base = e.tiling.AccBase(unit.pair - k);
    TileRect rect{acc_base, unit.row.kept, unit.col.kept, unit.col.size};
    rect.extra_blocks = k;
    rect.block_lanes = out_lanes;
    if (g.PixelsPacked())  // blocks 0 to k: a packed pixel's pixels
      StorePackedPixels(g, *layouts.output, rect.acc_addr, rect.rows, rect.cols, rect.pitch,
                        unit.ob - k, unit.row.first, unit.col.first, e.estimate, store.insns, k);
    else if (g.pairs)  // blocks 0 to k: Co/2 channels of each pixel
      StorePixelPairs(g, *layouts.output, rect.acc_addr, rect.rows, rect.cols, rect.pitch,
                      unit.ob - k, unit.row.first, unit.col.first, e.estimate, store.insns, k);
    else if (g.store_output)
      StoreTile(*e.layouts.output, rect, c0, last_lanes, unit.row.first, unit.col.first, e.estimate,
                store.insns, OutputShape(e));
    if (g.pool && g.store_pool) {  // each block's pooled entries after its tile's
      PostTile tile;
      PlacePool(g, e.tiling, unit, acc_base, tile);
      TileRect pooled{tile.pool_base, tile.pool_rows, tile.pool_cols};
      pooled.extra_blocks = k;
      pooled.block_lanes = out_lanes;
      StoreTile(*layouts.pool, pooled, c0, last_lanes, tile.pool_y0, tile.pool_x0, e.estimate,
                store.insns);
    }
    if (store.insns.empty()) {  // no pixels: a Store of none carries the tokens
      isa::StoreInsn none;
      none.lanes = 1;
      store.Add(none);
    }
    store.First().pop_prev = true;
    store.Last().push_prev = e.tiling.StoreFrees(unit.pair, pair_count);
    return store;
  }
  const int64_t c0 = unit.ob * out_lanes, lanes = std::min(out_lanes, g.out_c - c0);
  const int64_t acc_base = place.acc_base;
  // The output tile's rows from `first`, of `rows` rows: with packed
  // pixels, output block ob is each packed pixel's pixel ob.
  const auto store_output = [&](int64_t first, int64_t rows) {
    const TileRect rect{acc_base + first * unit.col.size, rows, unit.col.kept, unit.col.size};
    if (g.PixelsPacked())
      StorePackedPixels(g, *layouts.output, rect.acc_addr, rect.rows, rect.cols, rect.pitch,
                        unit.ob, unit.row.first + first, unit.col.first, e.estimate, store.insns);
    else if (g.pairs)
      StorePixelPairs(g, *layouts.output, rect.acc_addr, rect.rows, rect.cols, rect.pitch, unit.ob,
                      unit.row.first + first, unit.col.first, e.estimate, store.insns);
    else
      StoreTile(*layouts.output, rect, c0, lanes, unit.row.first + first, unit.col.first,
                e.estimate, store.insns, OutputShape(e));
  };
  if (e.tiling.post_slices > 1) {
    // A slice's store waits for its post stages' token (PostSlicesFit: the
    // output is all there is to store).
    for (const auto& [first, end] :
         PostSliceRows(unit.row.size, unit.row.kept, e.tiling.post_slices)) {
      const size_t at = store.insns.size();
      const int64_t rows = std::min(end, unit.row.kept) - first;
      store_output(first, rows);
      if (store.insns.size() == at) {  // no pixels: a Store of none carries the token
        isa::StoreInsn none;
        none.lanes = 1;
        store.Add(none);
      }
      isa::DepsOf(store.insns[at]).pop_prev = true;
      e.estimate.EndStoreSlice();
    }
    store.Last().push_prev = e.tiling.StoreFrees(unit.pair, pair_count);
    return store;
  }
  if (g.Phases() > 1)
    StorePhases(g, *layouts.output, acc_base, unit.row.size, unit.col.size, unit.row.kept,
                unit.col.kept, c0, lanes, unit.row.first, unit.col.first, e.estimate, store.insns);
  else if (g.store_output)  // the pixels up to the next tile's (spans.h)
    store_output(0, unit.row.kept);
  if (g.upsampled != kNoTensor && !g.pool)
    StoreTile(*layouts.upsampled, {acc_base, unit.row.size, unit.col.size}, c0, lanes,
              unit.row.first, unit.col.first, e.estimate, store.insns, StoreShape::kUpsample);
  PostTile tile;
  if (g.pool) PlacePool(g, e.tiling, unit, acc_base, tile);
  const TileRect pooled{tile.pool_base, tile.pool_rows, tile.pool_cols};
  if (g.store_pool && tile.pool_last)
    StoreTile(*layouts.pool, pooled, c0, lanes, tile.pool_y0, tile.pool_x0, e.estimate,
              store.insns);
  if (g.upsampled != kNoTensor && g.pool && tile.pool_last)
    StoreTile(*layouts.upsampled, pooled, c0, lanes, tile.pool_y0, tile.pool_x0, e.estimate,
              store.insns, StoreShape::kUpsample);
  if (store.insns.empty()) {  // a global pool's tile before the last: a Store of no
    isa::StoreInsn none;      // pixels carries the pair's tokens
    none.lanes = 1;
    store.Add(none);
  }
  store.First().pop_prev = true;
  store.Last().push_prev = e.tiling.StoreFrees(unit.pair, pair_count);
  return store;
}

}  // namespace opuc::codegen
