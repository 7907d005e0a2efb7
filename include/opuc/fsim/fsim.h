//===- opuc/fsim/fsim.h - The functional simulator of the OPU ------*- C++ -*-===//
//
// Runs an instruction stream (opuc/isa/isa.h) on a DRAM image exactly as the
// datapath would: the three engines each in program order, synchronized
// only by their dependency tokens, on the buffers the HwConfig sizes
// (docs/isa.md, "Machine"). It stops at the first illegal thing a program
// does — an address outside a buffer or DRAM, a token taken that was never
// given, a deadlock, tokens left over at the end — with the instruction's
// index, its name and the field at fault.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_FSIM_FSIM_H
#define OPUC_FSIM_FSIM_H

#include <cstdint>
#include <vector>

#include "opuc/isa/isa.h"
#include "opuc/opu/buffer_units.h"
#include "opuc/opu/counters.h"
#include "opuc/opu/hw_config.h"
#include "opuc/status.h"

namespace opuc {

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

#endif  // OPUC_FSIM_FSIM_H
