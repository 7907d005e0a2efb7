// Two channel blocks of a stride-2 depthwise window in one Gemm (block
// pairs: Gemm.init PairsFromBias at stride_x 2) on opu1024: row j sums lane
// `lane + j` of its window on the lanes below 32 (block A) and lane
// `lane + 16 + j` on the lanes 32 on (block B, its taps 32 + 8 ky + kx),
// A's sums from the biases in bytes 0-3 of the param row to entry p, B's
// from bytes 4-7 to the entry at p's offset in the accumulator's other
// bank (2,730 entries on or back on opu1024). Every lane
// of the map, every tap and every bias differs, so a byte from the wrong
// lane, block, tap, row or bias shows; each output is worked out here from
// the map and the kernel, a plain sum. The RTL runs the same programs in
// opuc_rtl_instruction_tests.
#include <doctest/doctest.h>

#include <cstring>
#include <utility>
#include <vector>

#include "opu1024_bench.h"

namespace opuc::fsim_test::block_pairs {
namespace {

using namespace isa;

constexpr int64_t kL = 64;
constexpr int64_t kH = 9, kW = 13;  // the map: 4 x 6 outputs of a VALID 3x3 at stride 2
constexpr int64_t kRows = 4, kCols = 6, kPixels = kRows * kCols;
constexpr int64_t kBank1 = 2730;  // opu1024's second accumulator bank
constexpr int64_t kWeights = 8192, kParams = 9216, kOutA = 10240, kOutB = 12288;

// Lane c of pixel (y, x): small, different in every lane.
int Pixel(int64_t y, int64_t x, int64_t c) {
  return static_cast<int>((3 * y + 5 * x + 7 * c) % 9) - 4;
}
// Block b's tap (ky, kx) of row j.
int Tap(int64_t b, int64_t j, int64_t ky, int64_t kx) {
  return static_cast<int>((2 * ky + kx + 3 * j + 5 * b) % 5) - 2;
}
int Bias(int64_t b, int64_t j) { return static_cast<int>(b == 0 ? j - 7 : 11 - 2 * j); }

// Output (y, x) of row j of block b, with the block pair's lane at `lane`.
int Expected(int64_t lane, int64_t b, int64_t j, int64_t y, int64_t x) {
  int sum = Bias(b, j);
  for (int64_t ky = 0; ky < 3; ++ky)
    for (int64_t kx = 0; kx < 3; ++kx)
      sum += Pixel(2 * y + ky, 2 * x + kx, lane + 16 * b + j) * Tap(b, j, ky, kx);
  return sum;
}

void PutI32(Opu1024Bench& b, int64_t at, int32_t v) {
  std::memcpy(&b.dram[static_cast<size_t>(at)], &v, 4);
}

// The map, the weight row, the Gemm's param row (both blocks' biases) and
// the Output's (M = 1), loaded into the feature-map buffer from row 0.
Opu1024Bench Setup() {
  Opu1024Bench b(16384);
  for (int64_t y = 0; y < kH; ++y)
    for (int64_t x = 0; x < kW; ++x)
      for (int64_t c = 0; c < kL; ++c)
        b.dram[static_cast<size_t>((y * kW + x) * kL + c)] = static_cast<uint8_t>(Pixel(y, x, c));
  for (int64_t blk = 0; blk < 2; ++blk)
    for (int64_t j = 0; j < 16; ++j)
      for (int64_t ky = 0; ky < 3; ++ky)
        for (int64_t kx = 0; kx < 3; ++kx)
          b.dram[static_cast<size_t>(kWeights + j * kL + 32 * blk + 8 * ky + kx)] =
              static_cast<uint8_t>(Tap(blk, j, ky, kx));
  for (int64_t j = 0; j < 16; ++j) {
    PutI32(b, kParams + j * 8, Bias(0, j));
    PutI32(b, kParams + j * 8 + 4, Bias(1, j));
    const int16_t m = 1;
    std::memcpy(&b.dram[static_cast<size_t>(kParams + 128 + j * 8 + 4)], &m, 2);
  }
  b.Add(RowLoad(LoadInsn::kWeights, kWeights, 1));
  LoadInsn params = RowLoad(LoadInsn::kParams, kParams, 1);
  params.rows = 2;
  params.dram_stride = 128;
  b.Add(params);
  LoadInsn map = RowLoad(LoadInsn::kFeatureMap, 0, kW);
  map.rows = kH;
  map.dram_stride = kW * kL;
  b.Add(map, false, true);
  return b;
}

GemmInsn BlockPair(int64_t fm, int64_t rows, int64_t acc, int64_t lane, bool carry) {
  GemmInsn g;
  g.depthwise = true;
  g.window_h = g.window_w = 2;
  g.fm_addr = fm;
  g.fm_pitch = kW;
  g.out_rows = rows;
  g.out_cols = kCols;
  g.stride_y = g.stride_x = 2;
  g.init = GemmInsn::kPairsFromBias;
  g.acc_addr = acc;
  g.lane = lane;
  g.line_slot = 1;
  g.carry = carry;
  return g;
}

// Runs `b`, then checks every stored lane of both blocks against the sums
// worked out here, and the Gemms' issues.
void RunAndCheckOutputs(Opu1024Bench& b, int64_t lane, int64_t issues) {
  OpuCounters counters;
  const Status run = b.Run(&counters);
  REQUIRE_MESSAGE(run.ok(), run.ToString());
  for (int64_t blk = 0; blk < 2; ++blk)
    for (int64_t y = 0; y < kRows; ++y)
      for (int64_t x = 0; x < kCols; ++x)
        for (int64_t j = 0; j < 16; ++j)
          CHECK(static_cast<int8_t>(b.dram[static_cast<size_t>((blk == 0 ? kOutA : kOutB) +
                                                               (y * kCols + x) * kL + j)]) ==
                Expected(lane, blk, j, y, x));
  CHECK(counters.gemm_issues == issues);
}

// Both blocks' outputs (block A's from entry `acc`, B's at its offset in
// the other bank) through the Output (param row 1) and stored, A's lanes at
// kOutA, B's at kOutB; then run and check every lane.
void RunAndCheck(Opu1024Bench& b, int64_t lane, int64_t acc, int64_t issues) {
  for (int64_t blk = 0; blk < 2; ++blk) {
    const int64_t entry = blk == 0 ? acc : acc < kBank1 ? acc + kBank1 : acc - kBank1;
    OutputInsn o = Int8Outputs(entry, kPixels);
    o.param_addr = 1;
    b.Add(o, false, true);
    b.Add(TileStore(entry, kRows, kCols, 16, blk == 0 ? kOutA : kOutB), true);
  }
  RunAndCheckOutputs(b, lane, issues);
}

TEST_CASE("block pairs: two channel blocks of a stride-2 window, an output pixel a cycle") {
  // Block A in bank 0 or in bank 1, its entries from an even or odd one.
  for (const auto& [lane, acc] : {std::pair<int64_t, int64_t>{0, 0}, {16, 2801}, {32, 41}}) {
    CAPTURE(lane);
    Opu1024Bench b = Setup();
    b.Add(BlockPair(0, kRows, acc, lane, false), true);
    RunAndCheck(b, lane, acc, kPixels);  // both blocks of a pixel one issue
  }
}

TEST_CASE("block pairs: a tile's windows take both blocks' rows above from the tile before") {
  // Tile A: output rows 0-1 from input rows 0-4, its entries from 0 (block
  // B's from 2,730); tile B, carried: output rows 2-3 from input rows 5-8
  // alone, row 4 from the line slot (block A's in buffer 0, block B's in
  // buffer 4), its entries from 100 (2,830).
  Opu1024Bench b = Setup();
  b.Add(BlockPair(0, 2, 0, 0, false), true);
  b.Add(BlockPair(5 * kW, 2, 100, 0, true));
  for (int64_t t = 0; t < 2; ++t)
    for (int64_t blk = 0; blk < 2; ++blk) {
      OutputInsn o = Int8Outputs(100 * t + kBank1 * blk, 12);
      o.param_addr = 1;
      b.Add(o, false, true);
      b.Add(TileStore(100 * t + kBank1 * blk, 2, kCols, 16,
                      (blk == 0 ? kOutA : kOutB) + 2 * t * kCols * kL),
            true);
    }
  RunAndCheckOutputs(b, 0, kPixels);
}

#ifndef OPUC_ALSO_RTL
TEST_CASE("block pairs: what the mode needs, each refused with its reason") {
  const auto refused = [](GemmInsn g) {
    Opu1024Bench b(16384);
    b.Add(g);
    return b.Run().message();
  };
  const std::string what =
      "instruction 0 (Gemm): init is 3 at stride_x 2 (two channel blocks a Gemm)";
  GemmInsn g = BlockPair(0, kRows, 0, 0, false);
  g.line_slot = 0;
  GemmInsn dense = g;
  dense.depthwise = false;
  CHECK(refused(dense) == what + " takes a depthwise Gemm of one row a channel (pair_rows 0)");
  GemmInsn even = g;
  even.window_w = 1;  // 2 wide: one pixel a cycle
  CHECK(refused(even) ==
        what +
            " reads a pair of pixels a cycle through the line buffers: i8 or u8 bytes, an odd "
            "window width, rows of 2 to 512 pixels and a feature-map buffer of two banks");
  GemmInsn tall = g;
  tall.window_h = 4;
  CHECK(refused(tall) ==
        what + ": a window of 5 rows; each block's take 4 rows of 8 lanes at most");
  GemmInsn far = g;
  far.lane = 40;
  CHECK(refused(far) == what + ": lane 40 and the 32 lanes of both blocks reach past lane 63");
  GemmInsn across = g;
  across.acc_addr = 2720;  // 24 entries over bank 0's end
  CHECK(refused(across) == what +
                               ": entries 2720..2743 are not all in one of the accumulator's banks "
                               "[0, 2730) and [2730, 5333)");
  GemmInsn past = g;
  past.acc_addr = 2650;  // bank 1 is 2,603 entries: 5,380.. reaches the pools' bank
  CHECK(refused(past) == what +
                             ": the second block's entries, 5380..5403 at the same offset in the "
                             "other bank, reach past it");
  // A carry from a Gemm of one block: its line slot holds no second block.
  Opu1024Bench b(16384);
  GemmInsn one = g;
  one.init = GemmInsn::kFromBias;
  one.line_slot = 1;
  b.Add(one);
  GemmInsn carried = g;
  carried.line_slot = 1;
  carried.carry = true;
  b.Add(carried);
  CHECK(b.Run().message() ==
        "instruction 1 (Gemm): carry: line slot 1's column 64 does not hold rows of a Gemm with "
        "these columns, lanes, window and blocks");
}
#endif

}  // namespace
}  // namespace opuc::fsim_test::block_pairs
