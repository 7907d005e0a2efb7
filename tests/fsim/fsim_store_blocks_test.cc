// Stores that write several blocks of Co lanes of a pixel at once
// (Store.extra_blocks) on opu1024 (L = 64, Co = 16, the accumulator's bank
// 1 at entry 2730): a 1 x 3 map whose pixel p holds p + 1 in lane 0, one
// 1x1 Gemm a block, block b's weights W[j][0] = 4 b + j + 1, so that lane j
// of block b of pixel p is (p + 1)(4 b + j + 1), worked out by hand. Each
// block sits where the store looks for it: block 0 at the entry, 1 in the
// other bank (+2730 from bank 0, -2730 from bank 1), 2 half a bank on
// (+1364: 1365 rounded down to a multiple of 4, an even entry as pairs
// need), 3 both. The RTL runs the same programs in
// opuc_rtl_instruction_tests.
#include <doctest/doctest.h>

#include <cstring>
#include <vector>

#include "fsim_bench.h"
#include "opu1024_bench.h"

namespace opuc::store_blocks_test {
namespace {

using namespace isa;

constexpr int64_t kL = 64, kCo = 16;
constexpr int64_t kWeights = 1024;   // DRAM: four weight rows of 16 x 64 bytes
constexpr int64_t kParams = 8192;    // the param row (16 x 8 bytes)
constexpr int64_t kOut = 9216;       // the stored map
constexpr int64_t kBank1 = 2730;     // opu1024's AccBank1: 5461 / 2
constexpr int64_t kHalfBank = 1364;  // 2730 / 2 = 1365, down to a multiple of 4
constexpr int64_t kEntry = 7;        // block 0's first entry

// A DRAM of 0x55 bytes but for what a test writes: a byte no store
// reaches shows.
struct BlocksBench : fsim_test::Opu1024Bench {
  BlocksBench() : Opu1024Bench(12288, 0x55) {}
};

// Block k's first entry for a Store from `entry`.
int64_t BlockEntry(int64_t entry, int64_t k) {
  return entry + (k % 2) * (entry < kBank1 ? kBank1 : -kBank1) + (k / 2) * kHalfBank;
}

// The map, the weights and params loaded, and `blocks` blocks computed and
// through the output stage, each in its own entries from `entry`; the store
// follows.
void Blocks(BlocksBench& b, int64_t blocks, int64_t entry = kEntry) {
  for (int64_t p = 0; p < 3; ++p) {
    std::fill_n(&b.dram[static_cast<size_t>(p * kL)], kL, 0);
    b.dram[static_cast<size_t>(p * kL)] = static_cast<uint8_t>(p + 1);
  }
  for (int64_t k = 0; k < 4; ++k)
    for (int64_t j = 0; j < kCo; ++j) {
      uint8_t* row = &b.dram[static_cast<size_t>(kWeights + k * kCo * kL + j * kL)];
      std::fill_n(row, kL, 0);
      row[0] = static_cast<uint8_t>(4 * k + j + 1);
    }
  for (int64_t j = 0; j < kCo; ++j) {
    const int32_t bias = 0;
    const int16_t m = 1;
    uint8_t* lane = &b.dram[static_cast<size_t>(kParams + j * 8)];
    std::memcpy(lane, &bias, 4);
    std::memcpy(lane + 4, &m, 2);
    lane[6] = lane[7] = 0;
  }
  b.Add(fsim_test::Load(LoadInsn::kFeatureMap, 0, 0, 1, 3, 3 * kL));
  b.Add(fsim_test::Load(LoadInsn::kWeights, 0, kWeights, 4, 1, kCo * kL));
  b.Add(fsim_test::Load(LoadInsn::kParams, 0, kParams, 1, 1, kCo * 8), false, true);
  for (int64_t k = 0; k < blocks; ++k) {
    GemmInsn g;
    g.fm_pitch = 3;
    g.out_rows = 1;
    g.out_cols = 3;
    g.stride_y = g.stride_x = 1;
    g.wgt_addr = k;
    g.acc_addr = BlockEntry(entry, k);
    g.init = GemmInsn::kFromBias;
    b.Add(g, k == 0);
    OutputInsn o;
    o.acc_addr = g.acc_addr;
    o.count = 3;
    o.lo = -128;
    o.hi = 127;
    b.Add(o, false, k + 1 == blocks);
  }
}

StoreInsn BlocksStore(int64_t extra_blocks, int64_t lanes, int64_t granules,
                      int64_t entry = kEntry) {
  StoreInsn s = fsim_test::Store(1, 3, 3, kOut, 3 * kL);  // the map's one row
  s.acc_addr = entry;
  s.lanes = lanes;
  s.extra_blocks = extra_blocks;
  s.granules = granules;
  return s;
}

int Value(int64_t p, int64_t byte) {
  return static_cast<int>((p + 1) * (byte + 1 - 12 * (byte / kCo)));
}

TEST_CASE("store blocks: four blocks of a 64-byte pixel, the last 5 lanes of 16") {
  BlocksBench b;
  Blocks(b, 4);
  b.Add(BlocksStore(3, 5, 0), true);
  OpuCounters counters;
  const Status run = b.Run(&counters);
  REQUIRE_MESSAGE(run.ok(), run.ToString());
  for (int64_t p = 0; p < 3; ++p)
    for (int64_t byte = 0; byte < kL; ++byte) {
      CAPTURE(p);
      CAPTURE(byte);
      // Lane j of block b: (p + 1)(4 b + j + 1) with byte = 16 b + j.
      const int want = byte < 3 * kCo + 5 ? Value(p, byte) : 0x55;
      CHECK(static_cast<int>(b.dram[static_cast<size_t>(kOut + p * kL + byte)]) == want);
    }
  CHECK(counters.bytes_stored == 3 * (3 * kCo + 5));
}

TEST_CASE("store blocks: two blocks of a compact 32-byte pixel from bank 1, two pixels a beat") {
  // Block 0 at entry 2740, block 1 back in bank 0 at 10.
  BlocksBench b;
  Blocks(b, 2, kBank1 + 10);
  b.Add(BlocksStore(1, 16, 2, kBank1 + 10), true);
  REQUIRE(b.Run().ok());
  for (int64_t p = 0; p < 3; ++p)
    for (int64_t byte = 0; byte < 2 * kCo; ++byte) {
      CAPTURE(p);
      CAPTURE(byte);
      CHECK(static_cast<int>(b.dram[static_cast<size_t>(kOut + p * 2 * kCo + byte)]) ==
            Value(p, byte));
    }
  CHECK(b.dram[static_cast<size_t>(kOut + 3 * 2 * kCo)] == 0x55);  // nothing past the map
}

// Pixel pairs (Store.pair: lanes 0 to 7 of an entry pixel 2e, 8 to 15
// pixel 2e + 1) in three blocks of 8 lanes a pixel, the last 5: byte
// 8 b + j of pixel q is lane 8 (q mod 2) + j of block b of entry q / 2,
// (q / 2 + 1)(4 b + 8 (q mod 2) + j + 1).
void CheckPairBlocks(int64_t granules) {
  CAPTURE(granules);
  BlocksBench b;
  Blocks(b, 3);
  StoreInsn s = BlocksStore(2, 5, granules);
  s.pair = 1;
  s.cols = 6;  // pixels: two an entry
  b.Add(s, true);
  OpuCounters counters;
  const Status run = b.Run(&counters);
  REQUIRE_MESSAGE(run.ok(), run.ToString());
  const int64_t pixel = granules * kCo;
  for (int64_t q = 0; q < 6; ++q)
    for (int64_t byte = 0; byte < pixel; ++byte) {
      CAPTURE(q);
      CAPTURE(byte);
      const int64_t e = q / 2, blk = byte / 8, j = byte % 8;
      const int want =
          byte < 2 * 8 + 5 ? static_cast<int>((e + 1) * (4 * blk + 8 * (q % 2) + j + 1)) : 0x55;
      CHECK(static_cast<int>(b.dram[static_cast<size_t>(kOut + q * pixel + byte)]) == want);
    }
  CHECK(counters.bytes_stored == 6 * (2 * 8 + 5));
}

TEST_CASE("store blocks: three blocks of pixel pairs, 32-byte pixels (a pair a beat) and 48") {
  CheckPairBlocks(2);  // both pixels of an entry in one beat: a read a block
  CheckPairBlocks(3);  // pixels across beats: a read a block and pixel
}

#ifndef OPUC_ALSO_RTL
TEST_CASE("store blocks: more than a pixel, with upsample, across the banks, past the end") {
  const auto refusal = [](StoreInsn s) {
    BlocksBench b;
    b.Add(s);
    return b.Run().message();
  };
  CHECK(refusal(BlocksStore(2, 16, 2)) ==
        "instruction 0 (Store): extra_blocks is 2: 3 blocks of 16 lanes in a 32-byte pixel; the "
        "blocks fill at most a pixel, without upsample");
  StoreInsn pair = BlocksStore(2, 5, 1);  // 8 + 8 + 5 lanes a pixel of 16 bytes
  pair.pair = 1;
  CHECK(refusal(pair) ==
        "instruction 0 (Store): extra_blocks is 2: 3 blocks of 8 lanes in a 16-byte pixel; the "
        "blocks fill at most a pixel, without upsample");
  StoreInsn up = BlocksStore(1, 16, 0);
  up.upsample = 1;
  CHECK(refusal(up) ==
        "instruction 0 (Store): extra_blocks is 1: 2 blocks of 16 lanes in a 64-byte pixel, with "
        "upsample; the blocks fill at most a pixel, without upsample");
  StoreInsn across = BlocksStore(1, 16, 0, kBank1 - 1);  // entries 2729 to 2731
  CHECK(refusal(across) ==
        "instruction 0 (Store): extra_blocks with entries 2729 to 2731: block 0's entries cross "
        "the accumulator's second bank at 2730");
  StoreInsn late = BlocksStore(3, 16, 0);
  late.acc_addr = 1400;  // block 3 from 1400 + 2730 + 1364 = 5494: past the 5461
  CHECK(refusal(late) ==
        "instruction 0 (Store): block 3 of acc_addr reaches accumulator entry 5496; there are "
        "5461");
}
#endif

}  // namespace
}  // namespace opuc::store_blocks_test
