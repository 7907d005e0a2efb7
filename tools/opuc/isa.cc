//===- tools/opuc/isa.cc - `opuc isa` -------------------------------------===//
#include "opuc/isa.h"

#include "opuc/exit_codes.h"
#include "opuc/isa/isa.h"

namespace opuc::cli {
namespace {

struct IsaOptions {
  bool markdown = false;
  bool sv = false;
};

int RunIsa(const IsaOptions& options, std::ostream& out, std::ostream& /*err*/) {
  out << (options.sv ? isa::IsaSystemVerilog() : isa::IsaMarkdown());
  return kExitOk;
}

}  // namespace

Command AddIsaCommand(CLI::App& app) {
  return AddCommand<IsaOptions>(
      app, "isa", "Print the OPU instruction set's field table (docs/isa.md)",
      [](CLI::App& cli, IsaOptions& o) {
        auto* md = cli.add_flag("--markdown", o.markdown,
                                "As the Markdown table of docs/isa.md (the default)");
        cli.add_flag("--sv", o.sv, "As the SystemVerilog package opuc_isa_pkg for hw/")
            ->excludes(md);
      },
      &RunIsa);
}

}  // namespace opuc::cli
