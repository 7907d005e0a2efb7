//===- tools/opuc/disasm.h - `opuc disasm` -----------------------*- C++ -*-===//
#ifndef OPUC_TOOLS_DISASM_H
#define OPUC_TOOLS_DISASM_H

#include <ostream>
#include <string>

#include "opuc/command.h"

namespace opuc::cli {

struct DisasmOptions {
  std::string program;
};

int RunDisasm(const DisasmOptions& options, std::ostream& out, std::ostream& err);

Command AddDisasmCommand(CLI::App& app);

}  // namespace opuc::cli

#endif  // OPUC_TOOLS_DISASM_H
