//===- src/opu/codegen/emit.cc - Units, tokens and words ------------------===//
//
// Unit u uses weight half u % 2; the feature-map half alternates with each
// new input window (a tile, or a depthwise input block), the param and
// accumulator halves with each (tile, output block) pair. Tokens:
//
//   load(u), u >= 2:     pop compute->load (unit u-2 finished with its halves)
//   load(u) last:        push load->compute
//   compute(u) first:    pop load->compute; and, first chunk of pair p >= 2,
//                        pop store->compute (pair p-2 stored: its acc half is free)
//   compute(u) last:     push compute->load (u < U-2); push compute->store (last chunk)
//   store(p) first/last: pop compute->store / push store->compute (p < P-2)
//
// so every token pushed is popped. A half reused by unit u was last used by
// unit u-2 or earlier, which the pop proves finished.
//
//===----------------------------------------------------------------------===//
#include "emit.h"

#include <algorithm>

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

int64_t BlockBase(const ActivationLayout& l, int64_t plane, int64_t block) {
  return l.PixelAddress(plane, block, 0, 0);
}

// Where the pool of `unit`'s tile puts its entries (PostTile's pool_*).
void PlacePool(const InnerProductGroup& g, const Tiling& t, const Unit& unit, int64_t acc_base,
               PostTile& tile) {
  const PoolStep& pool = *g.pool;
  if (pool.global) {
    tile.pool_base = t.pool_sums + unit.ob;
    tile.pool_rows = tile.pool_cols = 1;
    tile.pool_accumulate = unit.row.first > 0 || unit.col.first > 0;
    tile.pool_last =
        unit.row.first + unit.row.size >= g.out_h && unit.col.first + unit.col.size >= g.out_w;
    return;
  }
  tile.pool_base = acc_base + t.tile_h * t.tile_w;
  tile.pool_rows = unit.row.pooled;
  tile.pool_cols = unit.col.pooled;
  tile.pool_y0 = unit.row.pooled_first;
  tile.pool_x0 = unit.col.pooled_first;
  tile.pool_pad_y = unit.row.pool_pad;
  tile.pool_pad_x = unit.col.pool_pad;
}

}  // namespace

