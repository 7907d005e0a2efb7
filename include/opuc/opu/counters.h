//===- opuc/opu/counters.h - What the OPU's engines did ---------*- C++ -*-===//
//
// Every device that runs OPU steps (the functional simulator, the RTL)
// counts the same things, and the program report sets them beside its
// estimates.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_OPU_COUNTERS_H
#define OPUC_OPU_COUNTERS_H

#include <array>
#include <cstdint>
#include <vector>

#include "opuc/isa/isa.h"

namespace opuc {

/// What the engines did.
struct OpuCounters {
  std::array<int64_t, isa::kNumEngines> instructions{};  ///< Per engine.
  int64_t bytes_loaded = 0;                              ///< From DRAM, padding not counted.
  int64_t bytes_stored = 0;                              ///< To DRAM.
  int64_t gemm_issues = 0;   ///< Array issues: one output pixel, one tap, one input block.
  int64_t post_entries = 0;  ///< Accumulator entries through output and compare stages.
  int64_t cycles = 0;        ///< Clock cycles from start to done: the RTL's; 0 elsewhere.
  /// A step of several groups on the RTL: each group's cycles, from the
  /// end of the one before (or the start) to the cycle its last
  /// instruction retired; they add up to `cycles`. Empty elsewhere.
  std::vector<int64_t> group_cycles;
};

}  // namespace opuc

#endif  // OPUC_OPU_COUNTERS_H
