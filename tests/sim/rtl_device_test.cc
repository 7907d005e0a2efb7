// The "rtl" device through the runtime: a small model's program on tiny and
// opu1024 computes what the integer reference and the functional simulator
// compute, and each OPU step's cycles respect two bounds the RTL cannot beat:
// the array's one output pixel a cycle (and the post-processing stages' one
// entry a cycle, which run beside it), and DRAM's bytes a cycle.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "opuc/runtime/run_program.h"
#include "rtl.h"
#include "small_model.h"

namespace opuc {
namespace {

TEST_CASE("rtl device: a small model's program agrees with ref and fsim, in plausible cycles") {
  rtl::RegisterRtlDevice();
  for (const auto& [hw, normalized] :
       {std::pair{"tiny", false}, {"opu1024", false}, {"tiny", true}, {"opu1024", true}}) {
    CAPTURE(hw);
    CAPTURE(normalized);  // the input's scale and shift in a pass of their own
    const test::SmallModel m = test::MakeSmallModel(hw, normalized);
    const std::vector<uint8_t> bytes = m.Write();
    Expected<Program> program = ReadProgram(nullptr, bytes.data(), bytes.size(), "small.opup");
    REQUIRE_MESSAGE(program.ok(), program.status().ToString());
    std::vector<std::unique_ptr<Device>> devices;
    for (const char* name : {"ref", "fsim", "rtl"}) devices.push_back(MakeDevice(name).value());
    Expected<VerifyResult> verify =
        VerifyProgram(*program, devices, test::SeededInputs(m.graph(), 5));
    REQUIRE_MESSAGE(verify.ok(), verify.status().ToString());
    CHECK_FALSE(verify->divergence.has_value());

    Expected<ProgramRun> run = RunProgram(*program, *devices[2], test::SeededInputs(m.graph(), 6));
    REQUIRE_MESSAGE(run.ok(), run.status().ToString());
    const HwConfig& config = program->hw();
    const double bytes_per_cycle = config.dram.bandwidth_gb_per_s * 1000.0 / config.array.clock_mhz;
    int64_t opu_steps = 0;
    for (size_t s = 0; s < program->steps().size(); ++s) {
      if (program->steps()[s].kind != StepKind::kOpu) continue;
      const OpuCounters& c = run->counters[s];
      CAPTURE(s);
      ++opu_steps;
      // The array and the post-processing stages run at once: each a cycle
      // per issue or entry, neither faster.
      CHECK(c.cycles >= std::max(c.gemm_issues, c.post_entries));
      CHECK(static_cast<double>(c.cycles) >=
            static_cast<double>(c.bytes_loaded + c.bytes_stored) / bytes_per_cycle);
    }
    CHECK(opu_steps > 0);
  }
}

}  // namespace
}  // namespace opuc
