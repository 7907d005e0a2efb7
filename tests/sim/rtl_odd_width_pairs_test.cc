// Depthwise pairs over tiles of odd widths (docs/codegen.md, "Odd widths in
// pairs"): a 7x7 map's tile computes 8 columns, its Gemms two output pixels
// a cycle, and stores the 7 of the map; without it (PlanOptions::
// even_columns off) its Gemms take a pixel a cycle over 7. Either way the
// program runs on every device bit for bit.
#include <doctest/doctest.h>

#include <variant>

#include "doubled_model.h"
#include "every_device.h"

namespace opuc {
namespace {

struct PairCounts {
  int64_t gemms = 0, paired = 0, eight_wide = 0;  // depthwise Gemms
  int64_t stores = 0, seven_of_eight = 0;         // Stores of 7 columns 8 entries apart
};
PairCounts CountPairs(const test::SmallModel& m) {
  PairCounts n;
  for (const PlannedStep& step : m.code.steps)
    for (const isa::Word& word : step.words) {
      Expected<isa::Instruction> insn = isa::Decode(word);
      REQUIRE(insn.ok());
      if (const auto* gemm = std::get_if<isa::GemmInsn>(&*insn); gemm && gemm->depthwise) {
        ++n.gemms;
        n.paired += gemm->init == isa::GemmInsn::kPairsFromBias;
        n.eight_wide += gemm->out_cols == 8;
      } else if (const auto* store = std::get_if<isa::StoreInsn>(&*insn)) {
        ++n.stores;
        n.seven_of_eight += store->cols == 7 && store->acc_pitch == 8;
      }
    }
  return n;
}

TEST_CASE("rtl: a 7x7 depthwise map takes its output pixels in pairs over 8 columns") {
  const std::vector<std::unique_ptr<Device>> devices = test::EveryDevice();
  PlanOptions without;
  without.even_columns = false;
  for (const int64_t k : {3, 5}) {
    CAPTURE(k);
    const test::SmallModel m =
        test::CompileSmallModel("opu1024", test::DepthwiseModel(7, 7, 32, k));
    const PairCounts n = CountPairs(m);
    REQUIRE(n.gemms > 0);
    CHECK(n.paired == n.gemms);
    CHECK(n.eight_wide == n.gemms);
    REQUIRE(n.stores > 0);
    CHECK(n.seven_of_eight == n.stores);
    test::CheckAgree(test::ReadAligned(m.Write(), "depthwise.opup"), devices,
                     test::SeededInputs(m.graph(), 11));

    const test::SmallModel plain =
        test::CompileSmallModel("opu1024", test::DepthwiseModel(7, 7, 32, k), without);
    const PairCounts p = CountPairs(plain);
    REQUIRE(p.gemms > 0);
    CHECK(p.paired == 0);
    CHECK(p.eight_wide == 0);
    test::CheckAgree(test::ReadAligned(plain.Write(), "depthwise.opup"), devices,
                     test::SeededInputs(plain.graph(), 11));
  }
}

}  // namespace
}  // namespace opuc
