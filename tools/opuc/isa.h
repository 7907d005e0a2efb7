//===- tools/opuc/isa.h - `opuc isa` -----------------------------*- C++ -*-===//
#ifndef OPUC_TOOLS_ISA_H
#define OPUC_TOOLS_ISA_H

#include "opuc/command.h"

namespace opuc::cli {

/// `opuc isa --markdown | --sv`: the field table of include/opuc/isa/isa.def
/// as the table of docs/isa.md or as the SystemVerilog package for hw/.
Command AddIsaCommand(CLI::App& app);

}  // namespace opuc::cli

#endif  // OPUC_TOOLS_ISA_H
