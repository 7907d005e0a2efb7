// A dense Gemm of output pixels in pairs (init PairsFromBias, not
// depthwise) on opu1024: each issue reads pixel 2i's feature-map row and
// 2i + 1's, the second's lanes below 32 meeting the weights 32 on. A 1x1
// product over a 2 x 8 map of 16 channels, pixel p's channel c = p + c:
// row j's weights 1 on channel j and 2 on channel j + 1, so out(p, j) =
// (p + j) + 2 (p + j + 1) = 3 (p + j) + 2, and 0 past the channels.
// Worked out by hand; the RTL runs the same program in
// opuc_rtl_instruction_tests.
#include <doctest/doctest.h>

#include <cstring>

#include "opu1024_bench.h"

namespace opuc::fsim_test::dense_pairs {
namespace {

using namespace isa;

constexpr int64_t kL = 64, kCo = 16;
constexpr int64_t kPixels = 16;     // 2 rows of 8
constexpr int64_t kWeights = 4096;  // the weight row (16 x 64 bytes)
constexpr int64_t kParams = 5120;   // the param row (16 x 8 bytes)
constexpr int64_t kOut = 6144;      // the outputs, 64 bytes a pixel

struct PairsBench : Opu1024Bench {
  PairsBench() : Opu1024Bench(8192) {}
  int Out(int64_t pixel, int64_t lane) const {
    return static_cast<int8_t>(dram[static_cast<size_t>(kOut + pixel * kL + lane)]);
  }
};

// The map, the weight row (with `upper`, again on lanes 32 on: pixel 2i +
// 1's) and the params (bias 0, M = 1, S = 0); then the map's load.
void Setup(PairsBench& b, bool upper) {
  for (int64_t p = 0; p < kPixels; ++p)
    for (int64_t c = 0; c < kCo; ++c)
      b.dram[static_cast<size_t>(p * kL + c)] = static_cast<uint8_t>(p + c);
  for (int64_t j = 0; j < kCo; ++j)
    for (int64_t half = 0; half < (upper ? 2 : 1); ++half) {
      uint8_t* row = &b.dram[static_cast<size_t>(kWeights + j * kL + half * kL / 2)];
      row[j] = 1;
      if (j + 1 < kCo) row[j + 1] = 2;
    }
  for (int64_t j = 0; j < kCo; ++j) {
    const int16_t m = 1;
    std::memcpy(&b.dram[static_cast<size_t>(kParams + j * 8 + 4)], &m, 2);
  }
  b.Add(RowLoad(LoadInsn::kWeights, kWeights, 1));
  b.Add(RowLoad(LoadInsn::kParams, kParams, 1));
  b.Add(RowLoad(LoadInsn::kFeatureMap, 0, kPixels), false, true);
}

GemmInsn Pointwise(int64_t init) {
  GemmInsn g;
  g.fm_pitch = 8;
  g.out_rows = 2;
  g.out_cols = 8;
  g.stride_y = g.stride_x = 1;
  g.init = init;
  return g;
}

void OutputAndStore(PairsBench& b) {
  b.Add(Int8Outputs(0, kPixels), false, true);
  b.Add(TileStore(0, 2, 8, kCo, kOut), true);
}

TEST_CASE("dense output pixels in pairs: pixel 2i + 1 from the next row, on the lanes 32 on") {
  PairsBench b;
  Setup(b, true);
  b.Add(Pointwise(GemmInsn::kPairsFromBias), true);
  OutputAndStore(b);
  OpuCounters counters;
  const Status run = b.Run(&counters);
  REQUIRE_MESSAGE(run.ok(), run.ToString());
  for (int64_t p = 0; p < kPixels; ++p)
    for (int64_t j = 0; j < kCo; ++j) CHECK(b.Out(p, j) == (j + 1 < kCo ? 3 * (p + j) + 2 : p + j));
  CHECK(counters.gemm_issues == kPixels / 2);
}

TEST_CASE("dense output pixels in pairs: the weights' lower half alone is each even pixel's") {
  // Without the copy on lanes 32 on, every odd pixel sums to zero.
  PairsBench b;
  Setup(b, false);
  b.Add(Pointwise(GemmInsn::kPairsFromBias), true);
  OutputAndStore(b);
  const Status run = b.Run();
  REQUIRE_MESSAGE(run.ok(), run.ToString());
  for (int64_t p = 0; p < kPixels; ++p) CHECK(b.Out(p, 3) == (p % 2 == 0 ? 3 * (p + 3) + 2 : 0));
}

TEST_CASE("dense output pixels in pairs: refused at stride 2, over an i16, from an odd entry") {
  PairsBench b;
  Setup(b, true);
  GemmInsn g = Pointwise(GemmInsn::kPairsFromBias);
  g.stride_x = 2;
  g.out_cols = 4;
  b.Add(g, true);
  // At stride_x 2, init 3 is two channel blocks of a depthwise window.
  CHECK(b.Run().message() ==
        "instruction 3 (Gemm): init is 3 at stride_x 2 (two channel blocks a Gemm) takes a "
        "depthwise Gemm of one row a channel (pair_rows 0)");
  PairsBench high;
  Setup(high, true);
  g = Pointwise(GemmInsn::kPairsFromBias);
  g.operand = GemmInsn::kHigh;
  high.Add(g, true);
  CHECK(high.Run().message() ==
        "instruction 3 (Gemm): init is 3 (output pixels in pairs) with operand 2: pairs take i8 "
        "or u8 bytes");
  PairsBench odd;
  Setup(odd, true);
  g = Pointwise(GemmInsn::kPairsFromBias);
  g.acc_addr = 1;
  odd.Add(g, true);
  CHECK(odd.Run().message() ==
        "instruction 3 (Gemm): init is 3 (output pixels in pairs): out_cols 8 and acc_addr 1 "
        "must be even");
}

}  // namespace
}  // namespace opuc::fsim_test::dense_pairs
