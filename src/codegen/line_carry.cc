//===- src/codegen/line_carry.cc - Line buffers kept across tiles ------===//
#include "line_carry.h"

#include "depthwise_window.h"

namespace opuc::codegen {

LineCarry::LineCarry(const InnerProductGroup& g, const Tiling& tiling, const OpuBufferUnits& u)
    : units_(u), planes_(g.i16_whole ? 1 : tiling.planes) {
  const int64_t slot = u.LineSlotColumns();
  if (g.window_rows == 0 || slot == 0 || WindowGemms(g) != 1 || g.Phases() != 1) return;
  // A tile's widest row, and a pair's second column past it; an i16 read
  // whole takes two columns a pixel.
  const int64_t columns = (g.kw + (tiling.tile_w - 1) * g.sx) * (g.i16_whole ? 2 : 1) + 1;
  const int64_t each = (columns + slot - 1) / slot;
  if (tiling.out_blocks * planes_ * each > 8) return;  // Gemm.line_slot: 3 bits
  slots_each_ = each;
  kept_.resize(static_cast<size_t>(tiling.out_blocks * planes_));
}

void LineCarry::Place(isa::GemmInsn& gemm, const Unit& unit, int64_t plane) {
  if (slots_each_ == 0 || !GemmUsesLines(gemm, units_.line_columns)) return;
  const int64_t index = unit.ob * planes_ + plane;
  gemm.line_slot = index * slots_each_;
  Kept& kept = kept_[static_cast<size_t>(index)];
  const isa::GemmInsn& before = kept.gemm;
  // The slot holds the last window_h rows the Gemm before it read: the
  // rows above this tile's where that Gemm had the same columns, lanes and
  // window and its output rows end where this tile's start. Carried, the
  // tile skips the window_h + 1 - stride_y rows it shares with that one.
  gemm.carry = gemm.window_h + 1 > gemm.stride_y && kept.valid && kept.row_end == unit.row.first &&
               kept.col_first == unit.col.first && before.out_cols == gemm.out_cols &&
               before.stride_x == gemm.stride_x && before.stride_y == gemm.stride_y &&
               before.window_h == gemm.window_h && before.window_w == gemm.window_w &&
               before.lane == gemm.lane && before.pair_rows == gemm.pair_rows &&
               before.operand == gemm.operand && BlockPairs(before) == BlockPairs(gemm);
  if (gemm.carry) gemm.fm_addr += (gemm.window_h + 1 - gemm.stride_y) * gemm.fm_pitch;
  kept = {true, unit.row.first + unit.row.size, unit.col.first, gemm};
}

}  // namespace opuc::codegen
