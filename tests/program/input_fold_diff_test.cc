// First-layer folding, differential: random first layers (fold_case.h)
// compiled for tiny and opu1024, every device (ref, fsim, cpu) against the
// integer reference of the unfolded graph, bit for bit. The draw must reach
// each kernel, stride, padding and format, fold both taps x channels
// that fill whole blocks of lanes and that do not, and fold pixel pairs,
// with an odd output width (a last pair of one pixel) among them, and a
// pair's blocks stored by one Store.
#include <doctest/doctest.h>

#include "fold_case.h"

namespace opuc {
namespace {

TEST_CASE("input fold: random first layers agree with the reference on every device") {
  int folded = 0, unfolded = 0, whole_blocks = 0, partial_blocks = 0, strided = 0, valid = 0,
      padded = 0, wide = 0, unsigned_in = 0, pairs = 0, odd_pairs = 0, wide_out_pairs = 0,
      pair_block_stores = 0, pointwise_pairs = 0;
  std::mt19937 rng(4711);
  for (const auto& [preset, cases, max_out] : {std::tuple{"tiny", 30, 12}, {"opu1024", 20, 40}}) {
    const HwConfig hw = *HwConfigPreset(preset);
    const int64_t lanes = hw.array.input_channels;
    for (int i = 0; i < cases; ++i) {
      test::FoldCase c = test::RandomFoldCase(rng, max_out);
      c.store_blocks = i % 2 == 0 ? 2 : 0;  // small maps: the search would not take them
      // Pointwise pairs pay where the map is large enough to hide their setup.
      if (i % 4 == 1 && lanes == 64) c.h = c.w = 48;
      bool pair_blocks = false, pointwise = false;
      const int64_t pixels = test::RunFoldCase(c, hw, rng, &pair_blocks, &pointwise);
      pair_block_stores += pair_blocks;
      pointwise_pairs += pointwise;
      const bool f = pixels > 0;
      pairs += pixels == 2;
      odd_pairs += pixels == 2 && c.OutW() % 2 == 1;
      wide_out_pairs += pixels == 2 && c.out == DType::kI16;
      folded += f;
      unfolded += !f;
      whole_blocks += f && c.k * c.k * c.c % lanes == 0;
      partial_blocks += f && c.k * c.k * c.c % lanes != 0;
      strided += f && c.stride == 2;
      valid += f && !c.same && !c.pad_op;
      padded += f && c.pad_op;
      wide += f && c.in == DType::kI16;
      unsigned_in += f && c.in == DType::kU8;
    }
  }
  CHECK(folded > 0);
  CHECK(unfolded > 0);
  CHECK(whole_blocks > 0);
  CHECK(partial_blocks > 0);
  CHECK(strided > 0);
  CHECK(valid > 0);
  CHECK(padded > 0);
  CHECK(wide > 0);
  CHECK(unsigned_in > 0);
  CHECK(pairs > 0);
  CHECK(odd_pairs > 0);
  CHECK(wide_out_pairs > 0);
  CHECK(pair_block_stores > 0);
  CHECK(pointwise_pairs > 0);
}

}  // namespace
}  // namespace opuc
