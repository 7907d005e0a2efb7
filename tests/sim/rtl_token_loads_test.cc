// A Load of nothing carries a unit's tokens (codegen's unit_transfers.cc):
// a 3x3 depthwise conv of more channels than a block, its weights and
// params resident, so the units of a window's second output block load
// nothing. The programs run on every device, bit for bit, and without
// those loads no token would order the units.
#include <doctest/doctest.h>

#include <variant>

#include "doubled_model.h"
#include "every_device.h"

namespace opuc {
namespace {

// The Loads of no rows in the model's OPU steps.
int EmptyLoads(const test::SmallModel& m) {
  int n = 0;
  for (const PlannedStep& step : m.code.steps)
    for (const isa::Word& word : step.words) {
      Expected<isa::Instruction> insn = isa::Decode(word);
      REQUIRE(insn.ok());
      if (const auto* load = std::get_if<isa::LoadInsn>(&*insn))
        n += load->rows == 0 && load->cols == 0;
    }
  return n;
}

TEST_CASE("rtl: a unit with nothing to load carries its tokens on a Load of nothing") {
  const std::vector<std::unique_ptr<Device>> devices = test::EveryDevice();
  PlanOptions resident;
  resident.weights_resident = 2;
  struct Shape {
    int64_t h, w, c, stride;
  };
  for (const Shape& s : {Shape{16, 64, 24, 1}, Shape{12, 20, 40, 1}, Shape{16, 32, 24, 2}}) {
    CAPTURE(s.c);
    CAPTURE(s.stride);
    const test::SmallModel m = test::CompileSmallModel(
        "opu1024", test::DepthwiseModel(s.h, s.w, s.c, 3, s.stride), resident);
    CHECK(test::CountTilings(m, "weights resident") == 1);
    CHECK(EmptyLoads(m) > 0);
    test::CheckAgree(test::ReadAligned(m.Write(), "depthwise.opup"), devices,
                     test::SeededInputs(m.graph(), 5));
  }
}

}  // namespace
}  // namespace opuc
