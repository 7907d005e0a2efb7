// Hand-built instruction streams for the functional simulator on `tiny`
// (L = 8 lanes, Co = 4 output lanes): a DRAM image, the program, and
// builders for the instructions most tests use.
#ifndef OPUC_TESTS_FSIM_BENCH_H
#define OPUC_TESTS_FSIM_BENCH_H

#include <doctest/doctest.h>

#include <cstring>
#include <vector>

#include "opuc/fsim/fsim.h"
#ifdef OPUC_ALSO_RTL
#include "rtl_check.h"
#endif

namespace opuc::fsim_test {

using namespace isa;

inline HwConfig Tiny() { return *HwConfigPreset("tiny"); }

struct Bench {
  HwConfig hw = Tiny();
  std::vector<Word> program;
  std::vector<uint8_t> dram = std::vector<uint8_t>(1024, 0);

  template <typename Insn>
  void Add(const Insn& insn) {
    Expected<Word> word = Encode(insn);
    REQUIRE(word.ok());
    program.push_back(*word);
  }
  void Bytes(int64_t at, std::initializer_list<int> values) {
    for (int v : values) dram[static_cast<size_t>(at++)] = static_cast<uint8_t>(v);
  }
  // One param lane: bias (i32), M (i16), S (i8), little-endian, 8 bytes.
  void Param(int64_t row_at, int lane, int32_t bias, int16_t m, int8_t s) {
    uint8_t* p = &dram[static_cast<size_t>(row_at + lane * 8)];
    std::memcpy(p, &bias, 4);
    std::memcpy(p + 4, &m, 2);
    p[6] = static_cast<uint8_t>(s);
  }
  std::vector<int> Signed(int64_t at, int n) const {
    std::vector<int> out;
    for (int i = 0; i < n; ++i)
      out.push_back(static_cast<int8_t>(dram[static_cast<size_t>(at + i)]));
    return out;
  }

  Status Run(OpuCounters* counters = nullptr) {
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

inline LoadInsn Load(int64_t buffer, int64_t sram, int64_t dram, int64_t rows, int64_t cols,
                     int64_t stride) {
  LoadInsn l;
  l.buffer = buffer;
  l.sram_addr = sram;
  l.dram_addr = dram;
  l.rows = rows;
  l.cols = cols;
  l.dram_stride = stride;
  return l;
}

inline GemmInsn Gemm(int64_t fm, int64_t pitch, int64_t rows, int64_t cols, int64_t init) {
  GemmInsn g;
  g.fm_addr = fm;
  g.fm_pitch = pitch;
  g.out_rows = rows;
  g.out_cols = cols;
  g.stride_y = g.stride_x = 1;
  g.init = init;
  return g;
}

inline OutputInsn Output(int64_t count, int64_t lo, int64_t hi) {
  OutputInsn o;
  o.count = count;
  o.lo = lo;
  o.hi = hi;
  return o;
}

inline StoreInsn Store(int64_t rows, int64_t cols, int64_t pitch, int64_t dram, int64_t stride) {
  StoreInsn s;
  s.rows = rows;
  s.cols = cols;
  s.acc_pitch = pitch;
  s.lanes = 4;
  s.dram_addr = dram;
  s.dram_stride = stride;
  return s;
}

template <typename Insn>
inline Insn With(Insn insn, Deps deps) {
  insn.deps = deps;
  return insn;
}
inline const Deps kPushNext{false, false, false, true};
inline const Deps kPopPrev{true, false, false, false};
inline const Deps kPopPrevPushNext{true, false, false, true};

// Biases only (a zero feature map): the accumulator starts at chosen values.
inline Bench BiasesThrough(std::initializer_list<int32_t> biases, int16_t m, int8_t s) {
  Bench b;
  int lane = 0;
  for (int32_t bias : biases) b.Param(128, lane++, bias, m, s);
  b.Add(Load(0, 0, 0, 1, 1, 8));
  b.Add(Load(1, 0, 64, 1, 1, 32));
  b.Add(With(Load(2, 0, 128, 1, 1, 32), kPushNext));
  b.Add(With(Gemm(0, 1, 1, 1, 1), kPopPrev));
  return b;
}

}  // namespace opuc::fsim_test

#endif  // OPUC_TESTS_FSIM_BENCH_H
