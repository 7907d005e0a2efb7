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

#include "estimate.h"
#include "support/format.h"

namespace opuc::codegen {
namespace {

struct Unit {
  int64_t y0, x0, th, tw;   // output tile
  int64_t ob;               // output block
  int64_t first_row, rows;  // weight chunk, within the output block
  int64_t pair;             // (tile, output block) index
  int64_t window;           // input window index (feature-map half)
  bool new_window, first_chunk, last_chunk;
  int64_t in_block;  // depthwise: the input block
};

std::vector<Unit> Units(const InnerProductGroup& g, const Tiling& t, const OpuBufferUnits& u) {
  std::vector<Unit> units;
  int64_t pair = 0, window = -1, last_block = -1;
  for (int64_t y0 = 0; y0 < g.out_h; y0 += t.tile_h) {
    for (int64_t x0 = 0; x0 < g.out_w; x0 += t.tile_w) {
      last_block = -1;
      for (int64_t ob = 0; ob < t.out_blocks; ++ob, ++pair) {
        const int64_t block = InputBlock(g, u, ob, 0);
        const bool new_window = last_block < 0 || (g.depthwise && block != last_block);
        if (new_window) ++window;
        last_block = block;
        for (int64_t r = 0; r < t.rows_per_out_block; r += t.chunk_rows) {
          Unit unit{y0,
                    x0,
                    std::min(t.tile_h, g.out_h - y0),
                    std::min(t.tile_w, g.out_w - x0),
                    ob,
                    r,
                    std::min(t.chunk_rows, t.rows_per_out_block - r),
                    pair,
                    window,
                    new_window && r == 0,
                    r == 0,
                    r + t.chunk_rows >= t.rows_per_out_block,
                    block};
          units.push_back(unit);
        }
      }
    }
  }
  return units;
}

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

}  // namespace

Expected<OpuGroupCode> EmitInnerProduct(const InnerProductGroup& g, const Tiling& t,
                                        const HwConfig& hw, const ConstantPlacement& constants,
                                        const ActivationLayout& in, const ActivationLayout& out,
                                        const ActivationLayout* residual) {
  const OpuBufferUnits u = BufferUnits(hw);
  const int64_t L = u.lanes, Co = u.out_lanes;
  const std::vector<Unit> units = Units(g, t, u);
  const auto U = static_cast<int64_t>(units.size());
  const int64_t P = units.back().pair + 1;
  CycleEstimate estimate(hw);
  std::vector<isa::Instruction> program;

  for (int64_t ui = 0; ui < U; ++ui) {
    const Unit& unit = units[static_cast<size_t>(ui)];
    const int64_t ih = t.InRows(g, unit.th), iw = t.InCols(g, unit.tw);
    const int64_t fm_base = (unit.window % 2) * t.fm_half;
    const int64_t wgt_base = (ui % 2) * t.weight_half;
    const int64_t param_row = (unit.pair % 2) * t.param_half;
    const int64_t acc_base = (unit.pair % 2) * t.acc_half;
    estimate.BeginUnit();

    Batch load;
    if (unit.new_window) {
      const int64_t iy0 = unit.y0 * g.sy - g.pad_top, ix0 = unit.x0 * g.sx - g.pad_left;
      const int64_t r0 = std::max<int64_t>(0, iy0), r1 = std::min(g.in_h, iy0 + ih);
      const int64_t c0 = std::max<int64_t>(0, ix0), c1 = std::min(g.in_w, ix0 + iw);
      const int64_t rows = std::max<int64_t>(0, r1 - r0), cols = std::max<int64_t>(0, c1 - c0);
      for (int64_t p = 0; p < t.planes; ++p) {
        for (int64_t bl = 0; bl < t.blocks; ++bl) {
          isa::LoadInsn l;
          l.buffer = 0;
          l.sram_addr = fm_base + (p * t.blocks + bl) * ih * iw;
          l.dram_addr = BlockBase(in, p, g.depthwise ? unit.in_block : bl) + (r0 * g.in_w + c0) * L;
          l.rows = rows;
          l.cols = cols;
          l.dram_stride = g.in_w * L;
          l.pad_top = rows > 0 ? r0 - iy0 : ih;
          l.pad_bottom = rows > 0 ? iy0 + ih - r1 : 0;
          l.pad_left = cols > 0 ? c0 - ix0 : iw;
          l.pad_right = cols > 0 ? ix0 + iw - c1 : 0;
          estimate.Load(rows * cols * L);
          load.Add(l);
        }
      }
    }
    isa::LoadInsn w;
    w.buffer = 1;
    w.sram_addr = wgt_base;
    w.dram_addr = constants.weights + (unit.ob * t.rows_per_out_block + unit.first_row) * Co * L;
    w.rows = 1;
    w.cols = unit.rows;
    w.dram_stride = unit.rows * Co * L;
    estimate.Load(unit.rows * Co * L);
    load.Add(w);
    if (unit.first_chunk) {
      isa::LoadInsn prm;
      prm.buffer = 2;
      prm.sram_addr = param_row;
      prm.dram_addr = constants.params + unit.ob * Co * 8;
      prm.rows = prm.cols = 1;
      prm.dram_stride = Co * 8;
      estimate.Load(Co * 8);
      load.Add(prm);
    }
    // The residual tile of the (tile, output block) pair, in the rows
    // after the window of feature-map half u % 2 (freed like the weights').
    const int64_t residual_base = (ui % 2) * t.fm_half + t.residual_row;
    if (unit.last_chunk && g.residual) {
      isa::LoadInsn r;
      r.buffer = 0;
      r.sram_addr = residual_base;
      r.dram_addr = residual->PixelAddress(0, unit.ob * Co / L, unit.y0, unit.x0);
      r.rows = unit.th;
      r.cols = unit.tw;
      r.dram_stride = g.out_w * L;
      estimate.Load(unit.th * unit.tw * L);
      load.Add(r);
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
        gm.out_rows = unit.th;
        gm.out_cols = unit.tw;
        gm.stride_y = g.sy;
        gm.stride_x = g.sx;
        gm.init = unit.first_chunk && compute.insns.empty() ? 1 : 0;
        gm.fm_unsigned = g.in_format == DType::kU8 || (t.planes == 2 && p == 1);
        gm.high_byte = t.planes == 2 && p == 0;
        estimate.Compute(unit.th * unit.tw);
        compute.Add(gm);
      }
    }
    const int64_t entries = unit.th * unit.tw;
    if (unit.last_chunk) {
      isa::OutputInsn o;
      o.acc_addr = acc_base;
      o.count = entries;
      o.param_addr = param_row;
      o.lo = g.lo;
      o.hi = g.hi;
      compute.Add(o);
      estimate.Compute(entries);
      for (const PostStep& step : g.post) {
        estimate.Compute(entries);
        if (step.kind == PostStep::kPRelu) {
          isa::PReluInsn pr;
          pr.acc_addr = acc_base;
          pr.count = entries;
          pr.param_addr = param_row;
          pr.pos_shift = step.clamp.shift;
          pr.neg_shift = step.neg_shift;
          pr.lo = step.clamp.lo;
          pr.hi = step.clamp.hi;
          compute.Add(pr);
          continue;
        }
        if (step.kind == PostStep::kResidual) {
          const ResidualStep& r = *g.residual;
          isa::ResAddInsn ra;
          ra.acc_addr = acc_base;
          ra.count = entries;
          ra.res_addr = residual_base;
          ra.res_lane = (unit.ob * Co) % L;
          ra.res_unsigned = r.is_unsigned;
          ra.acc_shift = r.acc_shift;
          ra.res_shift = r.res_shift;
          ra.out_shift = r.out_shift;
          ra.lo = r.lo;
          ra.hi = r.hi;
          compute.Add(ra);
          continue;
        }
        isa::ClampInsn cl;
        cl.acc_addr = acc_base;
        cl.count = entries;
        cl.shift = step.clamp.shift;
        cl.lo = step.clamp.lo;
        cl.hi = step.clamp.hi;
        compute.Add(cl);
      }
    }
    compute.First().pop_prev = true;
    compute.First().pop_next = unit.first_chunk && unit.pair >= 2;
    compute.Last().push_prev = ui < U - 2;
    compute.Last().push_next = unit.last_chunk;

    Batch store;
    if (unit.last_chunk) {
      const int64_t c0 = unit.ob * Co;
      const int64_t planes = out.planes();
      for (int64_t p = 0; p < planes; ++p) {
        isa::StoreInsn s;
        s.acc_addr = acc_base;
        s.acc_pitch = unit.tw;
        s.rows = unit.th;
        s.cols = unit.tw;
        s.lanes = std::min(Co, g.out_c - c0);
        s.dram_addr = BlockBase(out, p, c0 / L) + (unit.y0 * g.out_w + unit.x0) * L + c0 % L;
        s.dram_stride = g.out_w * L;
        s.high_byte = planes == 2 && p == 0;
        estimate.Store(entries * s.lanes);
        store.Add(s);
      }
      store.First().pop_prev = true;
      store.Last().push_prev = unit.pair < P - 2;
    }
    for (Batch* batch : {&load, &compute, &store})
      for (isa::Instruction& insn : batch->insns) program.push_back(std::move(insn));
  }

  OpuGroupCode code;
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
