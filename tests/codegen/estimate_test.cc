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
  // cycles, 100 word writes). Latency 10.
  // u0: load 7..107, +13 → 120; compute 134..241; store 241..344 (writes to 341).
  // u1: load 120..220 (no writes yet), +13 → 233; compute max(247, 244)..354;
  //     store max(354, 344) = 354..457.
  // u2: load from max(233, 241) = 241: u0's writes fill 241..341, 100 cycles
  //     more (load to 441, u0's store to 444, which pushes u1's to 444..547);
  //     +13 → 454; compute max(468, 357, 444) = 468..575; store max(575, 547) = 575..678.
  CycleEstimate estimate(Opu1024WithLatency(10));
  for (int u = 0; u < 3; ++u) {
    estimate.BeginUnit();
    estimate.Load(100 * 64);
    estimate.Compute(100);
    estimate.Store(100, 100 * 16);
  }
  CHECK(estimate.Total() == 678);
}

TEST_CASE("the estimator's timeline: post stages beside the next unit's Gemms, in one pass") {
  // Each unit: a 10-beat load, a 100-cycle Gemm (+3, +4 for the array's
  // pipeline), two post stages of 100 entries streamed in one pass (100 + 3,
  // +1 for the register between the two stages, +4 for each stage's
  // pipeline: 112), a store of 10 pixels of 16 bytes (13 cycles, 10 word
  // writes). Latency 10: a load takes 10 + 10 + 3.
  // u0: load 7..30; Gemm 44..151; post 152..264; store 264..277 (writes to 274).
  // u1: load 30..53; Gemm after u0's and its two post instructions entering
  //     the queue: max(67, 151 + 3 + 2) = 156..263, beside u0's post;
  //     post max(264, 264)..376; store 376..389.
  // u2: load from u0's computation, 264: u0's writes fill 264..274, so the
  //     load ends at 264 + 20 + 13 = 297 (u0's store at 287); Gemm
  //     max(311, 268, 287) = 311..418; post 419..531; store 531..544.
  CycleEstimate estimate(Opu1024WithLatency(10));
  for (int u = 0; u < 3; ++u) {
    estimate.BeginUnit();
    estimate.Load(10 * 64);
    estimate.Compute(100);
    estimate.Post(100);
    estimate.Post(100, /*joins=*/true);
    estimate.Store(10, 10 * 16);
  }
  CHECK(estimate.Total() == 544);
}

TEST_CASE("the estimator's timeline: a paced load keeps its pace, the writes it meets wait") {
  // The first test case's units, but u2's load is of compact pixels: 50
  // beats paced to 100 pixels written, a read every second cycle over 100
  // cycles. u0 and u1 as there: u0's store 241..344 (writes to 341), u1's
  // 354..457. u2: load 241..341, where u0's 100 writes fall; the DRAM then
  // serves a read and a write every second cycle (sim/dram_model.h), so
  // the reads keep their pace and each costs the writes a cycle: u0's
  // writes to 391, its store to 394, which pushes u1's to 394..497. Load
  // 241..341, +13 → 354; compute max(368, 354 + 3, 394) = 394..501; store
  // max(501, 497) = 501..604 (with 100 beats unpaced: 678).
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
  CHECK(estimate.Total() == 604);
}

TEST_CASE("the estimator's fetch: the first instruction a latency late, each unit's bytes first") {
  // One unit as in the first test case (a 100-beat load, a 100-cycle Gemm,
  // a store of 100 pixels: 344 cycles with latency 10) and its 8
  // instructions, 128 bytes: 2 cycles of opu1024's 64 bytes a cycle. The
  // start waits 10 for the first instruction: load 19..119, +13 → 132;
  // compute 146..253; store 253..356.
  CycleEstimate estimate(Opu1024WithLatency(10));
  estimate.BeginUnit();
  estimate.Fetch(8);
  estimate.Load(100 * 64);
  estimate.Compute(100);
  estimate.Store(100, 100 * 16);
  CHECK(estimate.Total() == 356);
}

TEST_CASE("the estimator's fetch queue: a unit of more Gemms than it holds delays the next loads") {
  // Two units, each a 300-beat load, 20 one-pixel Gemms (1 + 3 + 4 = 8
  // cycles each) and a store of one 16-byte pixel (4 cycles, 1 write).
  // Latency 10. u0: load 7..307, +13 → 320; Gemms 334..494, the fourth
  // issued at 334 + 3·8 = 358; store 494..498 (its write 494..495).
  // u1's loads follow u0's 20th Gemm into the queue of 16, which waits for
  // u0's fourth to issue: load from 358 (not 320) to 658, and u0's write
  // falls in it: 659, +13 → 672; Gemms max(686, 494 + 3) = 686..846;
  // store 846..850.
  CycleEstimate estimate(Opu1024WithLatency(10));
  for (int u = 0; u < 2; ++u) {
    estimate.BeginUnit();
    estimate.Load(300 * 64);
    for (int g = 0; g < 20; ++g) estimate.Compute(1);
    estimate.Store(1, 16);
  }
  CHECK(estimate.Total() == 850);
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
