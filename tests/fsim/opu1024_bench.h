// Hand-built instruction streams on opu1024 (L = 64 lanes, Co = 16), for the
// tests of what tiny lacks (the depthwise window's line buffers, stores of
// four blocks a pixel): a DRAM image and the program, run on the
// functional simulator and, in opuc_rtl_instruction_tests, on the RTL too.
#ifndef OPUC_TESTS_FSIM_OPU1024_BENCH_H
#define OPUC_TESTS_FSIM_OPU1024_BENCH_H

#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "opuc/fsim/fsim.h"
#ifdef OPUC_ALSO_RTL
#include "rtl_check.h"
#endif

namespace opuc::fsim_test {

struct Opu1024Bench {
  std::vector<isa::Word> program;
  std::vector<uint8_t> dram;

  explicit Opu1024Bench(size_t bytes, uint8_t fill = 0) : dram(bytes, fill) {}

  /// Appends `insn` with the token bits these tests use.
  template <typename Insn>
  void Add(const Insn& insn, bool pop_prev = false, bool push_next = false) {
    isa::Deps deps;
    deps.pop_prev = pop_prev;
    deps.push_next = push_next;
    AddWith(insn, deps);
  }
  /// Appends `insn` with every token bit given.
  template <typename Insn>
  void AddWith(Insn insn, const isa::Deps& deps) {
    insn.deps = deps;
    Expected<isa::Word> word = isa::Encode(insn);
    REQUIRE(word.ok());
    program.push_back(*word);
  }
  Status Run(OpuCounters* counters = nullptr) {
    const HwConfig hw = *HwConfigPreset("opu1024");
    [[maybe_unused]] const std::vector<uint8_t> before = dram;
    OpuCounters counts;
    const Status status = RunFunctionalSim(hw, program, dram, &counts);
    if (counters) *counters = counts;
#ifdef OPUC_ALSO_RTL
    if (status.ok()) rtl_test::RequireRtlMatches(hw, program, before, dram, counts);
#endif
    return status;
  }
};

/// A load of one row of `units` units (L = 64 bytes each: a pixel, or a
/// weight or param row's) from `dram` to row `sram` of `buffer`.
inline isa::LoadInsn RowLoad(int64_t buffer, int64_t dram, int64_t units, int64_t sram = 0) {
  isa::LoadInsn l;
  l.buffer = buffer;
  l.sram_addr = sram;
  l.dram_addr = dram;
  l.rows = 1;
  l.cols = units;
  l.dram_stride = units * 64;
  return l;
}

/// An Output of `count` entries from `acc_addr` over the whole i8 range.
inline isa::OutputInsn Int8Outputs(int64_t acc_addr, int64_t count) {
  isa::OutputInsn o;
  o.acc_addr = acc_addr;
  o.count = count;
  o.lo = -128;
  o.hi = 127;
  return o;
}

/// A Store of a rows x cols tile from `acc_addr` (an entry a pixel, row
/// after row), `lanes` lanes a pixel, to L-byte pixels from `addr`.
inline isa::StoreInsn TileStore(int64_t acc_addr, int64_t rows, int64_t cols, int64_t lanes,
                                int64_t addr) {
  isa::StoreInsn s;
  s.acc_addr = acc_addr;
  s.acc_pitch = cols;
  s.rows = rows;
  s.cols = cols;
  s.lanes = lanes;
  s.dram_addr = addr;
  s.dram_stride = cols * 64;
  return s;
}

}  // namespace opuc::fsim_test

#endif  // OPUC_TESTS_FSIM_OPU1024_BENCH_H
