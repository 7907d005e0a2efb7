// The depthwise window's line buffers kept from one tile to the next
// (Gemm.line_slot, Gemm.carry) on opu1024, whose window has them: two
// tiles of a 3x3 window of ones over a map whose pixel (y, x) holds y + x
// in lane 0 and -(y + x) in lane 1, the second tile's rows above it only
// in the line buffers, a Gemm of another slot between them. Each output is
// the sum of its window, worked out by hand; the RTL runs the same program
// in opuc_rtl_instruction_tests.
#include <doctest/doctest.h>

#include <cstring>
#include <vector>

#include "opu1024_bench.h"

namespace opuc::fsim_test {
namespace {

using namespace isa;

constexpr int64_t kL = 64;          // opu1024's lanes: a pixel's bytes in DRAM
constexpr int64_t kWeights = 8192;  // DRAM: the weight row (16 x 64 bytes)
constexpr int64_t kParams = 9216;   // the param row (16 x 8 bytes)
constexpr int64_t kOut = 10240;     // the outputs, 64 bytes a pixel
constexpr int64_t kTileB = 100;     // the second tile's first feature-map row

struct LineBench : Opu1024Bench {
  LineBench() : Opu1024Bench(16384) {}
  int Out(int64_t pixel, int64_t lane) const {
    return static_cast<int8_t>(dram[static_cast<size_t>(kOut + pixel * kL + lane)]);
  }
};

LoadInsn FmLoad(int64_t sram, int64_t dram, int64_t rows, int64_t cols, int64_t width) {
  LoadInsn l;
  l.buffer = LoadInsn::kFeatureMap;
  l.sram_addr = sram;
  l.dram_addr = dram;
  l.rows = rows;
  l.cols = cols;
  l.dram_stride = width * kL;
  return l;
}

// A map of h x w pixels at DRAM 0, the window's weights (rows 0 and 1:
// ones at taps (ky, kx) < 3, lane 8 ky + kx) and params (M = 1, S = 0).
void Setup(LineBench& b, int64_t h, int64_t w) {
  for (int64_t y = 0; y < h; ++y)
    for (int64_t x = 0; x < w; ++x) {
      b.dram[static_cast<size_t>((y * w + x) * kL)] = static_cast<uint8_t>(y + x);
      b.dram[static_cast<size_t>((y * w + x) * kL + 1)] = static_cast<uint8_t>(-(y + x));
    }
  for (int64_t j = 0; j < 2; ++j)
    for (int64_t ky = 0; ky < 3; ++ky)
      for (int64_t kx = 0; kx < 3; ++kx)
        b.dram[static_cast<size_t>(kWeights + j * kL + 8 * ky + kx)] = 1;
  for (int64_t j = 0; j < 16; ++j) {
    const int16_t m = 1;
    std::memcpy(&b.dram[static_cast<size_t>(kParams + j * 8 + 4)], &m, 2);
  }
  LoadInsn weights = FmLoad(0, kWeights, 1, 1, 1);
  weights.buffer = LoadInsn::kWeights;
  b.Add(weights);
  LoadInsn params = FmLoad(0, kParams, 1, 1, 1);
  params.buffer = LoadInsn::kParams;
  b.Add(params);
}

GemmInsn Window(int64_t fm, int64_t pitch, int64_t rows, int64_t cols, int64_t stride, int64_t acc,
                int64_t slot, bool carry) {
  GemmInsn g;
  g.depthwise = true;
  g.window_h = g.window_w = 2;
  g.fm_addr = fm;
  g.fm_pitch = pitch;
  g.out_rows = rows;
  g.out_cols = cols;
  g.stride_y = g.stride_x = stride;
  g.acc_addr = acc;
  g.init = GemmInsn::kFromBias;
  g.line_slot = slot;
  g.carry = carry;
  return g;
}

// The outputs' two lanes, `pixels` from acc 0, a row of `cols` a DRAM row.
void OutputAndStore(LineBench& b, int64_t pixels, int64_t cols) {
  OutputInsn o;
  o.count = pixels;
  o.lo = -128;
  o.hi = 127;
  b.Add(o, false, true);
  StoreInsn s;
  s.rows = pixels / cols;
  s.cols = cols;
  s.acc_pitch = cols;
  s.lanes = 2;
  s.dram_addr = kOut;
  s.dram_stride = cols * kL;
  b.Add(s, true);
}

// Stores the rows x cols outputs, runs, and checks lane 0 of each against
// `sum(y, x)` and lane 1 against its negation.
template <typename Sum>
void RunAndCheck(LineBench& b, int64_t rows, int64_t cols, Sum sum) {
  OutputAndStore(b, rows * cols, cols);
  const Status run = b.Run();
  REQUIRE_MESSAGE(run.ok(), run.ToString());
  for (int64_t y = 0; y < rows; ++y)
    for (int64_t x = 0; x < cols; ++x) {
      CHECK(b.Out(y * cols + x, 0) == sum(y, x));
      CHECK(b.Out(y * cols + x, 1) == -sum(y, x));
    }
}

TEST_CASE("line slots: a tile's windows take the rows above from the tile before, stride 1") {
  // A 6 x 4 map, a 3x3 window (VALID): 4 x 2 outputs, out(y, x) = sum of
  // (y + ky) + (x + kx) = 9 (y + x + 2). Tile A: output rows 0-1 from input
  // rows 0-3 (feature-map rows 0-15), slot 1. A Gemm of slot 0 over the
  // same rows, lanes 8 on (zeros), its sums at entry 100. Tile B, carried:
  // output rows 2-3 from input rows 4-5 alone, at feature-map row 100; rows
  // 2-3 come from slot 1.
  LineBench b;
  Setup(b, 6, 4);
  b.Add(FmLoad(0, 0, 4, 4, 4));
  b.Add(FmLoad(kTileB, 4 * 4 * kL, 2, 4, 4), false, true);
  b.Add(Window(0, 4, 2, 2, 1, 0, 1, false), true);
  GemmInsn other = Window(0, 4, 2, 2, 1, 100, 0, false);
  other.lane = 8;
  b.Add(other);
  b.Add(Window(kTileB, 4, 2, 2, 1, 4, 1, true));
  RunAndCheck(b, 4, 2, [](int64_t y, int64_t x) { return 9 * (y + x + 2); });
}

TEST_CASE("line slots: carried at stride 2, a pair of pixels a cycle") {
  // A 5 x 5 map, a 3x3 window every 2 pixels: 2 x 2 outputs, out(y, x) =
  // sum of (2y + ky) + (2x + kx) = 18 (y + x + 1). Tile A: output row 0
  // from input rows 0-2; tile B, carried: output row 1 from rows 3-4 alone,
  // row 2 from the slot (the last of the two tile A left there).
  LineBench b;
  Setup(b, 5, 5);
  b.Add(FmLoad(0, 0, 3, 5, 5));
  b.Add(FmLoad(kTileB, 3 * 5 * kL, 2, 5, 5), false, true);
  b.Add(Window(0, 5, 1, 2, 2, 0, 2, false), true);
  b.Add(Window(kTileB, 5, 1, 2, 2, 2, 2, true));
  RunAndCheck(b, 2, 2, [](int64_t y, int64_t x) { return 18 * (y + x + 1); });
}

#ifndef OPUC_ALSO_RTL
TEST_CASE("line slots: a carry without the rows, a slot past the buffers, no line buffers") {
  SUBCASE("the slot holds another Gemm's rows") {
    LineBench b;
    Setup(b, 6, 4);
    b.Add(FmLoad(0, 0, 4, 4, 4), false, true);
    b.Add(Window(0, 4, 2, 2, 1, 0, 1, false), true);
    GemmInsn other = Window(0, 4, 2, 2, 1, 100, 1, false);
    other.lane = 8;
    b.Add(other);
    b.Add(Window(8, 4, 2, 2, 1, 4, 1, true));
    CHECK(b.Run().message() ==
          "instruction 5 (Gemm): carry: line slot 1's column 64 does not hold rows of a Gemm "
          "with these columns, lanes, window and blocks");
  }
  SUBCASE("a slot's rows past the line buffers") {
    LineBench b;
    b.Add(Window(0, 100, 1, 70, 1, 0, 7, false));  // 72 pixels a row
    CHECK(b.Run().message() ==
          "instruction 0 (Gemm): line_slot 7 keeps columns 448..519; the line buffers have 512");
  }
  SUBCASE("a Gemm without line buffers") {
    LineBench b;
    GemmInsn g = Window(0, 4, 1, 1, 1, 0, 0, true);
    g.depthwise = false;
    b.Add(g);
    CHECK(b.Run().message() ==
          "instruction 0 (Gemm): line_slot and carry need a depthwise Gemm that reads its rows "
          "through the line buffers (512 columns)");
  }
}
#endif

// A 6 x 10 map, the window's weights again for pixel 2i + 1 (lanes 32 + 8 ky
// + kx + 1) and the map's load; the Gemm in pairs over its 4 x 8 outputs
// into entries from `acc`.
GemmInsn SetupPairs(LineBench& b, int64_t acc) {
  Setup(b, 6, 10);
  for (int64_t j = 0; j < 2; ++j)
    for (int64_t ky = 0; ky < 3; ++ky)
      for (int64_t kx = 0; kx < 3; ++kx)
        b.dram[static_cast<size_t>(kWeights + j * kL + 32 + 8 * ky + kx + 1)] = 1;
  b.Add(FmLoad(0, 0, 6, 10, 10), false, true);
  GemmInsn pairs = Window(0, 10, 4, 8, 1, acc, 0, false);
  pairs.window_w = 3;
  pairs.init = GemmInsn::kPairsFromBias;
  return pairs;
}

TEST_CASE("output pixels in pairs: pixel 2i on the lanes below 32, 2i + 1 on those above") {
  // A 6 x 10 map, a 3x3 window of ones (VALID): 4 x 8 outputs, out(y, x) =
  // 9 (y + x + 2). In pairs each Gemm cycle reads pixel 2i's window, 4
  // columns wide: its first three columns are pixel 2i's taps (lanes 8 ky +
  // kx, as before), its last three pixel 2i + 1's, on lanes 32 + 8 ky + kx + 1.
  LineBench b;
  b.Add(SetupPairs(b, 0), true);
  OutputAndStore(b, 32, 8);
  OpuCounters counters;
  const Status run = b.Run(&counters);
  REQUIRE_MESSAGE(run.ok(), run.ToString());
  for (int64_t y = 0; y < 4; ++y)
    for (int64_t x = 0; x < 8; ++x) {
      CHECK(b.Out(y * 8 + x, 0) == 9 * (y + x + 2));
      CHECK(b.Out(y * 8 + x, 1) == -9 * (y + x + 2));
    }
  CHECK(counters.gemm_issues == 16);  // two pixels an issue
}

TEST_CASE(
    "output pixels in pairs: a Gemm over a pair's weights a pixel at a time sees only its kernel") {
  // The pair's weight row (pixel 2i + 1's taps on lanes 32 + 8 ky + kx + 1)
  // under a Gemm that takes a pixel a cycle (window_w 2, as an odd row
  // would), after a Gemm in pairs left its columns in the window: its sums
  // are the 3x3 window's alone, 9 (y + x + 2).
  LineBench b;
  b.Add(SetupPairs(b, 100), true);
  b.Add(Window(0, 10, 4, 8, 1, 0, 0, false));
  RunAndCheck(b, 4, 8, [](int64_t y, int64_t x) { return 9 * (y + x + 2); });
}

TEST_CASE("output pixels in pairs: refused over an odd row, from an odd entry, at stride 3") {
  LineBench b;
  Setup(b, 6, 10);
  GemmInsn pairs = Window(0, 10, 4, 7, 1, 0, 0, false);
  pairs.window_w = 3;
  pairs.init = GemmInsn::kPairsFromBias;
  b.Add(pairs);
  CHECK(b.Run().message() ==
        "instruction 2 (Gemm): init is 3 (output pixels in pairs): out_cols 7 and acc_addr 0 must "
        "be even");
  LineBench strided;
  Setup(strided, 6, 10);
  pairs.out_cols = 2;
  pairs.stride_x = 3;  // (at stride_x 2, init 3 is two channel blocks: fsim_block_pairs_test.cc)
  strided.Add(pairs);
  CHECK(strided.Run().message() ==
        "instruction 2 (Gemm): init is 3 (output pixels in pairs) with stride_x 3: pairs are two "
        "neighbouring pixels, stride_x 1");
}

}  // namespace
}  // namespace opuc::fsim_test
