//===- src/codegen/line_carry.h - Line buffers kept across tiles -*- C++ -*-===//
//
// A depthwise Gemm that reads its rows through the window's line buffers
// reads the window's rows before its first output row: window_h + 1 rows
// before any output, then stride_y an output row. The tile below reads
// again rows the tile above has read, a fifth of a 12-row tile's reads at
// 3x3. Each (output block, plane) keeps its rows in a slot of its own of
// the line buffers (Gemm.line_slot), so when the next tile of the same
// columns comes, the slot still holds the rows above it: that Gemm sets
// `carry` and reads only its own (docs/codegen.md, "Line-buffer carry").
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_CODEGEN_LINE_CARRY_H
#define OPUC_SRC_CODEGEN_LINE_CARRY_H

#include <cstdint>
#include <vector>

#include "inner_product_group.h"
#include "opuc/isa/isa.h"
#include "opuc/opu/buffer_units.h"
#include "units.h"

namespace opuc::codegen {

class LineCarry {
 public:
  /// For `g`'s Gemms under `tiling`: slots where the line buffers hold
  /// every (output block, plane)'s rows of a tile's width at once.
  LineCarry(const InnerProductGroup& g, const Tiling& tiling, const OpuBufferUnits& u);

  /// Gives `gemm` (unit's, of `plane`, its fields all set) its line slot
  /// and, where that slot holds the rows above its tile's, `carry`:
  /// fm_addr then moves past the rows the slot holds.
  void Place(isa::GemmInsn& gemm, const Unit& unit, int64_t plane);

 private:
  struct Kept {
    bool valid = false;
    int64_t row_end = 0, col_first = 0;  ///< output rows the slot's rows end before, the columns
    isa::GemmInsn gemm;
  };
  const OpuBufferUnits units_;
  int64_t planes_ = 1, slots_each_ = 0;  ///< slots_each_: a (block, plane)'s, 0 for none
  std::vector<Kept> kept_;               ///< per (output block, plane)
};

}  // namespace opuc::codegen

#endif  // OPUC_SRC_CODEGEN_LINE_CARRY_H
