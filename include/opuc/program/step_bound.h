//===- opuc/program/step_bound.h - The fewest cycles an OPU step can take -*- C++ -*-===//
//
// A lower bound on an OPU step's cycles that no tiling or schedule can
// beat on its HwConfig: the larger of
//   array: the cycles the L × Co array needs with the channel rounding its
//          geometry forces (one output pixel per cycle; per tap, a block of
//          L input channels and Co output channels):
//            conv2d           N·Ho·Wo · Kh·Kw · ⌈Ci/L⌉ · ⌈Co/Co_a⌉
//            fully_connected  rows · ⌈Ci/L⌉ · ⌈Co/Co_a⌉
//            depthwise_conv2d N·Ho·Wo · Kh·Kw · ⌈C·M/Co_a⌉   (the diagonal mapping:
//                             one lane of each dot product, docs/codegen.md)
//          times 2 for an i16 input (two byte planes);
//   DRAM:  the bytes the step cannot avoid moving — each input activation
//          read once as laid out, each constant byte it uses read once, each
//          output byte written once — at the HwConfig's bandwidth.
// `opuc report` and bench/opu_efficiency_bench put the measured cycles
// beside it.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_PROGRAM_STEP_BOUND_H
#define OPUC_PROGRAM_STEP_BOUND_H

#include <algorithm>
#include <cstdint>

#include "opuc/program/program.h"
#include "opuc/program/step_usage.h"

namespace opuc {

/// What bounds a step's array cycles: dense inner products (conv2d,
/// transpose_conv2d, fully_connected), depthwise ones, or none (pools, adds,
/// tables alone).
enum class InnerProductKind : uint8_t { kNone, kDense, kDepthwise };

struct StepBound {
  InnerProductKind kind = InnerProductKind::kNone;
  int64_t array_cycles = 0;
  int64_t dram_bytes = 0;
  int64_t dram_cycles = 0;
  int64_t cycles() const { return std::max(array_cycles, dram_cycles); }
};

/// The bound of `step` (all zero for a CPU step), given what its words use
/// (UsageOfStep: the bytes it stores). Errors name the word that does not
/// decode.
Expected<StepBound> BoundOfStep(const Program& program, const ProgramStep& step,
                                const StepUsage& usage);

}  // namespace opuc

#endif  // OPUC_PROGRAM_STEP_BOUND_H
