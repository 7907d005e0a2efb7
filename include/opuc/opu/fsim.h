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

#include <cstdint>
#include <vector>

#include "opuc/opu/buffer_units.h"
#include "opuc/opu/counters.h"
#include "opuc/opu/hw_config.h"
#include "opuc/opu/isa.h"
#include "opuc/status.h"

namespace opuc {

/// Runs `program` on `dram` (bytes; instructions address it from 0).
/// `counters` may be null.
Status RunFunctionalSim(const HwConfig& hw, const std::vector<isa::Word>& program,
                        std::vector<uint8_t>& dram, OpuCounters* counters = nullptr);

}  // namespace opuc

#endif  // OPUC_OPU_FSIM_H
