//===- src/fsim/pool.cc - The pool stage: max or sum over windows ------===//
//
// numerics.md §5: max_pool2d takes the max of the window's taps inside the
// input, avg_pool2d and mean their sum divided by their count; padding is
// never a value. Here the input is a source tile of accumulator entries
// (src_rows x src_cols, row by row); window oy starts at source row
// oy * stride_y - pad_y, and its rows or columns outside the tile are left
// out, which is how a SAME pool's padding reaches the hardware. With
// `accumulate` a window spread over several tiles (a global average)
// gathers its taps tile by tile into one entry. A max's
// requantization (requant is monotone, so max then requant is the rule) is
// a Clamp on the pooled entries; a sum's division is Average.
// The pooled entries go to their own place: writing over the source while
// later windows still read it would make the result depend on the order the
// hardware walks the windows.
//
//===----------------------------------------------------------------------===//
#include <algorithm>

#include "machine.h"
#include "opuc/numerics/fixed_point.h"

namespace opuc::fsim {

Status ExecPool(Machine& m, const isa::PoolInsn& insn) {
  const int64_t Co = m.units.out_lanes;
  if (insn.size_y < 1 || insn.size_x < 1 || insn.stride_y < 1 || insn.stride_x < 1)
    return m.Fail(Cat("the window is ", insn.size_y, "x", insn.size_x, " with strides ",
                      insn.stride_y, "x", insn.stride_x, "; each is at least 1"));
  if (insn.out_rows == 0 || insn.out_cols == 0) return OkStatus();
  if (insn.pad_y >= insn.size_y || insn.pad_x >= insn.size_x)
    return m.Fail(Cat("pad ", insn.pad_y, "x", insn.pad_x, " puts window (0, 0) of ", insn.size_y,
                      "x", insn.size_x, " wholly in padding"));
  if ((insn.out_rows - 1) * insn.stride_y - insn.pad_y >= insn.src_rows ||
      (insn.out_cols - 1) * insn.stride_x - insn.pad_x >= insn.src_cols)
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
  if (m.dry) return OkStatus();  // checked; no data to move
  const auto entry = [&](int64_t addr) { return &m.acc[static_cast<size_t>(addr * Co)]; };
  int64_t taps = 0;
  for (int64_t oy = 0; oy < insn.out_rows; ++oy) {
    const int64_t start_y = oy * insn.stride_y - insn.pad_y;
    const int64_t y0 = std::max<int64_t>(0, start_y),
                  y1 = std::min(insn.src_rows, start_y + insn.size_y);
    for (int64_t ox = 0; ox < insn.out_cols; ++ox) {
      const int64_t start_x = ox * insn.stride_x - insn.pad_x;
      const int64_t x0 = std::max<int64_t>(0, start_x),
                    x1 = std::min(insn.src_cols, start_x + insn.size_x);
      const int64_t dst = insn.dst_addr + oy * insn.out_cols + ox;
      int64_t* out = entry(dst);
      if (!insn.accumulate) {
        const int64_t* first = entry(insn.src_addr + y0 * insn.src_cols + x0);
        std::copy(first, first + Co, out);
        if (insn.sum) std::fill(out, out + Co, 0);
      }
      for (int64_t y = y0; y < y1; ++y)
        for (int64_t x = x0; x < x1; ++x) {
          const int64_t* v = entry(insn.src_addr + y * insn.src_cols + x);
          for (int64_t j = 0; j < Co; ++j) {
            out[j] = insn.sum ? out[j] + v[j] : std::max(out[j], v[j]);
            if (out[j] < kAccMin || out[j] > kAccMax)
              return m.Fail(Cat("accumulator entry ", dst, " lane ", j, " reaches ", out[j],
                                ", outside 48 bits"));
          }
          ++taps;
        }
    }
  }
  m.counters.post_entries += taps;  // the stage reads one entry a cycle
  return OkStatus();
}

// numerics.md §5: y = clamp(rhu_div(sum · 2^max(d,0), count · 2^max(−d,0)),
// lo, hi) with d = f_out − f_in = −shift. The scaled sum must stay inside
// the accumulator's 48 bits (codegen proves it); a 20-bit count shifted by
// at most 15 keeps 2n + m inside 64 bits.
Status ExecAverage(Machine& m, const isa::AverageInsn& insn) {
  const int64_t Co = m.units.out_lanes;
  if (insn.count < 1) return m.Fail("count is 0: an average of no taps");
  if (insn.rows == 0 || insn.cols == 0) return OkStatus();
  if (insn.rows > 1 && insn.pitch < insn.cols)
    return m.Fail(Cat("pitch ", insn.pitch, " is less than the ", insn.cols, " sums of a row"));
  const int64_t last = insn.acc_addr + (insn.rows - 1) * insn.pitch + insn.cols - 1;
  OPUC_RETURN_IF_ERROR(m.CheckPost(insn.acc_addr, last - insn.acc_addr + 1, insn.lo, insn.hi));
  if (m.dry) return OkStatus();  // checked; no data to move
  const int64_t up = insn.shift < 0 ? -insn.shift : 0, down = insn.shift > 0 ? insn.shift : 0;
  for (int64_t r = 0; r < insn.rows; ++r)
    for (int64_t c = 0; c < insn.cols; ++c) {
      int64_t* v = &m.acc[static_cast<size_t>((insn.acc_addr + r * insn.pitch + c) * Co)];
      for (int64_t j = 0; j < Co; ++j) {
        const int64_t n = v[j] * (int64_t{1} << up);
        if (n < kAccMin || n > kAccMax)
          return m.Fail(Cat("sum ", v[j], " of entry ", insn.acc_addr + r * insn.pitch + c,
                            " lane ", j, " times 2^", up, " is outside 48 bits"));
        v[j] = std::clamp(RhuDiv(n, insn.count << down), insn.lo, insn.hi);
      }
    }
  m.counters.post_entries += insn.rows * insn.cols;
  return OkStatus();
}

}  // namespace opuc::fsim
