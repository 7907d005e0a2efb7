//===- tools/opuc/opuc_app.h - The opuc command line -------------*- C++ -*-===//
//
// The whole command line: every subcommand with its options (AddCommands),
// and parsing plus running one (RunOpuc). main() only calls RunOpuc; the docs
// test reads the tree AddCommands builds.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_TOOLS_OPUC_APP_H
#define OPUC_TOOLS_OPUC_APP_H

#include <functional>
#include <ostream>
#include <vector>

#include "opuc/command.h"

namespace opuc::cli {

/// Adds every subcommand of opuc to `app`, in the order --help lists them.
std::vector<Command> AddCommands(CLI::App& app);

/// The options of opuc itself, before or after the command.
struct GlobalOptions {
  std::string max_buffer_bytes;  ///< --max-buffer-bytes, as written
};
void AddGlobalOptions(CLI::App& app, GlobalOptions* options);

/// Parses the arguments, runs the chosen command and returns the exit code
/// (docs/cli.md): usage errors exit 2, and anything a command throws, which
/// would be a bug in opuc, exits 3 (RunGuarded).
int RunOpuc(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

/// Returns body()'s exit code; when it throws, prints "opuc: internal error:
/// <what>" on one line of `err` and returns 3 instead of aborting.
int RunGuarded(const std::function<int()>& body, std::ostream& err);

}  // namespace opuc::cli

#endif  // OPUC_TOOLS_OPUC_APP_H
