// SeamLoad and NoteUnitReads (run_order.h) on opu1024's buffers: which of a
// group's first loads takes the seam's token, worked out by hand from the
// rows each load writes and the rows the group before's last units read.
#include <doctest/doctest.h>

#include <algorithm>

#include "run_order.h"

namespace opuc::codegen {
namespace {

// An 8x8 window with a frame of padding (feature-map rows 0-99), its
// weight row (0) and its six param rows (0-5): a depthwise group's first
// unit.
Batch FirstLoads() {
  Batch load;
  isa::LoadInsn window;
  window.buffer = isa::LoadInsn::kFeatureMap;
  window.rows = window.cols = 8;
  window.pad_top = window.pad_bottom = window.pad_left = window.pad_right = 1;
  load.Add(window);
  isa::LoadInsn weights;
  weights.buffer = isa::LoadInsn::kWeights;
  weights.rows = weights.cols = 1;
  load.Add(weights);
  isa::LoadInsn params;
  params.buffer = isa::LoadInsn::kParams;
  params.rows = 1;
  params.cols = 6;
  load.Add(params);
  return load;
}

RunOrder Reading(std::vector<BufferAccess> reads) {
  RunOrder order;
  order.recent_reads.push_back(std::move(reads));
  return order;
}

TEST_CASE("the seam's token: the first load that writes a row the group before still reads") {
  const OpuBufferUnits buffers = BufferUnits(*HwConfigPreset("opu1024"));
  const Batch load = FirstLoads();
  // Nothing read: the last load takes it, the two before go at once.
  CHECK(SeamLoad(buffers, load, RunOrder{}) == 2);
  // The group before's Gemm reads weight rows 0 and 1: the weights wait.
  CHECK(SeamLoad(buffers, load, Reading({{OnChip::kWeight, 0, 2, false}})) == 1);
  // Its window's last row is the frame's last (row 99): the window waits;
  // row 100 is past it.
  CHECK(SeamLoad(buffers, load, Reading({{OnChip::kFeatureMap, 99, 1, false}})) == 0);
  CHECK(SeamLoad(buffers, load, Reading({{OnChip::kFeatureMap, 100, 1, false}})) == 2);
  // A map kept on chip at row 8064 and param row 8: neither load before the
  // last meets them.
  CHECK(SeamLoad(
            buffers, load,
            Reading({{OnChip::kFeatureMap, 8064, 64, false}, {OnChip::kParam, 8, 1, false}})) == 2);
  // Param row 5, the params' last: the params take it.
  CHECK(SeamLoad(buffers, load, Reading({{OnChip::kParam, 5, 1, false}})) == 2);
  CHECK(SeamLoad(buffers, load,
                 Reading({{OnChip::kFeatureMap, 0, 1, false}, {OnChip::kParam, 5, 1, false}})) ==
        0);
}

TEST_CASE("the seam's units: the reads of the last five units' compute instructions") {
  const OpuBufferUnits buffers = BufferUnits(*HwConfigPreset("opu1024"));
  RunOrder order;
  for (int64_t row = 0; row < 7; ++row) {
    Batch compute;
    isa::OutputInsn output;  // reads param row `row`, rewrites 4 entries
    output.param_addr = row;
    output.count = 4;
    compute.Add(output);
    NoteUnitReads(buffers, compute, order);
  }
  REQUIRE(order.recent_reads.size() == kSeamUnits);
  // Units 2-6 kept, the latest last; each read its param row.
  for (size_t u = 0; u < kSeamUnits; ++u) {
    const std::vector<BufferAccess>& reads = order.recent_reads[u];
    const bool param = std::any_of(reads.begin(), reads.end(), [&](const BufferAccess& r) {
      return r.buffer == OnChip::kParam && r.first == static_cast<int64_t>(u) + 2 && !r.write;
    });
    CHECK(param);
    for (const BufferAccess& r : reads) CHECK(!r.write);
  }
  // The weights' row 0 meets no read: the window and the weights go at once.
  CHECK(SeamLoad(buffers, FirstLoads(), order) == 2);
}

}  // namespace
}  // namespace opuc::codegen
