//===- tools/opuc/compile.h - `opuc compile` ---------------------*- C++ -*-===//
#ifndef OPUC_TOOLS_COMPILE_H
#define OPUC_TOOLS_COMPILE_H

#include <ostream>
#include <string>
#include <vector>

#include "opuc/command.h"

namespace opuc::cli {

struct CompileOptions {
  std::string model;
  std::string output;  ///< The .opup to write.
  std::string hw = "opu1024";
  int opt_level = 3;
  std::vector<std::string> disabled_passes;
  std::string calibration;  ///< Folder of samples; empty: the fetched photographs.
  std::string preprocess;
  /// auto (mixed, 16 bits per tensor and per layer, chosen on photographs
  /// kept from the statistics; opuc::DefaultQuantizeOptions), int8, mixed or int16.
  std::string precision = "auto";
  double target_sqnr = 25.0;
  bool wide_weights = false;  ///< opuc::QuantizeOptions::wide_weights.
  int threads = 0;            ///< opuc::QuantizeOptions::threads.
  bool no_runs = false;       ///< opuc::PlanOptions::runs off.
  std::string report;         ///< JSON report file.
};

int RunCompile(const CompileOptions& options, std::ostream& out, std::ostream& err);

Command AddCompileCommand(CLI::App& app);

}  // namespace opuc::cli

#endif  // OPUC_TOOLS_COMPILE_H
