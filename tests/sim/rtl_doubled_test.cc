// Doubled maps on every device (codegen/doubled_maps.h): a small model
// shaped like pose landmarks' head, whose depthwise products read doubled
// maps and take two output pixels an entry, run on the reference, the
// functional simulator, the CPU executor and the Verilated RTL, each
// output bit for bit; and the same model compiled without doubled maps.
#include <doctest/doctest.h>

#include <algorithm>

#include "doubled_model.h"
#include "opuc/runtime/run_program.h"
#include "rtl.h"

namespace opuc {
namespace {

TEST_CASE("rtl: depthwise products over doubled maps agree with the reference on every device") {
  rtl::RegisterRtlDevice();
  // One tile; an odd width (the last pair one pixel); many tiles, rows
  // carried in the line slots.
  for (const auto& [h, w] : {std::pair{12, 24}, {9, 17}, {64, 70}}) {
    CAPTURE(h);
    CAPTURE(w);
    // (Its 1x1s' pairs of output pixels, format version 11, off.)
    PlanOptions no_pairs;
    no_pairs.dense_pairs = false;
    no_pairs.runs = false;  // (a run's steps list their groups, version 13)
    const test::SmallModel m = test::MakeDoubledModel("opu1024", h, w, no_pairs);
    CHECK(test::CountTilings(m, "two pixels an entry") == 2);
    CHECK(test::CountTilings(m, "output doubled") == 1);
    const Program program = test::ReadAligned(m.Write(), "doubled.opup");
    CHECK(program.version() == kDoubledMapsVersion);
    int doubled = 0;  // the model's input and the first 1x1's output
    for (const ActivationLayout& a : program.activations()) doubled += a.doubled;
    CHECK(doubled == 2);
    std::vector<std::unique_ptr<Device>> devices;
    for (const std::string& name : DeviceNames()) devices.push_back(MakeDevice(name).value());
    CHECK(devices.size() == 4);
    Expected<VerifyResult> verify =
        VerifyProgram(program, devices, test::SeededInputs(m.graph(), 11));
    REQUIRE_MESSAGE(verify.ok(), verify.status().ToString());
    CHECK_FALSE(verify->divergence.has_value());

    // Without doubled maps: a pixel an entry, the same outputs.
    PlanOptions single;
    single.doubled_maps = false;
    const test::SmallModel plain = test::MakeDoubledModel("opu1024", h, w, single);
    CHECK(test::CountTilings(plain, "two pixels an entry") == 0);
    const Program plain_program = test::ReadAligned(plain.Write(), "plain.opup");
    Expected<ProgramRun> a =
        RunProgram(program, *devices.back(), test::SeededInputs(m.graph(), 12));
    Expected<ProgramRun> b =
        RunProgram(plain_program, *devices.back(), test::SeededInputs(m.graph(), 12));
    REQUIRE(a.ok());
    REQUIRE(b.ok());
    REQUIRE(a->outputs.size() == 1);
    CHECK(std::equal(a->outputs[0].raw(), a->outputs[0].raw() + a->outputs[0].bytes(),
                     b->outputs[0].raw(), b->outputs[0].raw() + b->outputs[0].bytes()));
  }
}

}  // namespace
}  // namespace opuc
