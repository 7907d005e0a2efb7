//===- src/fsim/prelu.cc - The compare stage's prelu -------------------===//
//
// numerics.md §5, prelu: a value q >= 0 becomes rhu(q / 2^(f_in - f_out)),
// a negative one the exact product with its lane's alpha, rounded once:
// rhu(q · alpha[j] / 2^(f_in + f_alpha - f_out)); then clamped to the
// output format. Alpha is byte 7 of each lane of a param row.
//
//===----------------------------------------------------------------------===//
#include "machine.h"
#include "opuc/numerics/fixed_point.h"

namespace opuc::fsim {

Status ExecPRelu(Machine& m, const isa::PReluInsn& insn) {
  const int64_t Co = m.units.out_lanes;
  OPUC_RETURN_IF_ERROR(m.CheckPost(insn.acc_addr, insn.count, insn.lo, insn.hi));
  OPUC_RETURN_IF_ERROR(
      m.InRange("param_addr", insn.param_addr, 1, m.units.param_rows, "param row"));
  if (m.dry) return OkStatus();  // checked; no data to move
  for (int64_t e = insn.acc_addr; e < insn.acc_addr + insn.count; ++e) {
    int64_t* acc = &m.acc[static_cast<size_t>(e * Co)];
    for (int64_t j = 0; j < Co; ++j) {
      const int64_t q = acc[j];
      const int64_t v =
          q >= 0 ? ShrRhu(q, static_cast<int>(insn.pos_shift))
                 : ShrRhu(q * m.Alpha(insn.param_addr, j), static_cast<int>(insn.neg_shift));
      acc[j] = ClampInt64(v, insn.lo, insn.hi);
    }
  }
  m.counters.post_entries += insn.count;
  return OkStatus();
}

}  // namespace opuc::fsim
