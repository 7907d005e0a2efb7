//===- tools/opuc/opuc_app.cc - The opuc command line -----------------------===//
#include "opuc/opuc_app.h"

#include <flatbuffers/base.h>

#include <algorithm>
#include <exception>
#include <string>

#include "opuc/compile.h"
#include "opuc/detect.h"
#include "opuc/disasm.h"
#include "opuc/exit_codes.h"
#include "opuc/inspect.h"
#include "opuc/isa.h"
#include "opuc/opt.h"
#include "opuc/partition.h"
#include "opuc/quantize.h"
#include "opuc/report.h"
#include "opuc/run.h"
#include "opuc/verify.h"
#include "opuc/version.h"

namespace opuc::cli {
namespace {

constexpr const char* kDescription =
    "opuc: ahead-of-time compiler for the OPU (Overlay Processing Unit) FPGA accelerator.\n"
    "Reads .tflite and .opug models; see `opuc <command> --help` for each command.";

std::string VersionText() {
  return std::string("opuc ") + OPUC_VERSION + " (FlatBuffers " +
         std::to_string(FLATBUFFERS_VERSION_MAJOR) + "." +
         std::to_string(FLATBUFFERS_VERSION_MINOR) + "." +
         std::to_string(FLATBUFFERS_VERSION_REVISION) + ")";
}

bool IsCommand(const std::vector<Command>& commands, const std::string& name) {
  for (const Command& command : commands)
    if (command.cli->get_name() == name) return true;
  return false;
}

std::string CommandNames(const std::vector<Command>& commands) {
  std::string names;
  for (const Command& command : commands)
    names += (names.empty() ? "" : ", ") + command.cli->get_name();
  return names;
}

int ParseAndRun(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  CLI::App app(kDescription, "opuc");
  app.set_version_flag("--version", VersionText());
  app.require_subcommand(1);
  const std::vector<Command> commands = AddCommands(app);

  // CLI11 would call an unknown command "A subcommand is required"; name it.
  if (argc > 1 && argv[1][0] != '-' && !IsCommand(commands, argv[1])) {
    err << "opuc: error: unknown command '" << argv[1] << "' (commands: " << CommandNames(commands)
        << "; see opuc --help)\n";
    return kExitBadInput;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {  // --help, --version
    return app.exit(e, out, err);
  } catch (const CLI::ParseError& e) {
    // One line with opuc's prefix, as every other bad input gets (CLI11's own
    // message may span lines and carries no prefix).
    std::string what = e.what();
    std::replace(what.begin(), what.end(), '\n', ' ');
    err << "opuc: error: " << what << " (see opuc --help)\n";
    return kExitBadInput;
  }
  for (const Command& command : commands)
    if (command.cli->parsed()) return command.run(out, err);
  return kExitBadInput;
}

}  // namespace

std::vector<Command> AddCommands(CLI::App& app) {
  return {AddInspectCommand(app),  AddRunCommand(app),       AddOptCommand(app),
          AddQuantizeCommand(app), AddPartitionCommand(app), AddCompileCommand(app),
          AddVerifyCommand(app),   AddDetectCommand(app),    AddReportCommand(app),
          AddDisasmCommand(app),   AddIsaCommand(app)};
}

int RunOpuc(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  return RunGuarded([&] { return ParseAndRun(argc, argv, out, err); }, err);
}

int RunGuarded(const std::function<int()>& body, std::ostream& err) {
  try {
    return body();
  } catch (const std::exception& e) {
    err << "opuc: internal error: " << e.what() << " (please report it)\n";
  } catch (...) {
    err << "opuc: internal error: an unknown exception (please report it)\n";
  }
  return kExitInternal;
}

}  // namespace opuc::cli
