//===- src/fsim/compare.cc - The compare stage: relu, relu6, clips -----===//
//
// numerics.md §3: clamp(requant(q, f_in − f_out), lo, hi) on values the
// output stage left in the accumulator.
//
//===----------------------------------------------------------------------===//
#include "machine.h"
#include "opuc/numerics/fixed_point.h"

namespace opuc::fsim {

Status ExecClamp(Machine& m, const isa::ClampInsn& insn) {
  const int64_t Co = m.units.out_lanes;
  OPUC_RETURN_IF_ERROR(m.CheckPost(insn.acc_addr, insn.count, insn.lo, insn.hi));
  if (m.dry) return OkStatus();  // checked; no data to move
  for (int64_t i = insn.acc_addr * Co; i < (insn.acc_addr + insn.count) * Co; ++i) {
    int64_t& v = m.acc[static_cast<size_t>(i)];
    v = RequantTo(v, static_cast<int>(insn.shift), insn.lo, insn.hi);
  }
  m.counters.post_entries += insn.count;
  return OkStatus();
}

}  // namespace opuc::fsim
