//===- src/program/dram_access.cc - Where instructions touch DRAM ---------===//
//
// The byte ranges are the ones the functional simulator's load and store
// engines compute (src/fsim/load.cc, store.cc); checking them at load
// time means a program that passes cannot scribble over another tensor or
// the weights, whatever device runs it.
//
//===----------------------------------------------------------------------===//
#include "dram_access.h"

#include <variant>

#include "opuc/opu/buffer_units.h"
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
    if (const auto* load = std::get_if<isa::LoadInsn>(&*insn)) {
      if (load->rows == 0 || load->cols == 0) continue;
      const Range r{load->dram_addr, load->dram_addr + (load->rows - 1) * load->dram_stride +
                                         load->cols * units.LoadUnitBytes(*load)};
      if (!Inside(r, 0, program.constant_bytes()) && !InsideOneOf(program, step.inputs, r) &&
          !InsideOneOf(program, made, r))
        return InvalidArgument(Cat("word ", i, " (Load): DRAM bytes [", r.begin, ", ", r.end,
                                   ") are outside the constants, the step's inputs and what its "
                                   "nodes make"));
    } else if (const auto* store = std::get_if<isa::StoreInsn>(&*insn)) {
      if (store->rows == 0 || store->cols == 0 || store->to_fm) continue;  // to_fm: on chip
      const Range r{store->dram_addr, store->dram_addr + StoredSpan(*store, units)};
      if (!InsideOneOf(program, step.outputs, r) && !InsideOneOf(program, made, r))
        return InvalidArgument(Cat("word ", i, " (Store): DRAM bytes [", r.begin, ", ", r.end,
                                   ") are outside the step's outputs and what its nodes make"));
    }
  }
  return OkStatus();
}

}  // namespace opuc
