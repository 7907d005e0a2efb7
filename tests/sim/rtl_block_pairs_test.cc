// Block pairs (docs/codegen.md, "Block pairs"): a stride-2 depthwise Gemm
// of block 2k takes block 2k + 1 too, its weights L/2 on in block 2k's
// weight row, so block 2k + 1's unit has no Gemm and needs no weight row.
// A 3x3 depthwise conv of 32 channels at stride 2, weights loaded per unit
// (not resident): every Gemm is a pair's (block 0's lane, PairsFromBias),
// the weight rows loaded are one a Gemm, and every device agrees.
#include <doctest/doctest.h>

#include <variant>

#include "doubled_model.h"
#include "every_device.h"

namespace opuc {
namespace {

TEST_CASE("rtl: a block pair's second block loads no weight row") {
  PlanOptions options;
  options.store_blocks = 2;      // whole-pixel stores: blocks 0 and 1 at one offset
  options.weights_resident = 1;  // a weight row loaded per unit
  const test::SmallModel m =
      test::CompileSmallModel("opu1024", test::DepthwiseModel(16, 32, 32, 3, 2), options);
  int64_t gemms = 0, pairs = 0, second_block = 0, weight_rows = 0;
  for (const PlannedStep& step : m.code.steps)
    for (const isa::Word& word : step.words) {
      Expected<isa::Instruction> insn = isa::Decode(word);
      REQUIRE(insn.ok());
      if (const auto* gemm = std::get_if<isa::GemmInsn>(&*insn); gemm && gemm->depthwise) {
        ++gemms;
        pairs += gemm->init == isa::GemmInsn::kPairsFromBias && gemm->stride_x == 2;
        second_block += gemm->lane == 16;
      }
      if (const auto* load = std::get_if<isa::LoadInsn>(&*insn);
          load && load->buffer == isa::LoadInsn::kWeights)
        weight_rows += load->rows * load->cols;
    }
  REQUIRE(gemms > 0);
  CHECK(pairs == gemms);
  CHECK(second_block == 0);
  // Each Gemm reads one weight row (both blocks' taps); before, block 1's
  // unit loaded a row of its own that no Gemm read: twice as many.
  CHECK(weight_rows == gemms);
  test::CheckAgree(test::ReadAligned(m.Write(), "depthwise.opup"), test::EveryDevice(),
                   test::SeededInputs(m.graph(), 11));
}

}  // namespace
}  // namespace opuc
