// The RTL against the functional simulator on one program: run the RTL from
// the DRAM image the functional simulator started from, and require every
// DRAM byte to end equal (a difference names the first byte and both
// values) and the engines' counts to be the functional simulator's. Test suites built with
// OPUC_ALSO_RTL (opuc_rtl_tests) call it after each functional simulator run, so every hand-built
// and random instruction test of the back end runs on the RTL too.
#ifndef OPUC_TESTS_SIM_RTL_CHECK_H
#define OPUC_TESTS_SIM_RTL_CHECK_H

#include <doctest/doctest.h>

#include <cstdint>
#include <variant>
#include <vector>

#include "rtl.h"

namespace opuc::rtl_test {

// The last Store of `program` that writes DRAM byte `at` (lanes of L-byte
// pixels, rows `dram_stride` apart), or -1.
inline int64_t LastStoreOf(const std::vector<isa::Word>& program, int64_t lanes_per_pixel,
                           int64_t at) {
  int64_t last = -1;
  for (size_t i = 0; i < program.size(); ++i) {
    Expected<isa::Instruction> insn = isa::Decode(program[i]);
    if (!insn.ok() || !std::holds_alternative<isa::StoreInsn>(*insn)) continue;
    const auto& s = std::get<isa::StoreInsn>(*insn);
    const int64_t offset = at - s.dram_addr;
    if (offset < 0 || s.dram_stride <= 0) continue;
    const int64_t r = offset / s.dram_stride, in_row = offset % s.dram_stride;
    const int64_t c = in_row / lanes_per_pixel, lane = in_row % lanes_per_pixel;
    if (r < s.rows && c < s.cols && lane < s.lanes) last = static_cast<int64_t>(i);
  }
  return last;
}

inline void RequireRtlMatches(const HwConfig& hw, const std::vector<isa::Word>& program,
                              std::vector<uint8_t> before, const std::vector<uint8_t>& fsim,
                              const OpuCounters& fsim_counts) {
  rtl::RtlStats stats;
  const Status run = rtl::RunRtl(hw, program, before, &stats);
  REQUIRE_MESSAGE(run.ok(), run.ToString());
  const OpuCounters& c = stats.counters;
  CHECK(c.instructions == fsim_counts.instructions);
  CHECK(c.bytes_loaded == fsim_counts.bytes_loaded);
  CHECK(c.bytes_stored == fsim_counts.bytes_stored);
  CHECK(c.gemm_issues == fsim_counts.gemm_issues);
  CHECK(c.post_entries == fsim_counts.post_entries);
  CHECK(c.cycles > 0);
  REQUIRE(before.size() == fsim.size());
  int64_t differing = 0, first = -1;
  for (size_t i = 0; i < fsim.size(); ++i) {
    if (before[i] == fsim[i]) continue;
    if (first < 0) first = static_cast<int64_t>(i);
    ++differing;
  }
  if (first < 0) return;
  const auto at = static_cast<size_t>(first);
  FAIL("the RTL diverges from fsim at DRAM byte "
       << first << ": fsim " << int{fsim[at]} << ", rtl " << int{before[at]} << " (" << differing
       << " bytes differ; the byte's last writer is instruction "
       << LastStoreOf(program, hw.array.input_channels, first) << ")");
}

}  // namespace opuc::rtl_test

#endif  // OPUC_TESTS_SIM_RTL_CHECK_H
