//===- opuc/program/step_usage.h - What an OPU step uses ---------*- C++ -*-===//
//
// Read off an OPU step's instructions without running them: the DRAM bytes
// its loads read and its stores write (what the load and store engines of
// every device count: padding is not read), and the highest unit of each
// on-chip buffer it writes (docs/isa.md's units: feature-map rows, weight
// rows, param rows, accumulator entries), against the buffers' sizes. The
// report's traffic and occupancy columns come from here.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_PROGRAM_STEP_USAGE_H
#define OPUC_PROGRAM_STEP_USAGE_H

#include <cstdint>

#include "opuc/program/program.h"

namespace opuc {

struct StepUsage {
  int64_t bytes_loaded = 0;  ///< DRAM bytes read, padding not counted.
  int64_t bytes_stored = 0;  ///< DRAM bytes written.
  /// The bytes the stores put on the DRAM port: whole beats (StoreBeatBytes).
  int64_t store_beat_bytes = 0;
  /// One past the highest unit written in each buffer (both banks).
  int64_t fm_rows = 0, weight_rows = 0, param_rows = 0, acc_entries = 0;
};

/// The usage of `step` (zero for a CPU step). Words the program reader
/// accepted always decode; an error names the word otherwise.
Expected<StepUsage> UsageOfStep(const Program& program, const ProgramStep& step);

}  // namespace opuc

#endif  // OPUC_PROGRAM_STEP_USAGE_H
