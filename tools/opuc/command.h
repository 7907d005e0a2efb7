//===- tools/opuc/command.h - One subcommand of opuc -------------*- C++ -*-===//
//
// Each subcommand file declares its options on CLI11 and how it runs, through
// AddCommand; opuc_app.cc lists the subcommands. The docs test walks the same
// CLI11 tree, so a documented option cannot drift from a real one.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_TOOLS_COMMAND_H
#define OPUC_TOOLS_COMMAND_H

#include <CLI/CLI.hpp>
#include <functional>
#include <memory>
#include <ostream>

namespace opuc::cli {

struct Command {
  CLI::App* cli = nullptr;                               // the subcommand and its options
  std::function<int(std::ostream&, std::ostream&)> run;  // runs it once parsed; the exit code
};

/// Adds subcommand `name` to `app`: `declare(subcommand, options)` adds its
/// options bound to an Options that lives as long as the returned Command,
/// and `run(options, out, err)` runs it.
template <typename Options, typename Declare>
Command AddCommand(CLI::App& app, const char* name, const char* description, Declare declare,
                   int (*run)(const Options&, std::ostream&, std::ostream&)) {
  auto options = std::make_shared<Options>();
  CLI::App* cli = app.add_subcommand(name, description);
  declare(*cli, *options);
  return {cli,
          [options, run](std::ostream& out, std::ostream& err) { return run(*options, out, err); }};
}

/// The positional MODEL every model command takes.
inline void AddModelArgument(CLI::App& cli, std::string& model) {
  cli.add_option("MODEL", model, "Model file (.tflite, .opug, .opug.json)")->required();
}

}  // namespace opuc::cli

#endif  // OPUC_TOOLS_COMMAND_H
