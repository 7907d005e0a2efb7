//===- src/codegen/units.cc - The order a group runs in ---------------===//
#include "units.h"

#include <algorithm>

namespace opuc::codegen {

std::vector<Unit> Units(const InnerProductGroup& g, const Tiling& t, const OpuBufferUnits& u) {
  std::vector<Unit> units;
  int64_t pair = 0, window = -1, last_block = -1;
  for (const Span& row : t.rows) {
    for (const Span& col : t.cols) {
      last_block = -1;
      for (int64_t ob = 0; ob < t.out_blocks; ++ob, ++pair) {
        const int64_t block = InputBlock(g, u, ob, 0);
        const bool new_window = last_block < 0 || (g.depthwise && block != last_block);
        if (new_window) ++window;
        last_block = block;
        for (int64_t r = 0; r < t.rows_per_out_block; r += t.chunk_rows) {
          Unit unit{row,
                    col,
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

int64_t UnitSlots(const InnerProductGroup& g, const Tiling& t, const std::vector<Unit>& units,
                  const OpuBufferUnits& u, int64_t most) {
  const bool pair_residuals = !t.residual_per_window &&
                              std::any_of(g.residuals.begin(), g.residuals.end(),
                                          [](const ResidualStep& r) { return r.constant.empty(); });
  if (pair_residuals || most <= 2) return 2;
  // No deeper than the accumulator regions (with whole-pixel stores, the
  // store groups it holds): a unit's loads then meet only
  // the stores of units whose region no Gemm placed before them waits for,
  // which the estimator's one pass over the units needs (estimate.cc).
  int64_t slots = std::min(most, t.store_blocks > 1 ? t.store_depth : t.acc_regions);
  if (!t.params_resident) slots = std::min(slots, u.param_rows);
  if (!t.weights_resident) slots = std::min(slots, u.weight_rows / t.chunk_rows);
  // Window w's first unit, unit i, waits for the token of unit i − slots,
  // which must come after the last unit of window w − fm_slots, whose slot
  // it takes: windows w − fm_slots + 1 to w − 1 span slots − 1 units.
  std::vector<int64_t> last;  // each window's last unit
  for (size_t i = 0; i < units.size(); ++i) {
    const Unit& unit = units[i];
    if (unit.new_window && unit.window >= t.fm_slots)
      slots = std::min(
          slots, static_cast<int64_t>(i) - last[static_cast<size_t>(unit.window - t.fm_slots)]);
    if (unit.new_window) last.push_back(0);
    last.back() = static_cast<int64_t>(i);
  }
  return std::max<int64_t>(2, slots);
}

}  // namespace opuc::codegen
