//===- src/codegen/emit.cc - Units, tokens and words ------------------===//
//
// With S = Tiling::slots (2 or more: UnitSlots), unit u uses weight slot
// u % S and pair p param slot p % S; the feature-map half alternates with
// each new input window (a tile, or a depthwise input block), the
// accumulator region with each (tile, output block) pair. Tokens:
//
//   load(u), u >= S:     pop compute->load (unit u-S finished with its slots),
//                        on its first load into a slot unit u-S used: a new
//                        window's loads go before it when the window two
//                        before ended by unit u-S-1 (the pops before proved it)
//   load(u) last:        push load->compute
//   compute(u) first:    pop load->compute; and, first chunk of pair p >= R,
//                        pop store->compute (pair p-R stored: its acc region is free)
//   compute(u) last:     push compute->load (u < U-S); push compute->store (last chunk)
//   store(p) first/last: pop compute->store / push store->compute (p < P-R)
//
// With whole-pixel stores (Tiling::store_blocks) only a store group's last
// block pushes compute->store, for the group's one Store, which frees every
// block's region: the group two after waits for it at its first block.
//
// R is Tiling::acc_regions (2: the accumulator's halves; 4: their quarters,
// where the RTL's bank rule holds pair p's Gemms until pair p-2's post
// stages are done, and the store of p-2 reads a quarter they do not write).
//
// With post slices (Tiling::post_slices) the last chunk's stages push
// compute->store at the end of each slice, and the pair's store pops one at
// the start of each.
//
// so every token pushed is popped. A slot reused by unit u was last used by
// unit u-S or earlier, which the pop proves finished; a window's half by
// unit u-S or earlier too (UnitSlots).
//
#include "emit.h"

#include <algorithm>
#include <optional>

#include "depthwise_window.h"
#include "run_order.h"
#include "support/format.h"
#include "transfers.h"
#include "unit_emitter.h"

