//===- opuc/compiler/compile.h - A model to a .opup program ------*- C++ -*-===//
//
// The whole flow of `opuc compile`: the default pass pipeline, quantization
// on the calibration samples, partitioning for the HwConfig, codegen of the
// OPU groups, and the program (docs/program-format.md). The report says
// what each group became, for `opuc compile --report` and for the RTL's
// cycle counts to be compared against.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_COMPILER_COMPILE_H
#define OPUC_COMPILER_COMPILE_H

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "opuc/codegen/codegen.h"
#include "opuc/file_io/aligned_bytes.h"
#include "opuc/ir/graph.h"
#include "opuc/opu/hw_config.h"
#include "opuc/program/program.h"
#include "opuc/quant/quantize.h"
#include "opuc/status.h"
#include "opuc/tensor_io/host_tensor.h"

namespace opuc {

struct CompileOptions {
  int opt_level = 3;
  std::vector<std::string> disabled_passes;
  QuantizeOptions quantize;
  /// What codegen may choose (tilings, layouts, an i16 read whole); the
  /// defaults are what `opuc compile` does.
  PlanOptions plan;
  /// Recorded in the program's build table: the source's name, and its
  /// SHA-256 as given or, when that is empty, hashed from `source` (the
  /// model file as read) on a thread of its own while the compile runs
  /// (in line when quantize.threads is 1): a large model's takes a tenth
  /// of a second. Once hashed, the compile lets `source` go: moved in, with
  /// the model's constants no longer viewing it, the file's memory then
  /// serves the compile (pose_landmark_heavy: 27 MB of a 250 MB peak).
  std::string source_name;
  std::string source_sha256;
  AlignedBytes source;
};

/// What one partition group became.
struct GroupReport {
  int32_t group = -1;
  StepKind step = StepKind::kCpu;
  bool opu_group = false;  ///< The partitioner made it an OPU group (it may still run on the CPU).
  std::vector<std::string> ops;  ///< Node names (or "#id").
  int64_t macs = 0;
  int64_t words = 0;             ///< OPU steps: instructions.
  int64_t estimated_cycles = 0;  ///< OPU steps: the estimator's cycles.
  /// Its words are in the step of this later group (a chained pair's first,
  /// a run's group but the last: PlannedStep::chained_into); -1 otherwise.
  int32_t in_step_of = -1;
  std::string tiling;  ///< OPU steps.
  std::string reason;  ///< CPU steps: why.
};

struct CompileReport {
  QuantizeReport quantize;
  std::vector<GroupReport> groups;
  int64_t opu_steps = 0, cpu_steps = 0;
  int64_t opu_macs = 0;    ///< In compiled OPU steps.
  int64_t total_macs = 0;  ///< Of the whole graph.
  int64_t estimated_cycles = 0;
  int64_t constant_bytes = 0, dram_bytes = 0, program_bytes = 0;
};

struct CompiledModel {
  std::vector<uint8_t> program;  ///< The .opup bytes.
  CompileReport report;
};

/// Called as each stage starts: "passes", "quantize", "partition", "codegen", "program".
using CompileProgress = std::function<void(std::string_view stage)>;

/// Compiles the float `model` for `hw`, calibrating on `calibration` (one
/// vector of inputs per sample). Errors name the stage and what failed in
/// it (a pass, a node, a group that fits no tiling).
Expected<CompiledModel> CompileModel(Graph model,
                                     const std::vector<std::vector<HostTensor>>& calibration,
                                     const HwConfig& hw, CompileOptions options,
                                     const CompileProgress& progress = {});

}  // namespace opuc

#endif  // OPUC_COMPILER_COMPILE_H
