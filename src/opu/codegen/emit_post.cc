//===- src/opu/codegen/emit_post.cc - The stages after the inner product --===//
//
// Over one tile in the accumulator, in the group's order: the output stage,
// each compare stage (clamp, prelu, table) or residual add, then a pool into its own entries
// (with the Clamp that requantizes them when it changes anything).
//
//===----------------------------------------------------------------------===//
#include "emit.h"

#include <algorithm>

namespace opuc::codegen {
namespace {

isa::ClampInsn Clamp(int64_t acc_addr, int64_t count, const ClampStep& step) {
  isa::ClampInsn cl;
  cl.acc_addr = acc_addr;
  cl.count = count;
  cl.shift = step.shift;
  cl.lo = step.lo;
  cl.hi = step.hi;
  return cl;
}

// The source entries a pool's windows read along one axis: each window's
// taps, the last ones cut at the tile's end.
int64_t WindowTaps(int64_t windows, int64_t size, int64_t stride, int64_t extent) {
  int64_t taps = 0;
  for (int64_t w = 0; w < windows; ++w) taps += std::min(extent, w * stride + size) - w * stride;
  return taps;
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
  estimate.Compute(entries);
  for (const PostStep& step : g.post) {
    estimate.Compute(entries);
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
      table.in_format = g.table_input == DType::kI8 ? 0 : g.table_input == DType::kU8 ? 1 : 2;
      out.push_back(table);
    } else if (step.kind == PostStep::kResidual) {
      const ResidualStep& r = *g.residual;
      isa::ResAddInsn ra;
      ra.acc_addr = tile.acc_base;
      ra.count = entries;
      ra.res_addr = tile.residual_row;
      ra.res_lane = tile.residual_lane;
      ra.res_lanes = tile.residual_lanes;
      ra.res_unsigned = r.is_unsigned;
      ra.acc_shift = r.acc_shift;
      ra.res_shift = r.res_shift;
      ra.out_shift = r.out_shift;
      ra.lo = r.lo;
      ra.hi = r.hi;
      out.push_back(ra);
    } else {
      out.push_back(Clamp(tile.acc_base, entries, step.clamp));
    }
  }
  if (!g.pool) return;
  const PoolStep& pool = *g.pool;
  isa::MaxPoolInsn mp;
  mp.src_addr = tile.acc_base;
  mp.src_rows = tile.th;
  mp.src_cols = tile.tw;
  mp.dst_addr = tile.pool_base;
  mp.out_rows = tile.pool_rows;
  mp.out_cols = tile.pool_cols;
  mp.size_y = pool.kh;
  mp.size_x = pool.kw;
  mp.stride_y = pool.sy;
  mp.stride_x = pool.sx;
  out.push_back(mp);
  const int64_t pooled = tile.pool_rows * tile.pool_cols;
  estimate.Compute(WindowTaps(tile.pool_rows, pool.kh, pool.sy, tile.th) *
                   WindowTaps(tile.pool_cols, pool.kw, pool.sx, tile.tw));
  if (pool.requant) {
    out.push_back(Clamp(tile.pool_base, pooled, pool.clamp));
    estimate.Compute(pooled);
  }
}

}  // namespace opuc::codegen
