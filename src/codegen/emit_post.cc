//===- src/codegen/emit_post.cc - The stages after the inner product --===//
//
// Over one tile in the accumulator, in the group's order: the output stage,
// each compare stage (clamp, prelu, table) or residual add, then a pool into its own entries
// (with the Average that divides its sums, or the Clamp that requantizes a
// max when it changes anything).
//
//===----------------------------------------------------------------------===//
#include "emit.h"

#include <algorithm>
#include <type_traits>
#include <variant>

namespace opuc::codegen {
namespace {

// The ISA's code for an operand's format: Table's in_format, ResAdd's
// res_format (both name kI8, kU8 and kI16).
template <typename Insn>
int64_t FormatCode(DType format) {
  return format == DType::kI16 ? Insn::kI16 : format == DType::kU8 ? Insn::kU8 : Insn::kI8;
}

isa::ClampInsn Clamp(int64_t acc_addr, int64_t count, const ClampStep& step) {
  isa::ClampInsn cl;
  cl.acc_addr = acc_addr;
  cl.count = count;
  cl.shift = step.shift;
  cl.lo = step.lo;
  cl.hi = step.hi;
  return cl;
}

// The stage's entries: Output, Clamp, PRelu, Table and ResAdd are `count`
// entries from `acc_addr`; Pool and Average are not streamed.
struct Stream {
  bool ok = false;
  int64_t acc_addr = 0, count = 0, param_addr = -1;  ///< param_addr: Output's or PRelu's.
  bool residual = false, table = false;
};
Stream StreamOf(const isa::Instruction& insn) {
  return std::visit(
      [](const auto& i) {
        using T = std::decay_t<decltype(i)>;
        Stream s;
        if constexpr (std::is_same_v<T, isa::OutputInsn> || std::is_same_v<T, isa::ClampInsn> ||
                      std::is_same_v<T, isa::PReluInsn> || std::is_same_v<T, isa::TableInsn> ||
                      std::is_same_v<T, isa::ResAddInsn>) {
          s = {true,
               i.acc_addr,
               i.count,
               -1,
               std::is_same_v<T, isa::ResAddInsn>,
               std::is_same_v<T, isa::TableInsn>};
          if constexpr (std::is_same_v<T, isa::OutputInsn> || std::is_same_v<T, isa::PReluInsn>)
            s.param_addr = i.param_addr;
        }
        return s;
      },
      insn);
}

// Whether `next` streams through the RTL's post side in the same pass as
// `pass` (hw/rtl/opu_compute_engine.sv: up to three stages over the same
// entries, one ResAdd and one Table at most, the param-reading ones on one
// row; codegen gives tokens only on a unit's last instruction).
bool JoinsPass(const std::vector<Stream>& pass, const Stream& next) {
  if (pass.empty() || pass.size() >= 3 || !pass.front().ok || !next.ok) return false;
  for (const Stream& s : pass) {
    if (s.acc_addr != next.acc_addr || s.count != next.count) return false;
    if ((s.residual && next.residual) || (s.table && next.table)) return false;
    if (s.param_addr >= 0 && next.param_addr >= 0 && s.param_addr != next.param_addr) return false;
  }
  return true;
}

// The taps along one axis of window `i`, which starts `pad` pixels before
// pixel 0 of `extent`: those inside.
int64_t Taps(int64_t i, int64_t size, int64_t stride, int64_t pad, int64_t extent) {
  const int64_t start = i * stride - pad;
  return std::min(extent, start + size) - std::max<int64_t>(0, start);
}

// The source entries a pool's windows read along one axis of a tile.
int64_t WindowTaps(int64_t windows, int64_t size, int64_t stride, int64_t pad, int64_t extent) {
  int64_t taps = 0;
  for (int64_t w = 0; w < windows; ++w) taps += Taps(w, size, stride, pad, extent);
  return taps;
}

// Average over the pooled entries, one instruction per rectangle of
// windows with the same taps (the interior; the first and last rows and
// columns when the map's edges cut them: nine at most).
void EmitAverages(const InnerProductGroup& g, const PostTile& tile, CycleEstimate& estimate,
                  std::vector<isa::Instruction>& out) {
  const PoolStep& pool = *g.pool;
  const auto taps_y = [&](int64_t i) {
    return Taps(tile.pool_y0 + i, pool.kh, pool.sy, pool.pad_top, g.out_h);
  };
  const auto taps_x = [&](int64_t i) {
    return Taps(tile.pool_x0 + i, pool.kw, pool.sx, pool.pad_left, g.out_w);
  };
  for (int64_t r = 0; r < tile.pool_rows;) {
    const int64_t ry = taps_y(r);
    int64_t r1 = r + 1;
    while (r1 < tile.pool_rows && taps_y(r1) == ry) ++r1;
    for (int64_t c = 0; c < tile.pool_cols;) {
      const int64_t rx = taps_x(c);
      int64_t c1 = c + 1;
      while (c1 < tile.pool_cols && taps_x(c1) == rx) ++c1;
      isa::AverageInsn avg;
      avg.acc_addr = tile.pool_base + r * tile.pool_cols + c;
      avg.rows = r1 - r;
      avg.cols = c1 - c;
      avg.pitch = tile.pool_cols;
      avg.count = ry * rx;
      avg.shift = pool.clamp.shift;
      avg.lo = pool.clamp.lo;
      avg.hi = pool.clamp.hi;
      estimate.Post(avg.rows * avg.cols + CycleEstimate::kAverageSetupCycles, false,
                    CycleEstimate::kAverageCycles);
      out.push_back(avg);
      c = c1;
    }
    r = r1;
  }
}

// The pool into its own entries, then (once every tap is in) the division
// of an average or the Clamp that requantizes a max when it changes anything.
// A pool over exactly the entries of `pass`, the stages before it, is its
// tail (PoolEndsPass): a global sum, or 2x2 max windows.
void EmitPool(const InnerProductGroup& g, const PostTile& tile, const std::vector<Stream>& pass,
              CycleEstimate& estimate, std::vector<isa::Instruction>& out) {
  const PoolStep& pool = *g.pool;
  isa::PoolInsn mp;
  mp.src_addr = tile.acc_base;
  mp.src_rows = tile.th;
  mp.src_cols = tile.tw;
  mp.dst_addr = tile.pool_base;
  mp.out_rows = tile.pool_rows;
  mp.out_cols = tile.pool_cols;
  // A global pool's one window is the whole tile.
  mp.size_y = pool.global ? tile.th : pool.kh;
  mp.size_x = pool.global ? tile.tw : pool.kw;
  mp.stride_y = pool.global ? tile.th : pool.sy;
  mp.stride_x = pool.global ? tile.tw : pool.sx;
  mp.pad_y = tile.pool_pad_y;
  mp.pad_x = tile.pool_pad_x;
  mp.sum = pool.average;
  mp.accumulate = tile.pool_accumulate;
  out.push_back(mp);
  if (!pass.empty() && PoolEndsPass(mp, pass.back().acc_addr, pass.back().count))
    estimate.PostTail(mp.sum ? 0 : mp.out_rows * mp.out_cols);
  else
    estimate.Post(WindowTaps(tile.pool_rows, mp.size_y, mp.stride_y, mp.pad_y, tile.th) *
                      WindowTaps(tile.pool_cols, mp.size_x, mp.stride_x, mp.pad_x, tile.tw),
                  false, CycleEstimate::kPoolPipelineCycles);
  if (!tile.pool_last) return;
  if (pool.average) {
    EmitAverages(g, tile, estimate, out);
  } else if (pool.requant) {
    const int64_t pooled = tile.pool_rows * tile.pool_cols;
    out.push_back(Clamp(tile.pool_base, pooled, pool.clamp));
    estimate.Post(pooled);
  }
}

}  // namespace

void EmitPostStages(const InnerProductGroup& g, const PostTile& tile, CycleEstimate& estimate,
                    std::vector<isa::Instruction>& out) {
  const int64_t entries = tile.th * tile.tw;
  isa::OutputInsn o;
  o.acc_addr = tile.acc_base;
  o.count = entries;
  o.param_addr = tile.param_row;
  o.lo = g.lo;
  o.hi = g.hi;
  out.push_back(o);
  std::vector<Stream> pass{StreamOf(out.back())};
  const bool dual = estimate.DualPass(tile.acc_base, entries);
  estimate.Post(entries, false, CycleEstimate::kPostStageCycles, dual);
  for (const PostStep& step : g.post) {
    if (step.kind == PostStep::kPRelu) {
      isa::PReluInsn pr;
      pr.acc_addr = tile.acc_base;
      pr.count = entries;
      pr.param_addr = tile.param_row;
      pr.pos_shift = step.clamp.shift;
      pr.neg_shift = step.neg_shift;
      pr.lo = step.clamp.lo;
      pr.hi = step.clamp.hi;
      out.push_back(pr);
    } else if (step.kind == PostStep::kTable) {
      isa::TableInsn table;
      table.acc_addr = tile.acc_base;
      table.count = entries;
      table.table_addr = tile.table_row;
      table.in_format = FormatCode<isa::TableInsn>(g.table_input);
      out.push_back(table);
      estimate.TableFill();
    } else if (step.kind == PostStep::kResidual) {
      const ResidualStep& r = g.residuals[step.residual];
      isa::ResAddInsn ra;
      ra.acc_addr = tile.acc_base;
      ra.count = entries;
      ra.res_addr = tile.residual_row + ResidualTilesBefore(g, step.residual) * tile.residual_pitch;
      ra.res_lane = tile.residual_lane;
      ra.res_lanes = std::clamp<int64_t>(r.channels - tile.c0, 0, tile.co);
      if (!r.constant.empty()) {  // the block's row (per plane) for every entry
        const int64_t planes = r.format == DType::kI16 ? 2 : 1;
        ra.res_addr = tile.constant_row + ConstantRowsBefore(g, step.residual, tile.lanes) +
                      tile.c0 / tile.lanes * planes;
        ra.broadcast = 1;
        ra.multiply = r.multiply;
      }
      ra.res_format = FormatCode<isa::ResAddInsn>(r.format);
      ra.acc_shift = r.acc_shift;
      ra.res_shift = r.res_shift;
      ra.out_shift = r.out_shift;
      ra.lo = r.lo;
      ra.hi = r.hi;
      out.push_back(ra);
    } else {
      out.push_back(Clamp(tile.acc_base, entries, step.clamp));
    }
    // An i16 residual's entries take two cycles: its high and low rows.
    const bool two_rows =
        step.kind == PostStep::kResidual && g.residuals[step.residual].format == DType::kI16;
    const Stream next = StreamOf(out.back());
    const bool joins = JoinsPass(pass, next);
    if (!joins) pass.clear();
    pass.push_back(next);
    // A Clamp or PRelu that starts a pass of its own may be a dual pass too,
    // and a Table that joins a pass of one such instruction keeps it dual
    // (opu_post.sv's dual chain).
    const bool may_pair = joins ? step.kind == PostStep::kTable && pass.size() == 2
                                : step.kind == PostStep::kPRelu || step.kind == PostStep::kClamp;
    estimate.Post(two_rows ? 2 * entries : entries, joins, CycleEstimate::kPostStageCycles,
                  may_pair && dual);
  }
  if (g.pool) EmitPool(g, tile, pass, estimate, out);
}

}  // namespace opuc::codegen
