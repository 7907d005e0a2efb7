//===- tools/opuc/opt.h - `opuc opt` ----------------------------*- C++ -*-===//
#ifndef OPUC_TOOLS_OPT_H
#define OPUC_TOOLS_OPT_H

#include <ostream>
#include <string>
#include <vector>

#include "opuc/command.h"

namespace opuc::cli {

struct OptOptions {
  std::string model;
  std::vector<std::string> passes;  ///< Empty: the default pipeline.
  int opt_level = 2;
  std::vector<std::string> disabled;
  std::vector<std::string> required;
  std::vector<std::string> config;  ///< "key=value" pass options.
  bool print_ir = false;
  bool print_ir_after_all = false;
  bool time = false;
  bool verify_each = false;
  std::string output;  ///< Write the result here (.opug or .opug.json).
};

/// Runs a named pipeline over the model, like LLVM's opt. Prints the IR
/// (--print-ir) to `out`, and the pass report (--time) and a summary to `err`.
int RunOpt(const OptOptions& options, std::ostream& out, std::ostream& err);

/// `opuc opt`: its options and how it runs (opuc_app.cc lists the commands).
Command AddOptCommand(CLI::App& app);

}  // namespace opuc::cli

#endif  // OPUC_TOOLS_OPT_H
