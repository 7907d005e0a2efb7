// The cycle estimator (src/codegen/estimate.h) on hand-built units: one
// timeline worked out by hand from the rules docs/codegen.md states, and
// the floor no estimate may go below: the DRAM takes one read or one write a
// cycle, so a group takes at least its start plus every read beat and write.
#include <doctest/doctest.h>

#include "estimate.h"

namespace opuc::codegen {
namespace {

HwConfig Opu1024WithLatency(int64_t latency) {
  HwConfig hw = *HwConfigPreset("opu1024");  // 64 bytes a cycle, 64-byte words
  hw.dram.latency_cycles = latency;
  return hw;
}

TEST_CASE("the estimator's timeline: three units of a load, a computation and a store") {
  // Each unit: a 100-beat load, a 100-cycle Gemm (+3, and +4 for the
  // array's pipeline on opu1024's L = 64: the products' register and three
  // of the adder tree's six levels), a store of 100 pixels of 16 bytes (103
  // cycles, 100 word writes). Latency 10; a load ends 14 after its last
  // beat (the latency, 3, and its setup cycle).
  // u0: load 7..107, +14 → 121; compute 135..242; store 242..345 (writes to 342).
  // u1: load 121..221 (no writes yet), +14 → 235; compute max(249, 245)..356;
  //     store max(356, 345) = 356..459.
  // u2: load from max(235, 242) = 242: u0's writes fill 242..342, 100 cycles
  //     more (load to 442, u0's store to 445, which pushes u1's to 445..548);
  //     +14 → 456; compute max(470, 359, 445) = 470..577; store max(577, 548) = 577..680.
  CycleEstimate estimate(Opu1024WithLatency(10));
  for (int u = 0; u < 3; ++u) {
    estimate.BeginUnit();
    estimate.Load(100 * 64);
    estimate.Compute(100);
    estimate.Store(100, 100 * 16);
  }
  CHECK(estimate.Total() == 680);
}

TEST_CASE("the estimator's timeline: post stages beside the next unit's Gemms, in one pass") {
  // Each unit: a 10-beat load, a 100-cycle Gemm (+3, +4 for the array's
  // pipeline), two post stages of 100 entries streamed in one pass (100 + 3,
  // +1 for the register between the two stages, +4 for each stage's
  // pipeline: 112), a store of 10 pixels of 16 bytes (13 cycles, 10 word
  // writes). Latency 10: a load takes 10 + 10 + 3 + 1 (its setup).
  // u0: load 7..31; Gemm 45..152; post 153..265; store 265..278 (writes to 275).
  // u1: load 31..55; Gemm after u0's and its two post instructions entering
  //     the queue: max(69, 152 + 3 + 2) = 157..264, beside u0's post;
  //     post max(265, 265)..377; store 377..390.
  // u2: load from u0's computation, 265: u0's writes fill 265..275, so the
  //     load ends at 265 + 20 + 14 = 299 (u0's store at 288); Gemm
  //     max(313, 269, 288) = 313..420; post 421..533; store 533..546.
  CycleEstimate estimate(Opu1024WithLatency(10));
  for (int u = 0; u < 3; ++u) {
    estimate.BeginUnit();
    estimate.Load(10 * 64);
    estimate.Compute(100);
    estimate.Post(100);
    estimate.Post(100, /*joins=*/true);
    estimate.Store(10, 10 * 16);
  }
  CHECK(estimate.Total() == 546);
}

TEST_CASE("the estimator's timeline: a paced load keeps its pace, the writes it meets wait") {
  // The first test case's units, but u2's load is of compact pixels: 50
  // beats paced to 100 pixels written, a read every second cycle over 100
  // cycles. u0 and u1 as there: u0's store 242..345 (writes to 342), u1's
  // 356..459. u2: load 242..342, where u0's 100 writes fall; the DRAM then
  // serves a read and a write every second cycle (sim/dram_model.h), so
  // the reads keep their pace and each costs the writes a cycle: u0's
  // writes to 392, its store to 395, which pushes u1's to 395..498. Load
  // 242..342, +14 → 356; compute max(370, 356 + 3, 395) = 395..502; store
  // max(502, 498) = 502..605 (with 100 beats unpaced: 680).
  CycleEstimate estimate(Opu1024WithLatency(10));
  for (int u = 0; u < 3; ++u) {
    estimate.BeginUnit();
    if (u < 2)
      estimate.Load(100 * 64);
    else
      estimate.Load(50 * 64, 0, /*written=*/100);
    estimate.Compute(100);
    estimate.Store(100, 100 * 16);
  }
  CHECK(estimate.Total() == 605);
}

TEST_CASE("the estimator's fetch: the first instruction a latency late, each unit's bytes first") {
  // One unit as in the first test case (a 100-beat load, a 100-cycle Gemm,
  // a store of 100 pixels: 345 cycles with latency 10) and its 8
  // instructions, 128 bytes: 2 cycles of opu1024's 64 bytes a cycle. The
  // start waits 10 for the first instruction: load 19..119, +14 → 133;
  // compute 147..254; store 254..357.
  CycleEstimate estimate(Opu1024WithLatency(10));
  estimate.BeginUnit();
  estimate.Fetch(8);
  estimate.Load(100 * 64);
  estimate.Compute(100);
  estimate.Store(100, 100 * 16);
  CHECK(estimate.Total() == 357);
}

TEST_CASE("the estimator's fetch queue: a unit of more Gemms than it holds delays the next loads") {
  // Two units, each a 300-beat load, 20 one-pixel Gemms (1 + 3 + 4 = 8
  // cycles each) and a store of one 16-byte pixel (4 cycles, 1 write).
  // Latency 10. u0: load 7..307, +14 → 321; Gemms 335..495, the fourth
  // issued at 335 + 3·8 = 359; store 495..499 (its write 495..496).
  // u1's loads follow u0's 20th Gemm into the queue of 16, which waits for
  // u0's fourth to issue: load from 359 (not 321) to 659, and u0's write
  // falls in it: 660, +14 → 674; Gemms max(688, 495 + 3) = 688..848;
  // store 848..852.
  CycleEstimate estimate(Opu1024WithLatency(10));
  for (int u = 0; u < 2; ++u) {
    estimate.BeginUnit();
    estimate.Load(300 * 64);
    for (int g = 0; g < 20; ++g) estimate.Compute(1);
    estimate.Store(1, 16);
  }
  CHECK(estimate.Total() == 852);
}

TEST_CASE("no estimate is shorter than the DRAM's reads and writes one a cycle") {
  // Loads and stores of every proportion, the DRAM the bottleneck or not,
  // loads paced to their writes (compact pixels) or not: the stores' writes
  // meet several units' loads, and a store a read delayed delays the
  // stores after it.
  for (int64_t latency : {10, 64})
    for (int64_t beats = 50; beats <= 500; beats += 50)
      for (int64_t pixels : {100, 300, 700})
        for (int64_t compute : {50, 400})
          for (int64_t written : {int64_t{0}, 2 * beats, 4 * beats / 3}) {  // paced or not
            CAPTURE(written);
            CAPTURE(latency);
            CAPTURE(beats);
            CAPTURE(pixels);
            CAPTURE(compute);
            CycleEstimate estimate(Opu1024WithLatency(latency));
            const int64_t units = 6;
            for (int64_t u = 0; u < units; ++u) {
              estimate.BeginUnit();
              estimate.Load(beats * 64, 0, written);
              estimate.Compute(compute);
              estimate.Store(pixels, pixels * 16);  // a word written per pixel
            }
            CHECK(estimate.Total() >= CycleEstimate::kStartCycles + units * (beats + pixels));
          }
}

}  // namespace
}  // namespace opuc::codegen
