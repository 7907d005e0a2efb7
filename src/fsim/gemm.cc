//===- src/fsim/gemm.cc - The inner-product array ----------------------===//
//
// One instruction is one kernel tap over a tile of output pixels: each
// pixel's L feature-map lanes (signed or unsigned bytes) times the Co x L
// weight matrix, into the pixel's Co accumulator lanes. The high byte of
// an i16 input counts 256 times (numerics.md §1b: its two passes meet
// exactly in the 48-bit accumulator). In depthwise mode the reduction axis
// is a window of taps instead of the lanes: row j multiplies the window's
// bytes of one lane (its channel) by its taps' weights, tap (ky, kx) on
// lane 8 ky + kx (a fixed place for each tap: the RTL's window registers
// are wired to the lanes, docs/rtl.md).
//
//===----------------------------------------------------------------------===//
#include "machine.h"

namespace opuc::fsim {
namespace {
constexpr int64_t kTapRow = 8;  // lanes from one kernel row of a depthwise window to the next
}  // namespace

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
  // The window each pixel reads from its row p': 1 x 1 but in depthwise mode.
  const int64_t win_h = insn.depthwise ? insn.window_h + 1 : 1;
  const int64_t win_w = insn.depthwise ? insn.window_w + 1 : 1;
  const int64_t per_channel = insn.pair_rows ? 2 : 1;  // rows reading one lane
  if (insn.depthwise && (win_h - 1) * kTapRow + win_w > L)
    return m.Fail(Cat("a depthwise window of ", win_h, "x", win_w, " taps reaches lane ",
                      (win_h - 1) * kTapRow + win_w - 1, ": the array has ", L));
  if (insn.depthwise && insn.lane + (Co - 1) / per_channel >= L)
    return m.Fail(Cat("lane is ", insn.lane, ": its ", Co, " rows read lanes past ", L - 1));
  const int64_t last_fm = insn.fm_addr + (insn.out_rows - 1) * insn.stride_y * insn.fm_pitch +
                          (insn.out_cols - 1) * insn.stride_x + (win_h - 1) * insn.fm_pitch +
                          win_w - 1;
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
      const auto byte = [&](int64_t at) -> int64_t {
        return insn.fm_unsigned ? static_cast<uint8_t>(x[at]) : x[at];
      };
      for (int64_t j = 0; j < Co; ++j) {
        int64_t sum = 0;
        if (insn.depthwise) {
          const int64_t lane = insn.lane + j / per_channel;
          for (int64_t ky = 0; ky < win_h; ++ky)
            for (int64_t kx = 0; kx < win_w; ++kx)
              sum += byte((ky * insn.fm_pitch + kx) * L + lane) * w[j * L + ky * kTapRow + kx];
        } else {
          for (int64_t l = 0; l < L; ++l) sum += byte(l) * w[j * L + l];
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
