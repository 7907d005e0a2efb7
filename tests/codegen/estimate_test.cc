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
  // Each unit: a 100-beat load, a 100-cycle Gemm (+3), a store of 100
  // pixels of 16 bytes (103 cycles, 100 word writes). Latency 10.
  // u0: load 7..107, +13 → 120; compute 134..237; store 237..340 (writes to 337).
  // u1: load 120..220 (no writes yet), +13 → 233; compute max(247, 240)..350;
  //     store max(350, 340) = 350..453.
  // u2: load from max(233, 237) = 237: u0's writes fill 237..337, 100 cycles
  //     more (load to 437, u0's store to 440, which pushes u1's to 440..543);
  //     +13 → 450; compute max(464, 353, 440) = 464..567; store max(567, 543) = 567..670.
  CycleEstimate estimate(Opu1024WithLatency(10));
  for (int u = 0; u < 3; ++u) {
    estimate.BeginUnit();
    estimate.Load(100 * 64);
    estimate.Compute(100);
    estimate.Store(100, 100 * 16);
  }
  CHECK(estimate.Total() == 670);
}

TEST_CASE("the estimator's timeline: post stages beside the next unit's Gemms, in one pass") {
  // Each unit: a 10-beat load, a 100-cycle Gemm (+3), two post stages of 100
  // entries streamed in one pass (100 + 3), a store of 10 pixels of 16 bytes
  // (13 cycles, 10 word writes). Latency 10: a load takes 10 + 10 + 3.
  // u0: load 7..30; Gemm 44..147; post 148..251; store 251..264 (writes to 261).
  // u1: load 30..53; Gemm after u0's and its two post instructions entering
  //     the queue: max(67, 147 + 3 + 2) = 152..255, beside u0's post;
  //     post max(256, 251)..359; store 359..372.
  // u2: load from u0's computation, 251: u0's writes fill 251..261, so the
  //     load ends at 251 + 20 + 13 = 284 (u0's store at 274); Gemm
  //     max(298, 260, 274) = 298..401; post 402..505; store 505..518.
  CycleEstimate estimate(Opu1024WithLatency(10));
  for (int u = 0; u < 3; ++u) {
    estimate.BeginUnit();
    estimate.Load(10 * 64);
    estimate.Compute(100);
    estimate.Post(100);
    estimate.Post(100, /*joins=*/true);
    estimate.Store(10, 10 * 16);
  }
  CHECK(estimate.Total() == 518);
}

TEST_CASE("no estimate is shorter than the DRAM's reads and writes one a cycle") {
  // Loads and stores of every proportion, the DRAM the bottleneck or not:
  // the stores' writes meet several units' loads, and a store a read
  // delayed delays the stores after it.
  for (int64_t latency : {10, 64})
    for (int64_t beats = 50; beats <= 500; beats += 50)
      for (int64_t pixels : {100, 300, 700})
        for (int64_t compute : {50, 400}) {
          CAPTURE(latency);
          CAPTURE(beats);
          CAPTURE(pixels);
          CAPTURE(compute);
          CycleEstimate estimate(Opu1024WithLatency(latency));
          const int64_t units = 6;
          for (int64_t u = 0; u < units; ++u) {
            estimate.BeginUnit();
            estimate.Load(beats * 64);
            estimate.Compute(compute);
            estimate.Store(pixels, pixels * 16);  // a word written per pixel
          }
          CHECK(estimate.Total() >= CycleEstimate::kStartCycles + units * (beats + pixels));
        }
}

}  // namespace
}  // namespace opuc::codegen
