//===- opuc/opu/fsim.h - The functional simulator of the OPU ------*- C++ -*-===//
//
// Runs an instruction stream (opuc/opu/isa.h) on a DRAM image exactly as the
// datapath would: the three engines each in program order, synchronized
// only by their dependency tokens, on the buffers the HwConfig sizes
// (docs/isa.md, "Machine"). It stops at the first illegal thing a program
// does — an address outside a buffer or DRAM, a token taken that was never
// given, a deadlock, tokens left over at the end — with the instruction's
// index, its name and the field at fault.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_OPU_FSIM_H
#define OPUC_OPU_FSIM_H

#include <array>
#include <cstdint>
#include <vector>

#include "opuc/opu/hw_config.h"
#include "opuc/opu/isa.h"
#include "opuc/status.h"

namespace opuc {

/// What the engines did.
struct OpuCounters {
  std::array<int64_t, isa::kNumEngines> instructions{};  ///< Per engine.
  int64_t bytes_loaded = 0;                              ///< From DRAM, padding not counted.
  int64_t bytes_stored = 0;                              ///< To DRAM.
  int64_t gemm_issues = 0;   ///< Array issues: one output pixel, one tap, one input block.
  int64_t post_entries = 0;  ///< Accumulator entries through output and compare stages.
  int64_t cycles = 0;        ///< Clock cycles from start to done: the RTL's; 0 elsewhere.
};

/// The on-chip buffers of `hw` in their units (docs/isa.md): feature-map
/// rows of L bytes, weight rows of Co x L bytes, param rows of Co x 8
/// bytes, accumulator entries of Co 48-bit lanes; both banks together.
struct OpuBufferUnits {
  int64_t lanes = 0;      ///< L: array.input_channels.
  int64_t out_lanes = 0;  ///< Co: array.output_channels.
  int64_t fm_rows = 0;
  int64_t weight_rows = 0;
  int64_t param_rows = 0;
  int64_t acc_entries = 0;

  /// DRAM bytes of one unit `load` reads: L into the feature map, Co x L
  /// into the weights (L with `diagonal`), Co x 8 into the params.
  int64_t LoadUnitBytes(const isa::LoadInsn& load) const {
    if (load.buffer == 1) return load.diagonal ? lanes : lanes * out_lanes;
    return load.buffer == 0 ? lanes : out_lanes * 8;
  }
};
OpuBufferUnits BufferUnits(const HwConfig& hw);

/// The region a Load writes from `sram_addr`: its rows and its units per
/// row (the pitch), the zeros between (`zeros_y`, `zeros_x`) and the frame
/// included.
inline int64_t LoadedRows(const isa::LoadInsn& l) {
  return l.pad_top + (l.rows == 0 ? 0 : (l.rows - 1) * (l.zeros_y + 1) + 1) + l.pad_bottom;
}
inline int64_t LoadedPitch(const isa::LoadInsn& l) {
  return l.pad_left + (l.cols == 0 ? 0 : (l.cols - 1) * (l.zeros_x + 1) + 1) + l.pad_right;
}
inline int64_t LoadedUnits(const isa::LoadInsn& l) { return LoadedRows(l) * LoadedPitch(l); }

/// DRAM bytes a Store writes: `lanes` per pixel, each pixel four times
/// with `upsample`.
inline int64_t StoredBytes(const isa::StoreInsn& s) {
  return s.rows * s.cols * s.lanes * (s.upsample ? 4 : 1);
}
/// The span of DRAM bytes a Store writes in, from `dram_addr` to past its
/// last byte, with pixels `lanes` (L) bytes apart; 0 when it stores nothing.
inline int64_t StoredSpan(const isa::StoreInsn& s, int64_t lanes) {
  if (s.rows == 0 || s.cols == 0) return 0;
  const int64_t copies = s.upsample ? 2 : 1;  // per axis
  return (copies * s.rows - 1) * s.dram_stride + (copies * s.cols - 1) * lanes + s.lanes;
}

/// Runs `program` on `dram` (bytes; instructions address it from 0).
/// `counters` may be null.
Status RunFunctionalSim(const HwConfig& hw, const std::vector<isa::Word>& program,
                        std::vector<uint8_t>& dram, OpuCounters* counters = nullptr);

/// What every device relies on before it runs `program` on a DRAM image of
/// `dram_bytes` (the program reader checks it, so the RTL and the CPU
/// executor refuse what the simulator refuses): each instruction's fields
/// and its buffer and DRAM ranges as a run checks them, the tokens (no
/// deadlock, none left over), and every buffer row two engines touch, one
/// writing, ordered by tokens (a read after its write, a write after the
/// reads before it), else the message names both instructions. No data
/// moves, so what depends on values (an accumulator's overflow) waits for
/// the run.
Status CheckOpuProgram(const HwConfig& hw, const std::vector<isa::Word>& program,
                       int64_t dram_bytes);

}  // namespace opuc

#endif  // OPUC_OPU_FSIM_H
