// What UsageOfStep (opuc/program/step_usage.h) reads off an OPU step's
// words against what a device's engines counted running it: the same DRAM
// bytes loaded and stored, and buffer extents that fit the HwConfig.
#ifndef OPUC_TESTS_PROGRAM_USAGE_CHECK_H
#define OPUC_TESTS_PROGRAM_USAGE_CHECK_H

#include <doctest/doctest.h>

#include "opuc/fsim/fsim.h"
#include "opuc/program/step_usage.h"
#include "opuc/runtime/run_program.h"

namespace opuc::test {

inline void CheckUsageAgainstCounters(const Program& program, const ProgramRun& run) {
  const OpuBufferUnits units = BufferUnits(program.hw());
  for (size_t s = 0; s < program.steps().size(); ++s) {
    if (program.steps()[s].kind != StepKind::kOpu) continue;
    CAPTURE(s);
    const StepUsage use = UsageOfStep(program, program.steps()[s]).value();
    CHECK(use.bytes_loaded == run.counters[s].bytes_loaded);
    CHECK(use.bytes_stored == run.counters[s].bytes_stored);
    CHECK(use.bytes_stored > 0);
    CHECK(use.fm_rows > 0);
    CHECK(use.fm_rows <= units.fm_rows);
    CHECK(use.weight_rows <= units.weight_rows);
    CHECK(use.param_rows <= units.param_rows);
    CHECK(use.acc_entries > 0);
    CHECK(use.acc_entries <= units.acc_entries);
  }
}

}  // namespace opuc::test

#endif  // OPUC_TESTS_PROGRAM_USAGE_CHECK_H