namespace opuc::codegen {
namespace {

UnitPlace PlaceUnit(const GroupEmitter& e, const Unit& unit, int64_t index) {
  const Tiling& tiling = e.tiling;
  UnitPlace place;
  place.index = index;
  place.in_rows = tiling.InRows(e.group, unit.row.size);
  place.in_cols = tiling.InCols(e.group, unit.col.size);
  place.fm_base = (unit.window % tiling.fm_slots) * tiling.fm_slot_rows;
  const int64_t slots = tiling.slots;
  place.weight_base = tiling.weights_resident ? unit.ob * tiling.rows_per_out_block
                                              : index % slots * (e.buffers.weight_rows / slots);
  place.param_row = tiling.params_resident ? tiling.param_base + unit.ob
                                           : unit.pair % slots * (e.buffers.param_rows / slots);
  place.acc_base = tiling.AccBase(unit.pair);
  // Residual tiles loaded per pair keep the unit's half (FmQuarters leaves
  // such tilings two slots).
  place.residual_base = (index % 2) * tiling.fm_slot_rows + tiling.residual_row;
  if (tiling.residual_per_window)
    place.residual_base =
        WindowResidualBase(e, place.fm_base, unit.ob * e.buffers.out_lanes / e.buffers.lanes);
  return place;
}

}  // namespace

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

namespace {

// The compute engine's part of a unit: a Gemm per weight row and plane,
// then (last chunk) the stages after the inner product.
Batch EmitCompute(const GroupEmitter& e, const Unit& unit, const UnitPlace& place,
                  int64_t unit_count) {
  const InnerProductGroup& g = e.group;
  const Tiling& tiling = e.tiling;
  const int64_t lanes = e.buffers.lanes, out_lanes = e.buffers.out_lanes;
  Batch compute;
  // Block pairs: a pair's first block's Gemm computes the second's too.
  const int64_t gemm_rows = GemmRows(tiling, unit);
  for (int64_t row = unit.first_row; row < unit.first_row + gemm_rows; ++row) {
    const int64_t tap = row / tiling.blocks, block = row % tiling.blocks;
    // A depthwise window's row starts at its first kernel row.
    const bool window = g.window_rows > 0;
    const int64_t ky = window ? row * g.window_rows : tap / g.kw, kx = window ? 0 : tap % g.kw;
    // A phased tile's taps each fill a sub-tile of their own (phases.h).
    const int64_t sub =
        g.Phases() > 1 ? (ky * g.phases_x + kx % g.phases_x) * unit.row.size * unit.col.size : 0;
    // An i16 input runs as two planes (the high bytes, signed, counting 256
    // times, then the low bytes, unsigned), or interleaved, a pixel's two
    // rows read whole in one.
    const int64_t passes = g.i16_whole ? 1 : tiling.planes;
    const int64_t spread = g.i16_whole ? 2 : 1;  // rows a pixel of a block takes
    for (int64_t plane = 0; plane < passes; ++plane) {
      isa::GemmInsn gemm;
      gemm.acc_addr = place.acc_base + sub;
      gemm.fm_addr = place.fm_base +
                     (plane * tiling.blocks + block) * spread * place.in_rows * place.in_cols +
                     spread * (ky * g.dy * place.in_cols + kx * g.dx);
      gemm.fm_pitch = spread * place.in_cols;
      if (e.layouts.input_fm_row >= 0) {  // a chained pair's map, block after block, on chip
        gemm.fm_addr = e.layouts.input_fm_row + block * g.in_h * g.in_w +
                       (unit.row.first * g.sy + ky * g.dy) * g.in_w + unit.col.first * g.sx +
                       kx * g.dx;
        gemm.fm_pitch = g.in_w;
      }
      gemm.wgt_addr = place.weight_base + (row - unit.first_row);
      gemm.param_addr = place.param_row;
      gemm.out_rows = unit.row.size;
      gemm.out_cols = unit.col.size;
      gemm.stride_y = g.sy;
      gemm.stride_x = g.sx;  // pixels, each `spread` rows
      const bool first = g.Phases() > 1
                             ? block == 0 && plane == 0 && kx < g.phases_x  // a sub-tile's first
                             : unit.first_chunk && compute.insns.empty();
      gemm.init = first ? isa::GemmInsn::kFromBias : isa::GemmInsn::kAccumulate;
      gemm.operand = g.i16_whole                                       ? isa::GemmInsn::kI16
                     : tiling.planes == 2 && plane == 0                ? isa::GemmInsn::kHigh
                     : g.in_format == DType::kU8 || tiling.planes == 2 ? isa::GemmInsn::kU8
                                                                       : isa::GemmInsn::kI8;
      if (window) {
        gemm.depthwise = true;
        gemm.window_h = std::min(g.window_rows, g.kh - ky) - 1;
        gemm.window_w = g.kw - 1;
        gemm.lane = (unit.ob * out_lanes / g.multiplier) % lanes;
        gemm.pair_rows = g.multiplier == 2;
        // Two output pixels a cycle over an even row from an even entry.
        if (g.window_pairs && gemm.init == isa::GemmInsn::kFromBias && gemm.out_cols % 2 == 0 &&
            gemm.acc_addr % 2 == 0) {
          isa::GemmInsn pairs = gemm;
          pairs.init = isa::GemmInsn::kPairsFromBias;
          pairs.window_w = g.kw;
          if (GemmUsesLines(pairs, e.depthwise_line)) gemm = pairs;
        }
        // Two blocks a Gemm: the pair's biases from its bias-pair row.
        if (tiling.FirstOfPair(unit.pair) && gemm.init == isa::GemmInsn::kFromBias) {
          isa::GemmInsn pairs = gemm;
          pairs.init = isa::GemmInsn::kPairsFromBias;
          pairs.param_addr = tiling.param_base + tiling.out_blocks + unit.ob / 2;
          if (GemmUsesLines(pairs, e.depthwise_line)) gemm = pairs;
        }
        e.line_carry.Place(gemm, unit, plane);
      }
      // Pointwise in pairs: every Gemm of the group (DensePairsFit).
      if (g.dense_pairs) gemm.init = isa::GemmInsn::kPairsFromBias;
      e.estimate.Compute(window          ? WindowGemmCycles(gemm, e.depthwise_line)
                         : g.dense_pairs ? unit.row.size * unit.col.size / 2
                                         : unit.row.size * unit.col.size,
                         gemm.acc_addr, gemm.acc_addr + gemm.out_rows * gemm.out_cols);
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
    // Packed pixels: every output block holds the same channels.
    tile.c0 = g.PixelsPacked() ? 0 : unit.ob * out_lanes;
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
  compute.First().pop_next = unit.first_chunk && tiling.WaitsForStore(unit.pair);
  // The token that frees the unit's buffers for the loads `slots` units on:
  // its last Gemm's, or its last instruction's (a post stage reads them).
  isa::Instruction* frees = &compute.insns.back();
  if (tiling.frees_at_gemm) {
    for (isa::Instruction& insn : compute.insns)
      if (std::holds_alternative<isa::GemmInsn>(insn)) frees = &insn;
    e.estimate.FreesAtGemm();
  }
  isa::DepsOf(*frees).push_prev = place.index < unit_count - tiling.slots;
  compute.Last().push_next = unit.last_chunk && tiling.Stores(unit.pair);
  return compute;
}

// The rows at the top of a window that every Gemm of `compute` takes from
// its line slot (Gemm.carry: window_h + 1 - stride_y of them), or 0 where
// one reads them from the window.
int64_t CarriedRows(const Batch& compute) {
  int64_t rows = -1;
  for (const isa::Instruction& insn : compute.insns) {
    const auto* gemm = std::get_if<isa::GemmInsn>(&insn);
    if (gemm == nullptr) continue;
    if (!gemm->carry) return 0;
    const int64_t carried = gemm->window_h + 1 - gemm->stride_y;
    rows = rows < 0 ? carried : std::min(rows, carried);
  }
  return std::max<int64_t>(rows, 0);
}

// The rows of unit `index`'s new window that every Gemm reading it (its
// units') takes from its line slot: those Gemms worked out ahead on a copy
// of the slots' state, as the emission that follows will make them.
int64_t WindowCarriedRows(const GroupEmitter& e, const HwConfig& hw, const std::vector<Unit>& units,
                          int64_t index) {
  LineCarry lines = e.line_carry;
  CycleEstimate scratch(hw);
  const GroupEmitter ahead{e.group,     e.tiling,  e.buffers, e.depthwise_line,
                           e.constants, e.layouts, scratch,   lines};
  const auto count = static_cast<int64_t>(units.size());
  const int64_t window = units[static_cast<size_t>(index)].window;
  int64_t rows = -1;
  for (int64_t v = index; v < count && units[static_cast<size_t>(v)].window == window; ++v) {
    const Unit& unit = units[static_cast<size_t>(v)];
    scratch.BeginUnit();
    const int64_t carried = CarriedRows(EmitCompute(ahead, unit, PlaceUnit(ahead, unit, v), count));
    if (carried == 0) return 0;
    rows = rows < 0 ? carried : std::min(rows, carried);
  }
  return std::max<int64_t>(rows, 0);
}

}  // namespace

namespace {

// A group's units into `program` (none: the estimate alone) and
// `estimate`, after the units already there (a run's groups before:
// `order`), the group `followed` by another in the program or not; the
// tiling as emitted.
Tiling EmitUnits(const InnerProductGroup& group, const Tiling& searched, const HwConfig& hw,
                 const ConstantPlacement& constants, const GroupLayouts& layouts,
                 CycleEstimate& estimate, std::vector<isa::Instruction>* program, RunOrder& order,
                 bool followed) {
  const OpuBufferUnits buffers = BufferUnits(hw);
  Tiling tiling = searched;
  const std::vector<Unit> units = Units(group, tiling, buffers);
  const bool loads_windows = layouts.input_fm_row < 0;
  // Resident params where every block's row fits (a unit with nothing
  // left to load carries its tokens on a Load of nothing).
  const int64_t param_rows = ResidentParamRows(group, tiling.out_blocks);
  tiling.params_resident = param_rows <= buffers.param_rows;
  if (tiling.params_resident) tiling.param_base = ClearParamBase(order, param_rows, buffers);
  tiling.frees_at_gemm = tiling.params_resident &&
                         std::all_of(group.residuals.begin(), group.residuals.end(),
                                     [](const ResidualStep& r) { return !r.constant.empty(); });
  tiling.slots = UnitSlots(group, tiling, units, buffers, searched.slots);
  // A chained pair's second group (docs/codegen.md, "Chained pairs"):
  // its first loads wait for the first group's last computation, its first
  // Gemms for its last Store.
  const int64_t before = estimate.UnitCount();
  if (before > 0) estimate.BeginGroup();
  estimate.AccRegions(tiling.acc_regions);
  estimate.UnitSlots(tiling.slots);
  LineCarry line_carry(group, tiling, buffers);
  const GroupEmitter emitter{group,     tiling,  buffers,  hw.ipa.depthwise_line,
                             constants, layouts, estimate, line_carry};
  const auto unit_count = static_cast<int64_t>(units.size());
  estimate.Reserve(unit_count);
  const int64_t pair_count = units.back().pair + 1;
  std::vector<int64_t> stored_by(static_cast<size_t>(pair_count), -1);  // a pair's last unit
  for (int64_t index = 0; index < unit_count; ++index) {
    const Unit& unit = units[static_cast<size_t>(index)];
    const UnitPlace place = PlaceUnit(emitter, unit, index);
    estimate.BeginUnit();
    if (unit.last_chunk) stored_by[static_cast<size_t>(unit.pair)] = before + index;
    // The bank rule: a block pair's Gemm writes both banks, so it waits
    // for every post stage before; the second block's unit has no Gemm.
    if (tiling.FirstOfPair(unit.pair)) estimate.BankWait(1);
    if (tiling.SecondOfPair(unit.pair)) estimate.BankWait(0);
    if (tiling.store_blocks > 1)  // the Store of the store group store_depth before
      estimate.StoreWait(unit.first_chunk && tiling.WaitsForStore(unit.pair)
                             ? stored_by[static_cast<size_t>(tiling.GroupLastPair(
                                   tiling.StoreGroup(unit.pair) - tiling.store_depth))]
                         : index == 0 && before > 0 ? before - 1
                                                    : -1);
    // A new window's slot was last read by the window fm_slots before,
    // whose last unit the pops of the loads before proved finished when it
    // is slots + 1 or more units back.
    int64_t last_before = -1;  // the last unit of window unit.window - fm_slots
    for (int64_t v = index - 1; v >= 0 && last_before < 0; --v)
      if (units[static_cast<size_t>(v)].window <= unit.window - tiling.fm_slots) last_before = v;
    const bool window_free =
        unit.new_window && loads_windows && last_before <= index - 1 - tiling.slots;
    // Where every Gemm reading a new window carries the rows above its tile
    // (line_carry.h), the window's load skips them.
    const int64_t carried = unit.new_window && emitter.group.window_rows > 0
                                ? WindowCarriedRows(emitter, hw, units, index)
                                : 0;
    Batch load = EmitLoads(emitter, unit, place, window_free, carried);
    Batch compute = EmitCompute(emitter, unit, place, unit_count);
    Batch store = EmitStores(emitter, unit, place, pair_count);
    if (index == 0 && before > 0) {  // the seam: the tokens the group before gave
      const size_t seam_load = SeamLoad(buffers, load, order);
      isa::DepsOf(load.insns[seam_load]).pop_next = true;
      estimate.LoadsWaitFrom(static_cast<int64_t>(seam_load));
      compute.First().pop_next = true;
    }
    // Only a seam reads them: the last units of a group another follows.
    if (followed && index + static_cast<int64_t>(kSeamUnits) >= unit_count)
      NoteUnitReads(buffers, compute, order);
    if (index == unit_count - 1 && followed) {  // ... and gives them
      compute.Last().push_prev = true;
      store.Last().push_prev = true;
    }
    FenceLoads(buffers, order, estimate, load);
    CountStores(buffers, store, order);
    if (program != nullptr)
      NoteSeam(buffers, index == unit_count - 1 && followed, load, compute,
               static_cast<int64_t>(program->size()), estimate, *program, order);
    estimate.Fetch(
        static_cast<int64_t>(load.insns.size() + compute.insns.size() + store.insns.size()));
    for (Batch* batch : {&load, &compute, &store})
      if (program != nullptr)
        for (isa::Instruction& insn : batch->insns) program->push_back(std::move(insn));
  }
  return tiling;
}

Expected<PlannedStep> Encoded(const std::vector<isa::Instruction>& program, std::string what) {
  PlannedStep step;
  step.kind = StepKind::kOpu;
  for (size_t i = 0; i < program.size(); ++i) {
    Expected<isa::Word> word = isa::Encode(program[i]);
    if (!word.ok()) return word.status().WithContext(Cat(what, ": instruction ", i));
    step.words.push_back(*word);
  }
  return step;
}

}  // namespace

Expected<PlannedStep> EmitInnerProduct(const InnerProductGroup& group, const Tiling& searched,
                                       const HwConfig& hw, const ConstantPlacement& constants,
                                       const GroupLayouts& layouts, bool prefetched, bool words) {
  CycleEstimate estimate(hw);
  if (prefetched) estimate.Prefetched(CycleEstimate::PrefetchWords(BufferUnits(hw).lanes));
  std::vector<isa::Instruction> program;
  RunOrder order;
  const Tiling tiling = EmitUnits(group, searched, hw, constants, layouts, estimate,
                                  words ? &program : nullptr, order, false);
  OPUC_ASSIGN_OR_RETURN(PlannedStep step, Encoded(program, group.what));
  step.group = group.group;
  step.tiling = tiling.Text(group);
  step.estimated_cycles = estimate.Total();
  return step;
}

Expected<PlannedStep> EmitRun(const std::vector<RunGroup>& groups, const HwConfig& hw,
                              bool prefetched) {
  CycleEstimate estimate(hw);
  if (prefetched) estimate.Prefetched(CycleEstimate::PrefetchWords(BufferUnits(hw).lanes));
  std::vector<isa::Instruction> program;
  RunOrder order;
  std::string text, what;
  std::vector<PlannedStep::Part> parts;
  std::vector<size_t> last_units;  // each group's last, in the estimate
  for (size_t i = 0; i < groups.size(); ++i) {
    const RunGroup& g = groups[i];
    const size_t before = program.size();
    const Tiling tiling = EmitUnits(g.group, g.tiling, hw, g.constants, g.layouts, estimate,
                                    &program, order, i + 1 < groups.size());
    parts.push_back({g.group.group, static_cast<int64_t>(program.size() - before), 0});
    last_units.push_back(static_cast<size_t>(estimate.UnitCount() - 1));
    text += Cat(i > 0 ? "; then " : "", tiling.Text(g.group));
    what += Cat(i > 0 ? " then " : "", g.group.what);
  }
  if (order.early) SettleSeam(order, estimate, program);  // the last group's seam
  OPUC_ASSIGN_OR_RETURN(PlannedStep step, Encoded(program, what));
  step.group = groups.back().group.group;
  step.tiling = text;
  std::vector<int64_t> ends;
  step.estimated_cycles = estimate.Total(&ends);
  // A group ends with its last store, or a store of a group before it.
  int64_t done = 0, end = 0;
  for (size_t k = 0, u = 0; k < parts.size(); ++k) {
    for (; u <= last_units[k] && u < ends.size(); ++u) end = std::max(end, ends[u]);
    parts[k].estimated_cycles = end - done;
    done = end;
  }
  step.parts = std::move(parts);
  return step;
}

}  // namespace opuc::codegen
