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
  int folded = 0, pairs = 0, pair_block_stores = 0;
  std::mt19937 rng(90210);
  for (const auto& [preset, cases, max_out] : {std::tuple{"tiny", 10, 12}, {"opu1024", 6, 40}}) {
    const HwConfig hw = *HwConfigPreset(preset);
    for (int i = 0; i < cases; ++i) {
      test::FoldCase c = test::RandomFoldCase(rng, max_out);
      c.store_blocks = i % 2 == 0 ? 2 : 0;  // small maps: the search would not take them
      bool pair_blocks = false;
      const int64_t pixels = test::RunFoldCase(c, hw, rng, &pair_blocks);
      folded += pixels > 0;
      pairs += pixels == 2;
      pair_block_stores += pair_blocks;
    }
  }
  CHECK(folded > 0);
  CHECK(pairs > 0);
  CHECK(pair_block_stores > 0);
}

// The hand and pose models' first layer, smaller: 3x3 stride 2 from 3
// channels to 24 folds with pixel pairs (3 x 5 x 3 = 45 taps a folded
// pixel; 24 channels in 3 blocks of Co/2 = 8), and each pixel's three
// blocks go out in one Store (extra_blocks with pair).
TEST_CASE("rtl: a first layer of 3 to 24 channels folded in pairs, its three blocks a store") {
  rtl::RegisterRtlDevice();
  std::mt19937 rng(4242);
  test::FoldCase c;
  c.h = c.w = 64;
  c.c = 3;
  c.co = 24;
  c.stride = 2;
  bool pair_blocks = false;
  CHECK(test::RunFoldCase(c, *HwConfigPreset("opu1024"), rng, &pair_blocks) == 2);
  CHECK(pair_blocks);
}

}  // namespace
}  // namespace opuc
