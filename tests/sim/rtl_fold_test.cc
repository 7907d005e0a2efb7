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
      const int64_t pixels = test::RunFoldCase(test::RandomFoldCase(rng, max_out), hw, rng);
      folded += pixels > 0;
      pairs += pixels == 2;
    }
  }
  CHECK(folded > 0);
  CHECK(pairs > 0);
}

}  // namespace
}  // namespace opuc
