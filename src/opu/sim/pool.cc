//===- src/opu/sim/pool.cc - The pool stage: max over windows -------------===//
//
// numerics.md §5, max_pool2d: the max of the window's taps inside the
// input; padding is never a value. Here the input is a source tile of
// accumulator entries (src_rows x src_cols, row by row) and a window's rows
// or columns past the tile are left out, which is how a SAME pool's bottom
// and right padding reach the hardware. The requantization that follows
// (requant is monotone, so max then requant is the rule) is a Clamp on the
// pooled entries. The pooled entries go to their own place: writing over
// the source while later windows still read it would make the result
// depend on the order the hardware walks the windows.
//
//===----------------------------------------------------------------------===//
#include <algorithm>

#include "machine.h"

namespace opuc::fsim {

Status ExecMaxPool(Machine& m, const isa::MaxPoolInsn& insn) {
  const int64_t Co = m.units.out_lanes;
  if (insn.size_y < 1 || insn.size_x < 1 || insn.stride_y < 1 || insn.stride_x < 1)
    return m.Fail(Cat("the window is ", insn.size_y, "x", insn.size_x, " with strides ",
                      insn.stride_y, "x", insn.stride_x, "; each is at least 1"));
  if (insn.out_rows == 0 || insn.out_cols == 0) return OkStatus();
  if ((insn.out_rows - 1) * insn.stride_y >= insn.src_rows ||
      (insn.out_cols - 1) * insn.stride_x >= insn.src_cols)
    return m.Fail(Cat("pooled pixel (", insn.out_rows - 1, ", ", insn.out_cols - 1,
                      ")'s window starts outside the ", insn.src_rows, "x", insn.src_cols,
                      " source"));
  const int64_t src_count = insn.src_rows * insn.src_cols,
                dst_count = insn.out_rows * insn.out_cols;
  OPUC_RETURN_IF_ERROR(
      m.InRange("src_addr", insn.src_addr, src_count, m.units.acc_entries, "accumulator entry"));
  OPUC_RETURN_IF_ERROR(
      m.InRange("dst_addr", insn.dst_addr, dst_count, m.units.acc_entries, "accumulator entry"));
  if (insn.dst_addr < insn.src_addr + src_count && insn.src_addr < insn.dst_addr + dst_count)
    return m.Fail(Cat("dst_addr entries ", insn.dst_addr, " to ", insn.dst_addr + dst_count - 1,
                      " overlap the source's ", insn.src_addr, " to ",
                      insn.src_addr + src_count - 1));
  const auto entry = [&](int64_t addr) { return &m.acc[static_cast<size_t>(addr * Co)]; };
  int64_t taps = 0;
  for (int64_t oy = 0; oy < insn.out_rows; ++oy) {
    const int64_t y0 = oy * insn.stride_y, y1 = std::min(insn.src_rows, y0 + insn.size_y);
    for (int64_t ox = 0; ox < insn.out_cols; ++ox) {
      const int64_t x0 = ox * insn.stride_x, x1 = std::min(insn.src_cols, x0 + insn.size_x);
      int64_t* out = entry(insn.dst_addr + oy * insn.out_cols + ox);
      const int64_t* first = entry(insn.src_addr + y0 * insn.src_cols + x0);
      std::copy(first, first + Co, out);
      for (int64_t y = y0; y < y1; ++y)
        for (int64_t x = x0; x < x1; ++x) {
          const int64_t* v = entry(insn.src_addr + y * insn.src_cols + x);
          for (int64_t j = 0; j < Co; ++j) out[j] = std::max(out[j], v[j]);
          ++taps;
        }
    }
  }
  m.counters.post_entries += taps;  // the stage reads one entry a cycle
  return OkStatus();
}

}  // namespace opuc::fsim
