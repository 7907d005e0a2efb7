//===- src/fsim/output_stage.cc - acc * M >> S, saturated --------------===//
//
// numerics.md §3 per lane j: clamp(rhu(acc · M[j] / 2^S[j]), lo, hi), where
// [lo, hi] is the output's format narrowed by a fused activation. In place:
// the accumulator entry then holds the output value.
//
//===----------------------------------------------------------------------===//
#include "machine.h"
#include "opuc/numerics/fixed_point.h"

namespace opuc::fsim {

Status ExecOutput(Machine& m, const isa::OutputInsn& insn) {
  const int64_t Co = m.units.out_lanes;
  OPUC_RETURN_IF_ERROR(m.CheckPost(insn.acc_addr, insn.count, insn.lo, insn.hi));
  OPUC_RETURN_IF_ERROR(
      m.InRange("param_addr", insn.param_addr, 1, m.units.param_rows, "param row"));
  if (m.dry) return OkStatus();  // checked; no data to move
  for (int64_t j = 0; j < Co; ++j) {
    const int64_t multiplier = m.Multiplier(insn.param_addr, j);
    const int shift = m.Shift(insn.param_addr, j);
    for (int64_t e = insn.acc_addr; e < insn.acc_addr + insn.count; ++e) {
      int64_t& acc = m.acc[static_cast<size_t>(e * Co + j)];
      acc = RequantTo(acc * multiplier, shift, insn.lo, insn.hi);  // |acc·M| < 2^62
    }
  }
  m.counters.post_entries += insn.count;
  return OkStatus();
}

}  // namespace opuc::fsim
