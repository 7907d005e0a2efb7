// Pointwise pairs beside whole-pixel stores (codegen/tiling_search.cc): a
// 1x1 conv of few input channels to several output blocks (selfie
// segmentation's 16 -> 72 expansions) takes two output pixels an issue
// only where each block's accumulator region starts on an even entry. A
// Store of three or four blocks puts blocks 2 and 3 half a bank on, which
// is rounded down to a multiple of 4 (OpuBufferUnits::AccHalfBank), so
// stores of four blocks pair as stores of two do. The program runs on
// every device, bit for bit.
#include <doctest/doctest.h>

#include "doubled_model.h"
#include "every_device.h"

namespace opuc {
namespace {

Graph Expansion(int64_t h, int64_t w, int64_t ci, int64_t co) {
  GraphBuilder b("expansion");
  const TensorId x = b.Input("x", DType::kF32, {1, h, w, ci});
  Attributes same;
  same.Set("padding", std::string("same"));
  const auto weights = static_cast<size_t>(ci * co);
  const TensorId p =
      b.Op(OpKind::kConv2D, "pw",
           {x, b.ConstantF32("pw/w", {co, 1, 1, ci}, test::Ramp(weights, 0.02f, -0.4f)),
            b.ConstantF32("pw/b", {co}, test::Ramp(static_cast<size_t>(co), 0.02f, -0.05f))},
           same);
  b.Output(b.Op(OpKind::kRelu, "relu", {p}));
  return test::Finished(std::move(b));
}

TEST_CASE("rtl: a 1x1 of 16 to 64 channels takes output pixels in pairs, four blocks a store") {
  // (Of 72 channels, a fifth block of 8: its one-block Stores take two
  // pixels a read since DRAM pairs, and the search takes two blocks a
  // store.)
  const test::SmallModel m = test::CompileSmallModel("opu1024", Expansion(36, 64, 16, 64), {});
  // 36 x 64 pixels x 4 blocks of 16 channels: 9,216 issues a pixel at a
  // time, 4,608 in pairs; the Stores a pixel of blocks 0 to 3 in two reads
  // (a pair of blocks each: docs/rtl.md): 4,608 cycles, against 9,216 a
  // block at a time.
  CHECK(test::CountTilings(m, "output pixels in pairs") == 1);
  CHECK(test::CountTilings(m, "4 blocks a store") == 1);
  test::CheckAgree(test::ReadAligned(m.Write(), "expansion.opup"), test::EveryDevice(),
                   test::SeededInputs(m.graph(), 5));
}

}  // namespace
}  // namespace opuc
