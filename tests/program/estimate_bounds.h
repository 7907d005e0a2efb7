// The cycle estimator of each OPU step against what the functional
// simulator counted running it: the estimate must lie between a roofline
// lower bound (the array busy every cycle, or DRAM moving bytes every
// cycle, whichever is longer) and a serial upper bound (nothing overlaps:
// every array issue, every post-processed entry, every byte, every stored
// byte as a pixel of its own, every transfer's latency, 3 cycles per
// instruction, 14 per unit's hand-over between engines and 7 to start,
// every instruction's 16 bytes fetched from DRAM and the first a latency
// late (docs/codegen.md) one after another). Both
// bounds come from fsim's counters and the HwConfig, not from the estimator.
#ifndef OPUC_TESTS_PROGRAM_ESTIMATE_BOUNDS_H
#define OPUC_TESTS_PROGRAM_ESTIMATE_BOUNDS_H

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "opuc/runtime/run_program.h"

namespace opuc::test {

inline void CheckEstimateBounds(const Program& program, const ProgramRun& run) {
  const HwConfig& hw = program.hw();
  const double bytes_per_cycle = hw.dram.bandwidth_gb_per_s * 1e3 / hw.array.clock_mhz;
  for (size_t i = 0; i < program.steps().size(); ++i) {
    const ProgramStep& step = program.steps()[i];
    if (step.kind != StepKind::kOpu) continue;
    CAPTURE(i);
    const OpuCounters& c = run.counters[i];
    const auto moved = static_cast<double>(c.bytes_loaded + c.bytes_stored);
    const int64_t transfers = c.instructions[static_cast<size_t>(isa::Engine::kLoad)] +
                              c.instructions[static_cast<size_t>(isa::Engine::kStore)];
    const double lower =
        std::max(static_cast<double>(c.gemm_issues), std::floor(moved / bytes_per_cycle));
    const int64_t instructions = c.instructions[0] + c.instructions[1] + c.instructions[2];
    const double upper = static_cast<double>(c.gemm_issues + c.post_entries + c.bytes_stored) +
                         std::ceil(moved / bytes_per_cycle) +
                         static_cast<double>(transfers * (hw.dram.latency_cycles + 1)) +
                         static_cast<double>(3 * instructions) +
                         // the hand-over of each unit (at most one per compute instruction)
                         // and the start, as the RTL measures them (docs/codegen.md)
                         static_cast<double>(7 + 14 * c.instructions[1]) +
                         // the fetch unit's words from DRAM, the first a latency late
                         std::ceil(static_cast<double>(16 * instructions) / bytes_per_cycle) +
                         static_cast<double>(hw.dram.latency_cycles);
    CAPTURE(c.gemm_issues);
    CAPTURE(c.post_entries);
    CAPTURE(c.bytes_loaded);
    CAPTURE(c.bytes_stored);
    CAPTURE(transfers);
    CAPTURE(step.tiling);
    CHECK(c.gemm_issues > 0);
    CHECK(static_cast<double>(step.estimated_cycles) >= lower);
    CHECK(static_cast<double>(step.estimated_cycles) <= upper);
  }
}

}  // namespace opuc::test

#endif  // OPUC_TESTS_PROGRAM_ESTIMATE_BOUNDS_H
