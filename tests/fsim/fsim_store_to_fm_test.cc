// A Store into the feature-map buffer (to_fm) on opu1024, and a Gemm that
// reads what it wrote, never through DRAM: two 1x1 products over a 2 x 8 map
// of 16 channels, pixel p's channel c = p + c. The first's row j weighs
// channel j by 1 and j + 1 by 2, so out1(p, j) = 3 (p + j) + 2 (j < 15; p +
// 15 for j = 15); its Store writes lanes 0 to 11 of each pixel into rows
// that held 0x55 bytes, each row whole. The second's row j weighs channel j,
// j + 16 and 40 by 1: lanes past the twelve stored must read 0, so out2(p,
// j) = out1(p, j) for j < 12 and 0 from 12 on. Worked out by hand; the RTL
// runs the same program in opuc_rtl_instruction_tests.
#include <doctest/doctest.h>

#include <cstring>

#include "opu1024_bench.h"

namespace opuc::fsim_test::store_to_fm {
namespace {

using namespace isa;

constexpr int64_t kL = 64, kCo = 16, kStored = 12;
constexpr int64_t kPixels = 16;      // 2 rows of 8
constexpr int64_t kStale = 1024;     // 16 pixels of 0x55
constexpr int64_t kWeights1 = 4096;  // the weight rows (16 x 64 bytes each)
constexpr int64_t kWeights2 = 5120;
constexpr int64_t kParams = 6144;   // the param row (16 x 8 bytes)
constexpr int64_t kOut = 7168;      // the outputs, 64 bytes a pixel
constexpr int64_t kChainRow = 256;  // where the first product's pixels go on chip

struct ChainBench : Opu1024Bench {
  ChainBench() : Opu1024Bench(8192) {
    for (int64_t p = 0; p < kPixels; ++p)
      for (int64_t c = 0; c < kCo; ++c)
        dram[static_cast<size_t>(p * kL + c)] = static_cast<uint8_t>(p + c);
    std::memset(&dram[kStale], 0x55, kPixels * kL);
    for (int64_t j = 0; j < kCo; ++j) {
      uint8_t* first = &dram[static_cast<size_t>(kWeights1 + j * kL)];
      first[j] = 1;
      if (j + 1 < kCo) first[j + 1] = 2;
      uint8_t* second = &dram[static_cast<size_t>(kWeights2 + j * kL)];
      second[j] = second[j + 16] = second[40] = 1;
      const int16_t m = 1;  // bias 0, M = 1, S = 0
      std::memcpy(&dram[static_cast<size_t>(kParams + j * 8 + 4)], &m, 2);
    }
  }
  int Out(int64_t pixel, int64_t lane) const {
    return static_cast<int8_t>(dram[static_cast<size_t>(kOut + pixel * kL + lane)]);
  }
};

GemmInsn Pointwise(int64_t fm_addr, int64_t wgt_addr, int64_t acc_addr) {
  GemmInsn g;
  g.fm_addr = fm_addr;
  g.wgt_addr = wgt_addr;
  g.acc_addr = acc_addr;
  g.fm_pitch = 8;
  g.out_rows = 2;
  g.out_cols = 8;
  g.stride_y = g.stride_x = 1;
  g.init = GemmInsn::kFromBias;
  return g;
}

StoreInsn Pixels(int64_t acc_addr, int64_t lanes, int64_t addr, bool to_fm) {
  StoreInsn s = TileStore(acc_addr, 2, 8, lanes, addr);
  s.to_fm = to_fm;
  return s;
}

// The program: loads; the first product, stored into the feature-map
// buffer; the second, reading it once the Store's token comes, to DRAM.
void Chain(ChainBench& b, const StoreInsn& to_chip) {
  b.AddWith(RowLoad(LoadInsn::kWeights, kWeights1, 1), {});
  b.AddWith(RowLoad(LoadInsn::kWeights, kWeights2, 1, 1), {});
  b.AddWith(RowLoad(LoadInsn::kParams, kParams, 1), {});
  b.AddWith(RowLoad(LoadInsn::kFeatureMap, 0, kPixels), {});
  b.AddWith(RowLoad(LoadInsn::kFeatureMap, kStale, kPixels, kChainRow),
            {false, false, false, true});
  b.AddWith(Pointwise(0, 0, 0), {true, false, false, false});
  b.AddWith(Int8Outputs(0, kPixels), {false, false, false, true});
  b.AddWith(to_chip, {true, false, true, false});
  b.AddWith(Pointwise(kChainRow, 1, 32), {false, true, false, false});
  b.AddWith(Int8Outputs(32, kPixels), {false, false, false, true});
  b.AddWith(Pixels(32, kCo, kOut, false), {true, false, false, false});
}

int First(int64_t p, int64_t j) {
  return j + 1 < kCo ? 3 * static_cast<int>(p + j) + 2 : static_cast<int>(p + j);
}

TEST_CASE("a Store into the feature-map buffer: the next Gemm reads its rows, the rest zero") {
  ChainBench b;
  Chain(b, Pixels(0, kStored, kChainRow * kL, true));
  OpuCounters counters;
  const Status run = b.Run(&counters);
  REQUIRE_MESSAGE(run.ok(), run.ToString());
  for (int64_t p = 0; p < kPixels; ++p)
    for (int64_t j = 0; j < kCo; ++j) CHECK(b.Out(p, j) == (j < kStored ? First(p, j) : 0));
  // Only the second product's pixels reach DRAM: 16 lanes of 16 pixels.
  CHECK(counters.bytes_stored == kPixels * kCo);
}

TEST_CASE("a Store into the feature-map buffer: whole rows inside it, without pair or upsample") {
  StoreInsn off = Pixels(0, kStored, kChainRow * kL + 16, true);
  ChainBench unaligned;
  Chain(unaligned, off);
  CHECK(unaligned.Run().message() ==
        "instruction 7 (Store): to_fm with granules 0, dram_addr 16400 and dram_stride 512: the "
        "feature-map buffer takes whole rows (granules 0, without pair or upsample, both "
        "multiples of L = 64)");
  StoreInsn compact = Pixels(0, kStored, kChainRow * kL, true);
  compact.granules = 1;
  compact.dram_stride = 8 * kCo;
  ChainBench granules;
  Chain(granules, compact);
  CHECK(granules.Run().message() ==
        "instruction 7 (Store): to_fm with granules 1, dram_addr 16384 and dram_stride 128: the "
        "feature-map buffer takes whole rows (granules 0, without pair or upsample, both "
        "multiples of L = 64)");
  ChainBench past;
  Chain(past, Pixels(0, kStored, (8192 - 8) * kL, true));
  CHECK(past.Run().message() ==
        "instruction 7 (Store): dram_addr reaches feature-map row 8199; there are 8192");
}

}  // namespace
}  // namespace opuc::fsim_test::store_to_fm
