//===- opuc/compiler/write_program.h - A compiled model to .opup -*- C++ -*-===//
//
// The compile side of the program format: the runtime reads programs
// (opuc/program/program.h) and links nothing of what writes them.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_COMPILER_WRITE_PROGRAM_H
#define OPUC_COMPILER_WRITE_PROGRAM_H

#include <cstdint>
#include <vector>

#include "opuc/codegen/codegen.h"
#include "opuc/ir/graph.h"
#include "opuc/opu/hw_config.h"
#include "opuc/partition/hw_partition.h"
#include "opuc/program/program.h"
#include "opuc/status.h"

namespace opuc {

/// Serializes a compiled model: `graph` (quantized), the `partition` made
/// from it for `hw`, and the `plan` PlanSteps made of it: one program step
/// per planned step, in order, an OPU step with its words or a CPU step
/// with its reason. The bytes depend only on the arguments.
Expected<std::vector<uint8_t>> WriteProgram(const Graph& graph, const HwPartition& partition,
                                            const StepPlan& plan, const HwConfig& hw,
                                            const ProgramBuild& build);

}  // namespace opuc

#endif  // OPUC_COMPILER_WRITE_PROGRAM_H
