//===- opuc/program/program_report.h - What each step of a program does -*- C++ -*-===//
//
// The figures `opuc report` shows, per step and in total: the ops a step
// covers and their multiply-accumulates (opuc/ir/macs.h), the
// estimator's cycles, the cycles a device with a clock measured (the RTL,
// when a run recorded them), MAC efficiency (MACs over cycles × the array's
// MACs per cycle: L × Co), the DRAM bytes read and written and the on-chip
// buffers' occupancy (opuc/program/step_usage.h), the fewest cycles the
// hardware could take (opuc/program/physical_bound.h: the measure the
// reports lead with) and the fewest opuc's mapping could
// (opuc/program/mapping_bound.h).
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_PROGRAM_PROGRAM_REPORT_H
#define OPUC_PROGRAM_PROGRAM_REPORT_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "opuc/opu/buffer_units.h"
#include "opuc/opu/counters.h"
#include "opuc/program/mapping_bound.h"
#include "opuc/program/physical_bound.h"
#include "opuc/program/program.h"
#include "opuc/program/step_usage.h"

namespace opuc {

/// One group of an OPU step of several (a run, a chained pair: docs/
/// codegen.md), as the class totals count it.
struct StepPart {
  int32_t group = -1;
  int64_t macs = 0;
  int64_t estimated_cycles = 0;            ///< Its share of the step's estimate.
  std::optional<int64_t> measured_cycles;  ///< Its share of the step's clocked run.
  PhysicalBound physical;
  LayerClass layer_class = LayerClass::kOther;
  MappingBound mapping;
  std::string tiling;
};

struct StepReport {
  size_t step = 0;
  StepKind kind = StepKind::kCpu;
  int32_t group = -1;
  std::vector<std::string> ops;  ///< The nodes' op names, in order.
  std::string output;            ///< The step's first output tensor: the layer it ends.
  int64_t macs = 0;
  int64_t estimated_cycles = 0;                 ///< OPU steps.
  std::optional<int64_t> measured_cycles;       ///< OPU steps a clocked device ran.
  StepUsage usage;                              ///< OPU steps.
  PhysicalBound physical;                       ///< OPU steps: the hardware's limit.
  LayerClass layer_class = LayerClass::kOther;  ///< OPU steps: its layer of most compute.
  MappingBound mapping;                         ///< OPU steps: the limit of opuc's mapping.
  std::string tiling;                           ///< OPU steps.
  std::string reason;                           ///< CPU steps: why not on the OPU.
  std::vector<StepPart> parts;                  ///< OPU steps of several groups: each.
};

/// The OPU steps of one class (first layer, dense, depthwise, other) added
/// up; a step of several groups counts each group in its own class.
struct ClassTotals {
  int64_t steps = 0, macs = 0;
  int64_t cycles = 0;  ///< Measured where known, else estimated (ProgramReport::Cycles).
  int64_t mapping_bound_cycles = 0;
  int64_t gemm_cycles = 0;  ///< MappingBound::gemm_cycles added up.
  PhysicalBound physical;
};

struct ProgramReport {
  std::vector<StepReport> steps;
  int64_t array_macs_per_cycle = 0;  ///< L × Co.
  double clock_mhz = 0;
  // Totals.
  int64_t opu_steps = 0, cpu_steps = 0;
  int64_t opu_macs = 0, cpu_macs = 0;
  int64_t estimated_cycles = 0;
  std::optional<int64_t> measured_cycles;  ///< When every OPU step was measured.
  int64_t bytes_loaded = 0, bytes_stored = 0;
  PhysicalBound physical;            ///< The OPU steps' physical bounds added up.
  int64_t mapping_bound_cycles = 0;  ///< The OPU steps' mapping bounds added up.
  /// Buffer sizes in their units (the denominators of occupancy).
  OpuBufferUnits buffers;

  /// The OPU steps whose layer of most compute is of `layer_class`.
  ClassTotals Totals(LayerClass layer_class) const;
  /// MACs / (cycles × array_macs_per_cycle); 0 without cycles.
  double Efficiency(int64_t macs, int64_t cycles) const;
  /// The measured cycles where known, else the estimate.
  int64_t Cycles(const StepReport& step) const;
  int64_t TotalCycles() const { return measured_cycles.value_or(estimated_cycles); }
  /// `cycles` over `bound` (how many times the bound a run takes); 0 without a bound.
  static double Ratio(int64_t cycles, int64_t bound);
  /// Milliseconds `cycles` take at the HwConfig's clock.
  double Milliseconds(int64_t cycles) const;
};

/// The report of `program`; `measured` (one entry per step, as a run's
/// counters; may be null) supplies cycles where its entry counted some.
/// Errors: `measured` of another length; a word that does not decode.
Expected<ProgramReport> ReportProgram(const Program& program,
                                      const std::vector<OpuCounters>* measured = nullptr);

}  // namespace opuc

#endif  // OPUC_PROGRAM_PROGRAM_REPORT_H
