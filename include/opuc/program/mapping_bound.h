//===- opuc/program/mapping_bound.h - The limit of opuc's own mapping -*- C++ -*-===//
//
// A lower bound on an OPU step's cycles that no tiling or schedule of opuc's
// mapping can beat on its HwConfig (the hardware's own limit, which does not
// take the mapping's choices as given, is opuc/program/physical_bound.h):
// the larger of
//   array: the cycles the L × Co array needs with the channel rounding its
//          geometry forces (one output pixel per cycle; per tap, a block of
//          L input channels and Co output channels):
//            conv2d           N·Ho·Wo · Kh·Kw · ⌈Ci/L⌉ · ⌈Co/Co_a⌉
//              over a folded input (opuc/program/input_fold.h)
//                             N·Ho·Wo · ⌈Kh·Kw·Ci/L⌉ · ⌈Co/Co_a⌉
//              to a packed output (PackLayout, P = L/Co_a input pixels a lane
//              block, Co_a output pixels an entry; docs/codegen.md, "Packed rows")
//                             N·Ho·Wo/Co_a · Kh · (Co_a/P + 2·⌈⌊Kw/2⌋/P⌉)
//            transpose_conv2d N·Ho·Wo · ⌊Kh/s⌋·⌊Kw/s⌋ · ⌈Ci/L⌉ · ⌈Co/Co_a⌉
//              to a packed output (kernel = stride s)
//                             N·Ho·Wo/Co_a · Co_a/(s·P)
//            fully_connected  rows · ⌈Ci/L⌉ · ⌈Co/Co_a⌉
//            depthwise_conv2d N·Ho·Wo · Kh·Kw · ⌈C·M/Co_a⌉   (the diagonal mapping:
//                             one lane of each dot product, docs/codegen.md;
//                             with ipa.depthwise_window, ⌈Kh/rows⌉ for Kh·Kw:
//                             a Gemm takes `rows` kernel rows; fed from line
//                             buffers, times sy·sx, halved for a pair of
//                             pixels a cycle: the window reads every input
//                             pixel of its rows; over a doubled map of Co/2
//                             channels N·Ho·⌈Wo/2⌉·⌈Kh/rows⌉, two output
//                             pixels an entry)
//          times 2 for an i16 input (two byte planes);
//   output path: the post side takes one accumulator entry a cycle (the
//          stages the engine chains over the same entries once: three a
//          chain, one ResAdd, one Table, one param row; a Pool each
//          tap of its windows; a Pool that ends such a chain reads none,
//          2x2 windows then write their pooled entries: PoolEndsPass) and
//          the store one pixel a cycle, read from the
//          step's instructions: a pool on the post side or a channel block
//          of Co_a outputs costs it as the array's rounding costs the array;
//   DRAM:  the bytes the step cannot avoid moving — each input activation
//          read once as laid out, each constant byte it uses read once, each
//          output written once as its stores write it: a masked write takes
//          the whole L-byte beat on the port, so a channel block of a compact
//          map costs the beats its pixels touch — at the HwConfig's bandwidth.
// `opuc report` and bench/opu_efficiency_bench show it beside the physical
// bound: the gap between the two is what the mapping costs.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_PROGRAM_MAPPING_BOUND_H
#define OPUC_PROGRAM_MAPPING_BOUND_H

#include <algorithm>
#include <cstdint>

#include "opuc/opu/buffer_units.h"
#include "opuc/program/program.h"
#include "opuc/program/step_usage.h"

namespace opuc {

struct MappingBound {
  int64_t array_cycles = 0;
  int64_t dram_bytes = 0;
  int64_t dram_cycles = 0;
  int64_t output_cycles = 0;  ///< The post side's or the store's, whichever is more.
  /// The step's Gemms one after another, each as long as the RTL's array
  /// takes it back to back with the next (GemmBackToBackCycles: a window's
  /// reads, its halo columns and rows too): the array's time on the program
  /// as emitted, which no schedule beats but the tiling sets, so not a term
  /// of cycles().
  int64_t gemm_cycles = 0;
  int64_t cycles() const { return std::max({array_cycles, output_cycles, dram_cycles}); }
  /// Another group of the step (a run's: docs/codegen.md, "Runs"): each
  /// term summed, for each resource does all of both groups' work, but
  /// the groups may overlap (so not each group's cycles() summed).
  void Add(const MappingBound& group) {
    array_cycles += group.array_cycles;
    dram_bytes += group.dram_bytes;
    dram_cycles += group.dram_cycles;
    output_cycles += group.output_cycles;
    gemm_cycles += group.gemm_cycles;
  }
};

/// The output path's term of an OPU step's bound: the post side's entries
/// (a run of Output, Clamp, PRelu, Table and ResAdd over the same entries
/// once, a Pool's taps inside the source unless it ends that run, an
/// Average's entries) or the
/// store's pixels (each four times with upsample; a pair's two pixels in
/// one beat once: StoreIssueCycles), whichever is more, on the OPU of
/// `units`. Errors name the word that does not decode.
Expected<int64_t> OutputPathCycles(const ProgramStep& step, const OpuBufferUnits& units);

/// The bound of `step` (all zero for a CPU step), given what its words use
/// (UsageOfStep: the beats its stores write). Errors name the word that does not
/// decode.
Expected<MappingBound> MappingBoundOfStep(const Program& program, const ProgramStep& step,
                                          const StepUsage& usage);

}  // namespace opuc

#endif  // OPUC_PROGRAM_MAPPING_BOUND_H
