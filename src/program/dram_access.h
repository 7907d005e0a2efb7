//===- src/program/dram_access.h - Where instructions touch DRAM -*- C++ -*-===//
#ifndef OPUC_SRC_PROGRAM_DRAM_ACCESS_H
#define OPUC_SRC_PROGRAM_DRAM_ACCESS_H

#include "opuc/program/program.h"

namespace opuc {

/// Decodes every word of the OPU step and checks its DRAM accesses: a Load
/// reads inside the constants, one of the step's input regions or the
/// region of a tensor its nodes make, a Store writes inside one of its
/// output regions or such a tensor's. The message names the word,
/// the instruction and the byte range.
Status CheckDramAccesses(const Program& program, const ProgramStep& step);

}  // namespace opuc

#endif  // OPUC_SRC_PROGRAM_DRAM_ACCESS_H
