//===- tools/opuc/opuc_app.cc - The opuc command line -----------------------===//
#include "opuc/opuc_app.h"

#include <flatbuffers/base.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <exception>
#include <optional>
#include <string>

#include "opuc/compile.h"
#include "opuc/detect.h"
#include "opuc/disasm.h"
#include "opuc/exit_codes.h"
#include "opuc/inspect.h"
#include "opuc/isa.h"
#include "opuc/opt.h"
#include "opuc/output.h"
#include "opuc/partition.h"
#include "opuc/quantize.h"
#include "opuc/report.h"
#include "opuc/run.h"
#include "opuc/tensor_io/allocation_limit.h"
#include "opuc/verify.h"
#include "opuc/version.h"
#include "support/output_file.h"

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

/// "4294967296", "4G", "512M", "64K" (powers of 1024); nullopt otherwise.
std::optional<uint64_t> ParseByteCount(const std::string& text) {
  uint64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [rest, error] = std::from_chars(text.data(), end, value);
  if (error != std::errc() || rest == text.data()) return std::nullopt;
  if (rest == end) return value;
  if (rest + 1 != end) return std::nullopt;
  const std::string units = "KMGT";
  const size_t unit =
      units.find(static_cast<char>(std::toupper(static_cast<unsigned char>(*rest))));
  if (unit == std::string::npos) return std::nullopt;
  const int shift = 10 * static_cast<int>(unit + 1);
  if (value > (UINT64_MAX >> shift)) return std::nullopt;
  return value << shift;
}

int ParseAndRun(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  CLI::App app(kDescription, "opuc");
  app.set_version_flag("--version", VersionText());
  app.require_subcommand(1);
  GlobalOptions global;
  AddGlobalOptions(app, &global);
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
  if (!global.max_buffer_bytes.empty()) {
    const std::optional<uint64_t> limit = ParseByteCount(global.max_buffer_bytes);
    if (!limit || *limit == 0) {
      err << "opuc: error: --max-buffer-bytes '" << global.max_buffer_bytes
          << "': expected a number of bytes such as 4294967296 or 4G (see opuc --help)\n";
      return kExitBadInput;
    }
    SetAllocationLimit(*limit);
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

void AddGlobalOptions(CLI::App& app, GlobalOptions* options) {
  app.add_option("--max-buffer-bytes", options->max_buffer_bytes,
                 "The largest tensor, CPU arena or simulated DRAM opuc allocates (default 1G;"
                 " a file that declares more is refused before allocating): bytes, or with K,"
                 " M, G or T");
  app.fallthrough();  // so that the global options may follow the command too
}

int RunOpuc(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  GuardInputFiles();  // no command writes over a file it read
  // Every byte to the terminal passes TerminalBuf (names' control bytes as
  // \xNN), and stdout is flushed and checked: a report that could not be
  // written (a full disk, /dev/full) is an error, not a success.
  TerminalBuf out_buf(out.rdbuf()), err_buf(err.rdbuf());
  std::ostream terminal_out(&out_buf), terminal_err(&err_buf);
  int code =
      RunGuarded([&] { return ParseAndRun(argc, argv, terminal_out, terminal_err); }, terminal_err);
  terminal_out.flush();
  if (!terminal_out) {
    const char* reason = errno != 0 ? std::strerror(errno) : "the stream refused it";
    terminal_err << "opuc: error: standard output: cannot write: " << reason << '\n';
    code = code == kExitInternal ? code : kExitBadInput;
  }
  terminal_err.flush();
  return code;
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
