//===- tools/opuc/inspect.h - `opuc inspect` --------------------*- C++ -*-===//
#ifndef OPUC_TOOLS_INSPECT_H
#define OPUC_TOOLS_INSPECT_H

#include <ostream>
#include <string>

#include "opuc/command.h"

namespace opuc::cli {

struct InspectOptions {
  std::string model;
  bool json = false;
};

/// Loads the model and prints what it holds: format, operator histogram,
/// inputs and outputs, tensor count and constant bytes. A .tflite with
/// operators opuc cannot import still shows its operators, those marked, and
/// exits 0. Returns the exit code.
int RunInspect(const InspectOptions& options, std::ostream& out, std::ostream& err);

/// `opuc inspect`: its options and how it runs (opuc_app.cc lists the commands).
Command AddInspectCommand(CLI::App& app);

}  // namespace opuc::cli

#endif  // OPUC_TOOLS_INSPECT_H
