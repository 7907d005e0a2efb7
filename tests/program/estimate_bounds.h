// The cycle estimator of each OPU step against what the functional
// simulator counted running it: the estimate must lie between a roofline
// lower bound (the array busy every cycle, or DRAM moving bytes every
// cycle, whichever is longer) and a serial upper bound (nothing overlaps:
// every array issue, every post-processed entry, every byte, every stored
// byte as a pixel of its own, every transfer's latency, 3 cycles per
// instruction, 14 per unit's hand-over between engines and 7 to start,
// every instruction's 16 bytes fetched from DRAM and the first a latency
// late (docs/codegen.md) one after another, and what the counters do not
// show: a depthwise Gemm's window fed a kernel row of a column a cycle (the
// slower of the RTL's two feeds), a feature-map load's writers a unit of
// its frame a cycle, and every post instruction's pipeline, an
// Average's reciprocal too, worked out from the instructions). Both
// bounds come from fsim's counters, the program and the HwConfig, not from
// the estimator.
#ifndef OPUC_TESTS_PROGRAM_ESTIMATE_BOUNDS_H
#define OPUC_TESTS_PROGRAM_ESTIMATE_BOUNDS_H

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <variant>

#include "opuc/isa/isa.h"
#include "opuc/runtime/run_program.h"

namespace opuc::test {

/// The cycles a step's instructions take that fsim's counters do not show:
/// each depthwise Gemm's window, read a kernel row of a column a cycle
/// (docs/rtl.md, opu_gemm.sv), beyond its one issue a pixel; each
/// feature-map load's writers, a unit of its frame a cycle (zeros too) and
/// a turn at each row's end, beyond its bytes (opu_load.sv); each post
/// instruction's pipeline (at most 4 cycles a stage, an Average 7 and 20
/// for its divisor's reciprocal).
inline double UncountedCycles(const ProgramStep& step) {
  double cycles = 0;
  for (size_t w = 0; w < step.word_count; ++w) {
    Expected<isa::Instruction> insn = isa::Decode(step.word(w));
    if (!insn.ok()) continue;
    if (const auto* load = std::get_if<isa::LoadInsn>(&*insn);
        load && load->buffer == isa::LoadInsn::kFeatureMap) {
      // Its writers: every unit of its frame (zeros too), a turn a row.
      const int64_t rows = load->rows * (load->zeros_y + 1) + load->pad_top + load->pad_bottom;
      const int64_t cols = load->cols * (load->zeros_x + 1) + load->pad_left + load->pad_right;
      cycles += static_cast<double>(rows * cols + rows + 1);
    } else if (const auto* gemm = std::get_if<isa::GemmInsn>(&*insn); gemm && gemm->depthwise) {
      const int64_t width = gemm->window_w + 1 + (gemm->out_cols - 1) * gemm->stride_x;
      cycles += static_cast<double>(gemm->out_rows * (gemm->window_h + 1) * width + 1);
    } else if (std::holds_alternative<isa::AverageInsn>(*insn)) {
      cycles += 27;
    } else if (isa::EngineOf(*insn) == isa::Engine::kCompute &&
               !std::holds_alternative<isa::GemmInsn>(*insn)) {
      cycles += 5;
    }
  }
  return cycles;
}

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
                         static_cast<double>(hw.dram.latency_cycles) + UncountedCycles(step);
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
