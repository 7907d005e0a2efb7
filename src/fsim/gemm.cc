//===- src/fsim/gemm.cc - The inner-product array ----------------------===//
//
// One instruction is one kernel tap over a tile of output pixels: each
// pixel's L feature-map lanes (signed or unsigned bytes) times the Co x L
// weight matrix, into the pixel's Co accumulator lanes. The high byte of
// an i16 input counts 256 times (numerics.md §1b: its two passes meet
// exactly in the 48-bit accumulator).
//
//===----------------------------------------------------------------------===//
#include "machine.h"

namespace opuc::fsim {

Status ExecGemm(Machine& m, const isa::GemmInsn& insn) {
  const int64_t L = m.units.lanes, Co = m.units.out_lanes;
  if (insn.init > isa::GemmInsn::kFromZero)
    return m.Fail(Cat("init is ", insn.init, "; it is 0, 1 or 2"));
  const int64_t pixels = insn.out_rows * insn.out_cols;
  if (pixels == 0) return OkStatus();
  OPUC_RETURN_IF_ERROR(
      m.InRange("acc_addr", insn.acc_addr, pixels, m.units.acc_entries, "accumulator entry"));
  OPUC_RETURN_IF_ERROR(m.InRange("wgt_addr", insn.wgt_addr, 1, m.units.weight_rows, "weight row"));
  if (insn.init == isa::GemmInsn::kFromBias)
    OPUC_RETURN_IF_ERROR(
        m.InRange("param_addr", insn.param_addr, 1, m.units.param_rows, "param row"));
  const int64_t last_fm = insn.fm_addr + (insn.out_rows - 1) * insn.stride_y * insn.fm_pitch +
                          (insn.out_cols - 1) * insn.stride_x;
  OPUC_RETURN_IF_ERROR(m.InRange("fm_addr", insn.fm_addr, last_fm - insn.fm_addr + 1,
                                 m.units.fm_rows, "feature-map row"));
  if (m.dry) return OkStatus();  // checked; no data to move
  const int8_t* w = &m.weight[static_cast<size_t>(insn.wgt_addr * Co * L)];
  const int64_t scale = insn.high_byte ? 256 : 1;
  for (int64_t oy = 0; oy < insn.out_rows; ++oy) {
    for (int64_t ox = 0; ox < insn.out_cols; ++ox) {
      const int64_t row = insn.fm_addr + oy * insn.stride_y * insn.fm_pitch + ox * insn.stride_x;
      const int8_t* x = &m.fm[static_cast<size_t>(row * L)];
      int64_t* acc = &m.acc[static_cast<size_t>((insn.acc_addr + oy * insn.out_cols + ox) * Co)];
      for (int64_t j = 0; j < Co; ++j) {
        int64_t sum = 0;
        for (int64_t l = 0; l < L; ++l) {
          const int64_t xv = insn.fm_unsigned ? static_cast<uint8_t>(x[l]) : x[l];
          sum += xv * w[j * L + l];
        }
        const int64_t start = insn.init == isa::GemmInsn::kAccumulate ? acc[j]
                              : insn.init == isa::GemmInsn::kFromBias ? m.Bias(insn.param_addr, j)
                                                                      : 0;
        const int64_t value = start + sum * scale;
        if (value < kAccMin || value > kAccMax)
          return m.Fail(Cat("accumulator entry ", insn.acc_addr + oy * insn.out_cols + ox, " lane ",
                            j, " reaches ", value, ", outside 48 bits"));
        acc[j] = value;
      }
    }
  }
  m.counters.gemm_issues += pixels;
  return OkStatus();
}

}  // namespace opuc::fsim
