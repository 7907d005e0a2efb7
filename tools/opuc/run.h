//===- tools/opuc/run.h - `opuc run` ----------------------------*- C++ -*-===//
#ifndef OPUC_TOOLS_RUN_H
#define OPUC_TOOLS_RUN_H

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "opuc/command.h"

namespace opuc::cli {

struct RunOptions {
  std::string model;
  std::string device;
  std::vector<std::string> inputs;  ///< "NAME=FILE.npy", one per --input.
  std::string output_dir = ".";
  uint64_t seed = 0;
  bool json = false;
  std::string trace;                ///< --trace: an FST waveform per OPU step (rtl).
  std::vector<size_t> trace_steps;  ///< --trace-step: only these steps' waveforms.
  std::string profile;  ///< --profile: what the device counted per OPU step (opuc/profile.h).
};

/// Runs the model or program on a device with inputs from .npy files or
/// drawn from the seed, writes one <output>.npy per graph output into the
/// output directory and prints a summary of each (and, for a program, the
/// cycles a clocked device counted). Returns the exit code.
int RunRun(const RunOptions& options, std::ostream& out, std::ostream& err);

/// `opuc run`: its options and how it runs (opuc_app.cc lists the commands).
Command AddRunCommand(CLI::App& app);

}  // namespace opuc::cli

#endif  // OPUC_TOOLS_RUN_H
