// A 5x5 depthwise window in pairs (Gemm.init PairsFromBias over 5 rows of 6
// columns) on opu1024: its kernel rows 8 lanes apart would take 40 of the
// 32 lanes a pixel's half has, so they are 6 apart (packed rows, docs/isa.md):
// tap (ky, kx) of pixel 2i on lane 6 ky + kx, pixel 2i + 1's weights on
// 32 + 6 ky + kx + 1. The weights differ tap by tap, so a tap on the wrong
// lane shows; each output is worked out here from the map and the kernel,
// a plain sum, and the RTL runs the same program in
// opuc_rtl_instruction_tests.
#include <doctest/doctest.h>

#include <cstring>
#include <vector>

#include "opu1024_bench.h"

namespace opuc::fsim_test {
namespace {

using namespace isa;

constexpr int64_t kL = 64;
constexpr int64_t kH = 7, kW = 12;  // the map: 3 x 8 outputs of a VALID 5x5
constexpr int64_t kWeights = 8192, kParams = 9216, kOut = 10240;

int Pixel(int64_t y, int64_t x) { return static_cast<int>((3 * y + x) % 5) - 2; }
int Tap(int64_t j, int64_t ky, int64_t kx) { return static_cast<int>((5 * ky + kx + j) % 3) - 1; }

// Row j's output at (y, x): lane j of the map holds Pixel, negated in lane 1.
int Expected(int64_t j, int64_t y, int64_t x) {
  int sum = 0;
  for (int64_t ky = 0; ky < 5; ++ky)
    for (int64_t kx = 0; kx < 5; ++kx)
      sum += (j == 0 ? 1 : -1) * Pixel(y + ky, x + kx) * Tap(j, ky, kx);
  return sum;
}

// The map, the pair's weight row (packed) and the params (M = 1), loaded;
// the Gemm in pairs over the 3 x 8 outputs, their Output and Store.
Opu1024Bench PackedPairs(GemmInsn* gemm) {
  Opu1024Bench b(16384);
  for (int64_t y = 0; y < kH; ++y)
    for (int64_t x = 0; x < kW; ++x) {
      b.dram[static_cast<size_t>((y * kW + x) * kL)] = static_cast<uint8_t>(Pixel(y, x));
      b.dram[static_cast<size_t>((y * kW + x) * kL + 1)] = static_cast<uint8_t>(-Pixel(y, x));
    }
  for (int64_t j = 0; j < 2; ++j)
    for (int64_t ky = 0; ky < 5; ++ky)
      for (int64_t kx = 0; kx < 5; ++kx) {
        const auto w = static_cast<uint8_t>(Tap(j, ky, kx));
        b.dram[static_cast<size_t>(kWeights + j * kL + 6 * ky + kx)] = w;
        b.dram[static_cast<size_t>(kWeights + j * kL + 32 + 6 * ky + kx + 1)] = w;
      }
  for (int64_t j = 0; j < 16; ++j) {
    const int16_t m = 1;
    std::memcpy(&b.dram[static_cast<size_t>(kParams + j * 8 + 4)], &m, 2);
  }
  b.Add(RowLoad(LoadInsn::kWeights, kWeights, 1));
  b.Add(RowLoad(LoadInsn::kParams, kParams, 1));
  LoadInsn map = RowLoad(LoadInsn::kFeatureMap, 0, kW);
  map.rows = kH;
  map.dram_stride = kW * kL;
  b.Add(map, false, true);
  gemm->depthwise = true;
  gemm->window_h = 4;
  gemm->window_w = 5;
  gemm->fm_pitch = kW;
  gemm->out_rows = kH - 4;
  gemm->out_cols = kW - 4;
  gemm->stride_y = gemm->stride_x = 1;
  gemm->init = GemmInsn::kPairsFromBias;
  b.Add(*gemm, true);
  const int64_t outputs = (kH - 4) * (kW - 4);
  b.Add(Int8Outputs(0, outputs), false, true);
  StoreInsn store = TileStore(0, kH - 4, kW - 4, 2, kOut);
  b.Add(store, true);
  return b;
}

TEST_CASE("packed pairs: a 5x5 window's rows 6 lanes apart, two output pixels a cycle") {
  GemmInsn gemm;
  Opu1024Bench b = PackedPairs(&gemm);
  OpuCounters counters;
  const Status run = b.Run(&counters);
  REQUIRE_MESSAGE(run.ok(), run.ToString());
  for (int64_t y = 0; y < kH - 4; ++y)
    for (int64_t x = 0; x < kW - 4; ++x)
      for (int64_t j = 0; j < 2; ++j)
        CHECK(
            static_cast<int8_t>(b.dram[static_cast<size_t>(kOut + (y * (kW - 4) + x) * kL + j)]) ==
            Expected(j, y, x));
  CHECK(counters.gemm_issues == 12);  // two pixels an issue
  CHECK(WindowTapRow(gemm, kL) == 6);
}

TEST_CASE("packed pairs: rows 6 apart only for 5 rows of 6 columns") {
  GemmInsn gemm;
  Opu1024Bench b = PackedPairs(&gemm);
  GemmInsn six = gemm;
  six.window_h = 5;  // 6 rows of 6 columns: 36 lanes
  CHECK(WindowTapRow(six, kL) == 0);
  GemmInsn narrow = gemm;
  narrow.window_w = 3;  // 5 rows of 4 columns: packed rows are for 6
  CHECK(WindowTapRow(narrow, kL) == 0);
#ifndef OPUC_ALSO_RTL
  Opu1024Bench refused(16384);
  refused.Add(narrow);
  CHECK(refused.Run().message() ==
        "instruction 0 (Gemm): init is 3 (output pixels in pairs): a window of 5 rows takes more "
        "than the 32 lanes of a pixel's half (8 lanes a row; 6 only for 5 rows of 6 columns)");
#endif
  GemmInsn three = gemm;
  three.window_h = 2;  // 3 rows fit 8 apart
  CHECK(WindowTapRow(three, kL) == 8);
}

}  // namespace
}  // namespace opuc::fsim_test
