// docs/cli.md against the command line itself: every subcommand and option
// that CLI11 knows (the tree opuc builds, AddCommands) is documented in the
// subcommand's section, and the page has a sane size (a runaway edit once
// made it 36,429 lines).
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "opuc/exit_codes.h"
#include "opuc/opuc_app.h"

namespace opuc::cli {
namespace {

std::string ReadCliDoc() {
  std::ifstream in(std::string(OPUC_SOURCE_DIR) + "/docs/cli.md");
  REQUIRE_MESSAGE(in, "docs/cli.md is missing");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// The text of the section whose heading starts "## `opuc <command>", up to
/// the next "## " heading; empty when there is none.
std::string Section(const std::string& doc, const std::string& command) {
  const std::string heading = "\n## `opuc " + command;
  size_t begin = doc.find(heading + " ");
  if (begin == std::string::npos) begin = doc.find(heading + "`");
  if (begin == std::string::npos) return "";
  const size_t end = doc.find("\n## ", begin + 1);
  return doc.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
}

/// How the docs write an option: "--json", "-o", or a positional's "MODEL".
std::vector<std::string> Spellings(const CLI::Option& option) {
  std::vector<std::string> names;
  for (const std::string& name : option.get_lnames()) names.push_back("--" + name);
  for (const std::string& name : option.get_snames()) names.push_back("-" + name);
  if (names.empty()) names.push_back(option.get_name());
  return names;
}

TEST_CASE("docs/cli.md documents every command and option of opuc") {
  const std::string doc = ReadCliDoc();
  CLI::App app("opuc", "opuc");
  const std::vector<Command> commands = AddCommands(app);
  REQUIRE(commands.size() == app.get_subcommands({}).size());
  for (const Command& command : commands) {
    const std::string name = command.cli->get_name();
    const std::string section = Section(doc, name);
    CHECK_MESSAGE(!section.empty(), "docs/cli.md has no section '## `opuc " << name << " ...`'");
    CHECK_MESSAGE(doc.find("\nopuc " + name + " ") != std::string::npos,
                  "the synopsis at the top of docs/cli.md lacks `opuc " << name << "`");
    for (const CLI::Option* option : command.cli->get_options()) {
      if (option == command.cli->get_help_ptr()) continue;
      for (const std::string& spelling : Spellings(*option))
        CHECK_MESSAGE(
            section.find(spelling) != std::string::npos,
            "docs/cli.md's section on `opuc " << name << "` does not mention " << spelling);
    }
  }
  CHECK(doc.find("opuc --version") != std::string::npos);
  const size_t begin = doc.find("\n## Global options");
  REQUIRE_MESSAGE(begin != std::string::npos, "docs/cli.md has no section '## Global options'");
  const std::string section = doc.substr(begin, doc.find("\n## ", begin + 1) - begin);
  GlobalOptions global;
  CLI::App top("opuc", "opuc");
  AddGlobalOptions(top, &global);
  for (const CLI::Option* option : top.get_options()) {
    if (option == top.get_help_ptr()) continue;
    for (const std::string& spelling : Spellings(*option))
      CHECK_MESSAGE(section.find(spelling) != std::string::npos,
                    "docs/cli.md's section on global options does not mention " << spelling);
  }
}

TEST_CASE("docs/cli.md stays a page, not a runaway edit") {
  const std::string doc = ReadCliDoc();
  size_t lines = 0;
  for (char c : doc) lines += c == '\n';
  CHECK(lines > 50);
  CHECK(lines < 600);
  CHECK(doc.size() < 48 * 1024);
}

TEST_CASE("an exception in a command is exit 3 with one line, not an abort") {
  std::ostringstream err;
  const int code = RunGuarded([]() -> int { throw std::runtime_error("stoll"); }, err);
  CHECK(code == 3);
  CHECK(err.str() == "opuc: internal error: stoll (please report it)\n");
  std::ostringstream quiet;
  CHECK(RunGuarded([] { return 1; }, quiet) == 1);
  CHECK(quiet.str().empty());
}

TEST_CASE("an error is one line, control bytes from a file's names are shown, not sent") {
  std::ostringstream err;
  // A tensor named with an escape sequence (it would turn the terminal red)
  // and a line break; UTF-8 passes as it is.
  const Status status = InvalidArgument("m.tflite: tensor 0 'a\x1b[31mb\nc\x7f é'");
  CHECK(ReportError(status, err) == 2);
  CHECK(err.str() == "opuc: error: m.tflite: tensor 0 'a\\x1b[31mb c\\x7f é'\n");
}

}  // namespace
}  // namespace opuc::cli
