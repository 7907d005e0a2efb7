// A store group's blocks 2 and 3 lie half a bank from blocks 0 and 1
// (OpuBufferUnits::AccHalfBank), rounded down to a multiple of 4 so that
// they start on even entries: on opu1024 half a bank is 1365, odd, and
// there the depthwise Gemms of those blocks took one output pixel a cycle
// where blocks 0 and 1 took a pair. With whole-pixel stores forced, a
// 3x3 depthwise conv of 3 and 4 blocks pairs every block's Gemms alike,
// and runs on every device bit for bit.
#include <doctest/doctest.h>

#include <map>
#include <variant>

#include "doubled_model.h"
#include "every_device.h"

namespace opuc {
namespace {

// Per output block (a depthwise Gemm's lane / 16): its Gemms, and those
// that take a pair of output pixels a cycle.
struct BlockGemms {
  int64_t gemms = 0, paired = 0;
};
std::map<int64_t, BlockGemms> GemmsByBlock(const test::SmallModel& m) {
  std::map<int64_t, BlockGemms> blocks;
  for (const PlannedStep& step : m.code.steps)
    for (const isa::Word& word : step.words) {
      Expected<isa::Instruction> insn = isa::Decode(word);
      REQUIRE(insn.ok());
      const auto* gemm = std::get_if<isa::GemmInsn>(&*insn);
      if (gemm == nullptr || !gemm->depthwise) continue;
      BlockGemms& b = blocks[gemm->lane / 16];
      ++b.gemms;
      b.paired += gemm->init == isa::GemmInsn::kPairsFromBias;
    }
  return blocks;
}

TEST_CASE("rtl: a store group's blocks 2 and 3 take output pixels in pairs as 0 and 1 do") {
  const std::vector<std::unique_ptr<Device>> devices = test::EveryDevice();
  PlanOptions whole_pixels;
  whole_pixels.store_blocks = 2;
  for (const int64_t c : {48, 64}) {
    CAPTURE(c);
    const test::SmallModel m =
        test::CompileSmallModel("opu1024", test::DepthwiseModel(16, 32, c), whole_pixels);
    const std::map<int64_t, BlockGemms> blocks = GemmsByBlock(m);
    REQUIRE(blocks.size() == static_cast<size_t>(c / 16));
    for (const auto& [block, b] : blocks) {
      CAPTURE(block);
      CHECK(b.gemms > 0);
      // Every Gemm over an even row pairs: the tiles are whole rows of 32
      // pixels, so each block pairs as many Gemms as block 0.
      CHECK(b.paired > 0);
      CHECK(b.paired == blocks.at(0).paired);
    }
    test::CheckAgree(test::ReadAligned(m.Write(), "depthwise.opup"), devices,
                     test::SeededInputs(m.graph(), 7));
  }
}

}  // namespace
}  // namespace opuc
