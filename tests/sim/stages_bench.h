// The bench around hw/tb/opu_stages_tb.sv for tests/sim's stage tests:
// wide ports set and read a field at a time, the stages clocked until their
// pipelines have passed the inputs through.
#ifndef OPUC_TESTS_SIM_STAGES_BENCH_H
#define OPUC_TESTS_SIM_STAGES_BENCH_H

#include <cstdint>
#include <memory>

#include "Vopu_stages_tb.h"
#include "verilated.h"

namespace opuc::test {

// Bits [lsb, lsb + width) of a wide port, width <= 64.
template <std::size_t N>
void Put(VlWide<N>& port, int lsb, int width, int64_t value) {
  for (int b = 0; b < width; ++b) {
    const int bit = lsb + b;
    const uint32_t mask = uint32_t{1} << (bit % 32);
    if ((static_cast<uint64_t>(value) >> b) & 1U)
      port[static_cast<size_t>(bit / 32)] |= mask;
    else
      port[static_cast<size_t>(bit / 32)] &= ~mask;
  }
}
template <std::size_t N>
int64_t Lane(const VlWide<N>& port, int j) {  // a signed 48-bit lane
  uint64_t v = 0;
  for (int b = 0; b < 48; ++b) {
    const int bit = 48 * j + b;
    v |= static_cast<uint64_t>((port[static_cast<size_t>(bit / 32)] >> (bit % 32)) & 1U) << b;
  }
  return static_cast<int64_t>(v << 16) >> 16;
}

struct Bench {
  std::unique_ptr<VerilatedContext> context = std::make_unique<VerilatedContext>();
  std::unique_ptr<Vopu_stages_tb> tb = std::make_unique<Vopu_stages_tb>(context.get());
  Bench() {
    for (int j = 0; j < 4; ++j) Entry(j, 0);
    for (size_t w = 0; w < 8; ++w) tb->param_i[w] = 0;
    tb->lo_i = static_cast<uint16_t>(-128);
    tb->hi_i = 127;
    tb->rst_ni = 0;
    tb->clk_i = 0;
    tb->eval();
    tb->rst_ni = 1;
    tb->eval();
  }
  void Entry(int lane, int64_t v) { Put(tb->entry_i, 48 * lane, 48, v); }
  // Param slot of `lane`: bias (bytes 0-3), M (4-5), S (6), alpha (7).
  void Param(int lane, int m, int s, int alpha) {
    Put(tb->param_i, 64 * lane + 32, 16, m);
    Put(tb->param_i, 64 * lane + 48, 8, s);
    Put(tb->param_i, 64 * lane + 56, 8, alpha);
  }
  void Range(int lo, int hi) {
    tb->lo_i = static_cast<uint16_t>(lo);
    tb->hi_i = static_cast<uint16_t>(hi);
  }
  void Clock() {
    tb->clk_i = 1;
    tb->eval();
    tb->clk_i = 0;
    tb->eval();
  }
  // The stages are pipelined (POST_STAGE_CYCLES, AVERAGE_CYCLES registers):
  // inputs held, a few clocks bring them to the outputs.
  void Settle() {
    for (int k = 0; k < 8; ++k) Clock();
  }
  // Average's divisor for count_i, avg_shift_i, lo_i and hi_i: the cycles
  // opu_average_recip takes (20, which codegen's estimate counts).
  int PrepareAverage() {
    tb->avg_start_i = 1;
    Clock();
    tb->avg_start_i = 0;
    int cycles = 1;
    for (; !tb->avg_done_o && cycles < 100; ++cycles) Clock();
    return cycles;
  }
};

}  // namespace opuc::test

#endif  // OPUC_TESTS_SIM_STAGES_BENCH_H
