// First-layer folding on the RTL: random first layers (tests/program/
// fold_case.h) on every device, the Verilated RTL among them, each against
// the integer reference of the unfolded graph, bit for bit.
#include <doctest/doctest.h>

#include "fold_case.h"
#include "rtl.h"

namespace opuc {
namespace {

TEST_CASE("rtl: random folded first layers agree with the reference on every device") {
  rtl::RegisterRtlDevice();
  int folded = 0, pairs = 0;
  std::mt19937 rng(90210);
  for (const auto& [preset, cases, max_out] : {std::tuple{"tiny", 10, 12}, {"opu1024", 6, 40}}) {
    const HwConfig hw = *HwConfigPreset(preset);
    for (int i = 0; i < cases; ++i) {
      test::FoldCase c = test::RandomFoldCase(rng, max_out);
      c.store_blocks = i % 2 == 0 ? 2 : 0;  // tiles' blocks one Store, where they fit
      const int64_t pixels = test::RunFoldCase(c, hw, rng);
      folded += pixels > 0;
      pairs += pixels == 2;
    }
  }
  CHECK(folded > 0);
  CHECK(pairs > 0);
}

// A 64x64 image's first layer: a k x k stride-2 conv from 3 channels to 24.
test::FoldCase FirstLayer(int64_t k) {
  test::FoldCase c;
  c.h = c.w = 64;
  c.c = 3;
  c.co = 24;
  c.k = k;
  c.stride = 2;
  return c;
}

// The hand and pose models' first layer, smaller: 3x3 folds single (27
// taps a folded pixel, under half the lanes), and each Gemm takes two
// output pixels a pass (pointwise pairs): 2 blocks a pair of pixels, where
// pixel pairs would take 3.
TEST_CASE("rtl: a first layer of 3x3x3 to 24 channels folded single, two output pixels a pass") {
  rtl::RegisterRtlDevice();
  std::mt19937 rng(4242);
  bool pointwise_pairs = false;
  CHECK(test::RunFoldCase(FirstLayer(3), *HwConfigPreset("opu1024"), rng, nullptr,
                          &pointwise_pairs) == 1);
  CHECK(pointwise_pairs);
}

// The face detector's first layer, smaller: 5x5 folds with pixel pairs
// (5 x 7 x 3 = 105 taps a folded pixel; 24 channels in 3 blocks of Co/2 =
// 8), and each pixel's three blocks go out in one Store (extra_blocks with
// pair).
TEST_CASE("rtl: a first layer of 5x5x3 to 24 channels folded in pairs, its three blocks a store") {
  rtl::RegisterRtlDevice();
  std::mt19937 rng(4243);
  test::FoldCase c = FirstLayer(5);
  c.store_blocks = 2;
  bool pair_blocks = false;
  CHECK(test::RunFoldCase(c, *HwConfigPreset("opu1024"), rng, &pair_blocks) == 2);
  CHECK(pair_blocks);
}

}  // namespace
}  // namespace opuc
