//===- src/program/dram_access.cc - Where instructions touch DRAM ---------===//
//
// The byte ranges are the ones the functional simulator's load and store
// engines compute (src/fsim/load.cc, store.cc); checking them at load
// time means a program that passes cannot scribble over another tensor or
// the weights, whatever device runs it.
//
//===----------------------------------------------------------------------===//
#include "dram_access.h"

#include <optional>
#include <variant>

#include "opuc/opu/buffer_units.h"
#include "opuc/opu/dram_order.h"
#include "support/format.h"

namespace opuc {
namespace {

struct Range {
  int64_t begin = 0, end = 0;
};

bool Inside(const Range& r, int64_t begin, int64_t end) { return begin <= r.begin && r.end <= end; }

bool InsideOneOf(const Program& program, const std::vector<TensorId>& tensors, const Range& r) {
  for (TensorId t : tensors) {
    const ActivationLayout* l = program.Find(t);
    if (l != nullptr && Inside(r, l->address, l->address + l->bytes())) return true;
  }
  return false;
}

}  // namespace

Status CheckDramAccesses(const Program& program, const ProgramStep& step) {
  const OpuBufferUnits units = BufferUnits(program.hw());
  // What the step's own nodes make: a run's maps that only its later
  // groups read are neither its inputs nor its outputs (docs/codegen.md,
  // "Runs"), but it writes and reads them.
  std::vector<TensorId> made;
  for (NodeId n : step.nodes)
    for (TensorId t : program.graph().node(n).outputs) made.push_back(t);
  for (size_t i = 0; i < step.word_count; ++i) {
    Expected<isa::Instruction> insn = isa::Decode(step.word(i));
    if (!insn.ok()) return insn.status().WithContext(Cat("word ", i));
    // The byte span each engine computes (opuc/opu/dram_order.h); none for
    // a transfer of nothing or a Store into the feature-map buffer.
    const std::optional<DramSpan> span = DramSpanOf(*insn, units);
    if (!span) continue;
    const Range r{span->begin, span->end};
    if (std::holds_alternative<isa::LoadInsn>(*insn)) {
      if (!Inside(r, 0, program.constant_bytes()) && !InsideOneOf(program, step.inputs, r) &&
          !InsideOneOf(program, made, r))
        return InvalidArgument(Cat("word ", i, " (Load): DRAM bytes [", r.begin, ", ", r.end,
                                   ") are outside the constants, the step's inputs and what its "
                                   "nodes make"));
    } else if (!InsideOneOf(program, step.outputs, r) && !InsideOneOf(program, made, r)) {
      return InvalidArgument(Cat("word ", i, " (Store): DRAM bytes [", r.begin, ", ", r.end,
                                 ") are outside the step's outputs and what its nodes make"));
    }
  }
  return OkStatus();
}

}  // namespace opuc
