// UnitSlots on `tiny` (4 param rows, 256 weight rows, L = 8, Co = 4): how
// deep units rotate, worked out by hand from its four limits.
#include <doctest/doctest.h>

#include <vector>

#include "units.h"

namespace opuc::codegen {
namespace {

const OpuBufferUnits kTinyBuffers = BufferUnits(*HwConfigPreset("tiny"));

// A k x k conv of `in_c` channels to `out_c` over 20x20, in the fewest
// tiles (ChooseTiling); each tile is one input window.
InnerProductGroup Conv20(int64_t k, int64_t in_c, int64_t out_c) {
  InnerProductGroup g;
  g.what = "conv";
  g.kh = g.kw = k;
  g.in_c = in_c;
  g.out_c = out_c;
  g.in_h = g.in_w = g.out_h = g.out_w = 20;
  return g;
}

int64_t Slots(const InnerProductGroup& g, int64_t acc_regions, int64_t most = 4,
              bool residual_per_window = false) {
  Expected<Tiling> t = ChooseTiling(g, kTinyBuffers, residual_per_window);
  REQUIRE(t.ok());
  t->acc_regions = acc_regions;
  return UnitSlots(g, *t, Units(g, *t, kTinyBuffers), kTinyBuffers, most);
}

TEST_CASE("units rotate as deep as the param rows and the accumulator regions allow") {
  // 16 output channels: 4 units (output blocks) a window, one window a
  // tile; 4 param rows, weight chunks of 1 row.
  const InnerProductGroup g = Conv20(1, 8, 16);
  CHECK(kTinyBuffers.param_rows == 4);
  CHECK(Slots(g, 4) == 4);
  CHECK(Slots(g, 4, /*most=*/3) == 3);
  CHECK(Slots(g, 4, /*most=*/2) == 2);
  CHECK(Slots(g, 2) == 2);  // no deeper than the accumulator regions
}

TEST_CASE("a new window's half must be free by the token its first unit takes") {
  // Window w's first unit i takes the token of unit i - slots, after the
  // last unit of window w - 2 only when window w - 1 spans slots - 1 units.
  CHECK(Slots(Conv20(1, 8, 8), 4) == 3);  // 2 units a window
  CHECK(Slots(Conv20(1, 8, 4), 4) == 2);  // 1 unit a window
}

TEST_CASE("every weight slot holds a unit's chunk") {
  // 3x3 taps x 8 input blocks of 8 = 72 rows a chunk: 256 / 72 = 3 slots.
  const InnerProductGroup g = Conv20(3, 64, 16);
  Expected<Tiling> t = ChooseTiling(g, kTinyBuffers);
  REQUIRE(t.ok());
  CHECK(t->chunk_rows == 72);
  CHECK(Slots(g, 4) == 3);
}

TEST_CASE("residual tiles loaded per pair keep two slots, kept per window as many as fit") {
  InnerProductGroup g = Conv20(1, 8, 16);
  g.residuals.push_back(ResidualStep{});
  g.residuals.back().channels = 16;
  CHECK(Slots(g, 4) == 2);
  CHECK(Slots(g, 4, 4, /*residual_per_window=*/true) == 4);
}

}  // namespace
}  // namespace opuc::codegen
