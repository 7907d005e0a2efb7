// The cycle estimator (src/opu/codegen/estimate.h) on hand-built units: one
// timeline worked out by hand from the rules docs/codegen.md states, and
// the floor no estimate may go below: the DRAM takes one read or one write a
// cycle, so a group takes at least its start plus every read beat and write.
#include <doctest/doctest.h>

#include "codegen/estimate.h"

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