Expected<PlannedStep> EmitInnerProduct(const InnerProductGroup& g, const Tiling& t,
                                       const HwConfig& hw, const ConstantPlacement& constants,
                                       const GroupLayouts& layouts) {
  const OpuBufferUnits u = BufferUnits(hw);
  const int64_t L = u.lanes, Co = u.out_lanes;
  const std::vector<Unit> units = Units(g, t, u);
  const auto U = static_cast<int64_t>(units.size());
  const int64_t P = units.back().pair + 1;
  CycleEstimate estimate(hw);
  std::vector<isa::Instruction> program;

  for (int64_t ui = 0; ui < U; ++ui) {
    const Unit& unit = units[static_cast<size_t>(ui)];
    const int64_t ih = t.InRows(g, unit.row.size), iw = t.InCols(g, unit.col.size);
    const int64_t fm_base = (unit.window % 2) * t.fm_half;
    const int64_t wgt_base = (ui % 2) * t.weight_half;
    const int64_t param_row = (unit.pair % 2) * t.param_half;
    const int64_t acc_base = (unit.pair % 2) * t.acc_half;
    estimate.BeginUnit();

    Batch load;
    // The table and the per-channel constants, for every unit.
    if (ui == 0 && t.table_rows > 0)
      load.Add(WholeRowsLoad(t.table_row, constants.table, t.table_rows, L, estimate));
    if (ui == 0 && t.constant_rows > 0)
      load.Add(
          WholeRowsLoad(t.constant_row, constants.channel_constants, t.constant_rows, L, estimate));
    if (unit.new_window) {
      const AxisLoad along_y = LoadAlong(unit.row.first * g.sy - g.pad_top, ih, g.in_h, g.gap_y);
      const AxisLoad along_x = LoadAlong(unit.col.first * g.sx - g.pad_left, iw, g.in_w, g.gap_x);
      const int64_t width = (g.in_w - 1) / g.gap_x + 1;  // of the input in DRAM
      for (int64_t p = 0; p < t.planes; ++p) {
        for (int64_t bl = 0; bl < t.blocks; ++bl) {
          isa::LoadInsn l;
          l.buffer = isa::LoadInsn::kFeatureMap;
          l.sram_addr = fm_base + (p * t.blocks + bl) * ih * iw;
          const InputBlockSource& from =
              t.sources[static_cast<size_t>(g.depthwise ? unit.in_block : bl)];
          l.dram_addr = BlockBase(*layouts.inputs[from.piece], p, from.block) +
                        (along_y.pixel * width + along_x.pixel) * L;
          l.rows = along_y.pixels;
          l.cols = along_x.pixels;
          l.dram_stride = width * L;
          l.pad_top = along_y.pad_before;
          l.pad_bottom = along_y.pad_after;
          l.pad_left = along_x.pad_before;
          l.pad_right = along_x.pad_after;
          l.zeros_y = g.gap_y - 1;
          l.zeros_x = g.gap_x - 1;
          // Zeros between the pixels read: the load engine writes the
          // window's every unit, a cycle each.
          const bool zeros = g.gap_y > 1 || g.gap_x > 1;
          estimate.Load(l.rows * l.cols * L, zeros ? ih * iw : 0);
          load.Add(l);
        }
      }
    }
    isa::LoadInsn w;
    const int64_t row_bytes = WeightRowBytes(g, u);
    w.buffer = isa::LoadInsn::kWeights;
    w.diagonal = CompactWeightRows(g, u);
    w.sram_addr = wgt_base;
    w.dram_addr = constants.weights + (unit.ob * t.rows_per_out_block + unit.first_row) * row_bytes;
    w.rows = 1;
    w.cols = unit.rows;
    w.dram_stride = unit.rows * row_bytes;
    estimate.Load(unit.rows * row_bytes);
    load.Add(w);
    if (unit.first_chunk) {
      isa::LoadInsn prm;
      prm.buffer = isa::LoadInsn::kParams;
      prm.sram_addr = param_row;
      prm.dram_addr = constants.params + unit.ob * Co * 8;
      prm.rows = prm.cols = 1;
      prm.dram_stride = Co * 8;
      estimate.Load(Co * 8);
      load.Add(prm);
    }
    // The residual tiles of the (tile, output block) pair, in the rows
    // after the window of feature-map half u % 2 (freed like the weights').
    // Lanes past a channel-padded residual's channels add 0, unloaded.
    const int64_t residual_base = (ui % 2) * t.fm_half + t.residual_row;
    // An i16 residual's low plane follows its high plane's rows (ResAdd reads
    // it `count` rows on).
    for (size_t k = 0; k < g.residuals.size() && unit.last_chunk; ++k) {
      if (!g.residuals[k].constant.empty() || g.residuals[k].channels <= unit.ob * Co) continue;
      const ActivationLayout& res = *layouts.residuals[k];
      for (int64_t p = 0; p < res.planes(); ++p) {
        isa::LoadInsn r;
        r.buffer = isa::LoadInsn::kFeatureMap;
        r.sram_addr = residual_base + ResidualTilesBefore(g, k) * t.tile_h * t.tile_w +
                      p * unit.row.size * unit.col.size;
        r.dram_addr = res.PixelAddress(p, unit.ob * Co / L, unit.row.first, unit.col.first);
        r.rows = unit.row.size;
        r.cols = unit.col.size;
        r.dram_stride = g.out_w * L;
        estimate.Load(unit.row.size * unit.col.size * L);
        load.Add(r);
      }
    }
    load.First().pop_next = ui >= 2;
    load.Last().push_next = true;

    Batch compute;
    for (int64_t r = unit.first_row; r < unit.first_row + unit.rows; ++r) {
      const int64_t tap = r / t.blocks, bl = r % t.blocks;
      const int64_t ky = tap / g.kw, kx = tap % g.kw;
      for (int64_t p = 0; p < t.planes; ++p) {
        isa::GemmInsn gm;
        gm.acc_addr = acc_base;
        gm.fm_addr = fm_base + (p * t.blocks + bl) * ih * iw + ky * g.dy * iw + kx * g.dx;
        gm.fm_pitch = iw;
        gm.wgt_addr = wgt_base + (r - unit.first_row);
        gm.param_addr = param_row;
        gm.out_rows = unit.row.size;
        gm.out_cols = unit.col.size;
        gm.stride_y = g.sy;
        gm.stride_x = g.sx;
        gm.init = unit.first_chunk && compute.insns.empty() ? isa::GemmInsn::kFromBias
                                                            : isa::GemmInsn::kAccumulate;
        gm.fm_unsigned = g.in_format == DType::kU8 || (t.planes == 2 && p == 1);
        gm.high_byte = t.planes == 2 && p == 0;
        estimate.Compute(unit.row.size * unit.col.size);
        compute.Add(gm);
      }
    }
    if (unit.last_chunk) {
      PostTile tile;
      tile.acc_base = acc_base;
      tile.param_row = param_row;
      tile.residual_row = residual_base;
      tile.residual_pitch = t.tile_h * t.tile_w;
      tile.residual_lane = (unit.ob * Co) % L;
      tile.c0 = unit.ob * Co;
      tile.co = Co;
      tile.table_row = t.table_row;
      tile.constant_row = t.constant_row;
      tile.lanes = L;
      tile.th = unit.row.size;
      tile.tw = unit.col.size;
      if (g.pool) PlacePool(g, t, unit, acc_base, tile);
      EmitPostStages(g, tile, estimate, compute.insns);
    }
    compute.First().pop_prev = true;
    compute.First().pop_next = unit.first_chunk && unit.pair >= 2;
    compute.Last().push_prev = ui < U - 2;
    compute.Last().push_next = unit.last_chunk;

    Batch store;
    if (unit.last_chunk) {
      const int64_t c0 = unit.ob * Co, lanes = std::min(Co, g.out_c - c0);
      if (g.store_output)  // the pixels up to the next tile's (spans.h)
        StoreTile(*layouts.output, {acc_base, unit.row.kept, unit.col.kept, unit.col.size}, c0,
                  lanes, unit.row.first, unit.col.first, estimate, store.insns);
      if (g.upsampled != kNoTensor && !g.pool)
        StoreTile(*layouts.upsampled, {acc_base, unit.row.size, unit.col.size}, c0, lanes,
                  unit.row.first, unit.col.first, estimate, store.insns, /*upsample=*/true);
      PostTile tile;
      if (g.pool) PlacePool(g, t, unit, acc_base, tile);
      const TileRect pooled{tile.pool_base, tile.pool_rows, tile.pool_cols};
      if (g.store_pool && tile.pool_last)
        StoreTile(*layouts.pool, pooled, c0, lanes, tile.pool_y0, tile.pool_x0, estimate,
                  store.insns);
      if (g.upsampled != kNoTensor && g.pool && tile.pool_last)
        StoreTile(*layouts.upsampled, pooled, c0, lanes, tile.pool_y0, tile.pool_x0, estimate,
                  store.insns, /*upsample=*/true);
      if (store.insns.empty()) {  // a global pool's tile before the last: a Store of no
        isa::StoreInsn none;      // pixels carries the pair's tokens
        none.lanes = 1;
        store.Add(none);
      }
      store.First().pop_prev = true;
      store.Last().push_prev = unit.pair < P - 2;
    }
    for (Batch* batch : {&load, &compute, &store})
      for (isa::Instruction& insn : batch->insns) program.push_back(std::move(insn));
  }

  PlannedStep code;
  code.kind = StepKind::kOpu;
  code.group = g.group;
  code.tiling = t.Text(g);
  code.estimated_cycles = estimate.Total();
  for (size_t i = 0; i < program.size(); ++i) {
    Expected<isa::Word> word = isa::Encode(program[i]);
    if (!word.ok()) return word.status().WithContext(Cat(g.what, ": instruction ", i));
    code.words.push_back(*word);
  }
  return code;
}

}  // namespace opuc::codegen
