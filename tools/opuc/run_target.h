//===- tools/opuc/run_target.h - A model or a program, run on a device -*- C++ -*-===//
//
// `opuc run` and `opuc detect` take either a model (run whole on the
// reference or the CPU executor) or a compiled program (its OPU steps on
// any device, its CPU steps on the CPU executor); this is where the two
// are told apart and each runs where it can.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_TOOLS_RUN_TARGET_H
#define OPUC_TOOLS_RUN_TARGET_H

#include <optional>
#include <string>
#include <vector>

#include "opuc/frontend/load_model.h"
#include "opuc/fsim/fsim.h"
#include "opuc/program/program.h"
#include "opuc/status.h"
#include "opuc/tensor_io/host_tensor.h"

namespace opuc::cli {

/// A loaded model or program: exactly one of the two is set.
struct RunTarget {
  std::string path;
  std::optional<Program> program;
  std::optional<LoadedModel> model;
  const Graph& graph() const { return program ? program->graph() : model->graph; }
  /// The model file's name: the path, or the one a program was built from.
  std::string ModelName() const { return program ? program->build().source_name : path; }
};

/// Loads `path`: a program when it ends in .opup, else a model.
Expected<RunTarget> LoadRunTarget(const std::string& path);

struct TargetRun {
  std::vector<HostTensor> outputs;
  std::vector<OpuCounters> counters;  ///< A program's, one per step.
};

/// Runs `target` on `device` (a model: ref or cpu; a program: any device).
/// `trace` (an FST file per OPU step, or per step of `trace_steps` when
/// any) needs a program on rtl.
Expected<TargetRun> RunOn(const RunTarget& target, const std::string& device,
                          std::vector<HostTensor> inputs, const std::string& trace = "",
                          const std::vector<size_t>& trace_steps = {});

}  // namespace opuc::cli

#endif  // OPUC_TOOLS_RUN_TARGET_H
