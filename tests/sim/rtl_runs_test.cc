// Runs on every device (codegen/runs.h, docs/codegen.md "Runs"): the OPU
// groups between two CPU steps as one program, each group's first loads
// beside the end of the group before, a load of what a Store of the run
// wrote behind a Fence. Small float models of three convolutions (kernels,
// strides and channels drawn; a residual add of the first map where the
// shapes allow, read two groups later), compiled as a run and as a step a
// group, run on the reference, the functional simulator, the CPU executor
// and the Verilated RTL: every output bit for bit, and the same in both.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>

#include "doubled_model.h"
#include "every_device.h"
#include "opuc/runtime/run_program.h"
#include "rtl.h"

namespace opuc {
namespace {

struct Layer {
  int64_t kernel, stride, channels;
};

struct RunShape {
  int64_t h, w, ci;
  Layer a, b, c;
  bool residual;  // c's output plus a's (c keeps b's size and a's channels)
};

TensorId Conv(GraphBuilder& b, const std::string& name, TensorId x, int64_t ci, const Layer& l) {
  Attributes attrs;
  attrs.Set("padding", std::string("same"));
  attrs.Set("strides", std::vector<int64_t>{l.stride, l.stride});
  const auto taps = static_cast<size_t>(l.kernel * l.kernel * ci * l.channels);
  return b.Op(OpKind::kConv2D, name,
              {x,
               b.ConstantF32(name + "/w", {l.channels, l.kernel, l.kernel, ci},
                             test::Ramp(taps, 0.6f / static_cast<float>(taps), -0.3f)),
               b.ConstantF32(name + "/b", {l.channels},
                             test::Ramp(static_cast<size_t>(l.channels), 0.02f, -0.05f))},
              attrs);
}

Graph RunModel(const RunShape& s) {
  GraphBuilder b("run");
  const TensorId x = b.Input("x", DType::kF32, {1, s.h, s.w, s.ci});
  const TensorId a = b.Op(OpKind::kRelu, "a/relu", {Conv(b, "a", x, s.ci, s.a)});
  const TensorId m = b.Op(OpKind::kRelu, "b/relu", {Conv(b, "b", a, s.a.channels, s.b)});
  TensorId c = Conv(b, "c", m, s.b.channels, s.c);
  if (s.residual) c = b.Op(OpKind::kAdd, "add", {c, a});
  b.Output(b.Op(OpKind::kRelu, "c/relu", {c}));
  return test::Finished(std::move(b));
}

int Count(const Program& program, bool fences) {
  int n = 0;
  for (const ProgramStep& step : program.steps()) {
    if (step.kind != StepKind::kOpu) continue;
    if (!fences) ++n;
    for (size_t i = 0; fences && i < step.word_count; ++i)
      n += std::holds_alternative<isa::FenceInsn>(isa::Decode(step.word(i)).value());
  }
  return n;
}

// `s` compiled as a run and a step a group: both agree with the reference
// on `devices` bit for bit, and with each other; the run is one OPU step
// of three groups, its loads of the first map behind Fences.
void CheckRun(const RunShape& s, const std::vector<std::unique_ptr<Device>>& devices) {
  CAPTURE(s.h);
  CAPTURE(s.w);
  CAPTURE(s.ci);
  CAPTURE(s.a.kernel);
  CAPTURE(s.b.kernel);
  CAPTURE(s.c.kernel);
  CAPTURE(s.b.stride);
  CAPTURE(s.residual);
  const test::SmallModel m = test::CompileSmallModel("opu1024", RunModel(s));
  const Program program = test::ReadAligned(m.Write(), "run.opup");
  PlanOptions apart;
  apart.runs = false;
  const test::SmallModel plain = test::CompileSmallModel("opu1024", RunModel(s), apart);
  const Program plain_program = test::ReadAligned(plain.Write(), "apart.opup");
  REQUIRE(Count(plain_program, false) == 3);
  REQUIRE(Count(program, false) == 1);
  CHECK(program.version() == kRunsVersion);
  for (const ProgramStep& step : program.steps())
    if (step.kind == StepKind::kOpu) CHECK(step.groups.size() == 3);
  // Each group after the first reads the map of the one before from DRAM.
  CHECK(Count(program, true) >= 2);
  CHECK(Count(plain_program, true) == 0);
  for (const ProgramStep& step : program.steps()) {  // the groups' shares of the estimate
    int64_t estimated = 0;
    for (const StepGroup& g : step.groups) estimated += g.estimated_cycles;
    if (step.kind == StepKind::kOpu) CHECK(estimated == step.estimated_cycles);
  }
  test::CheckAgree(program, devices, test::SeededInputs(m.graph(), 31));
  Expected<ProgramRun> run = RunProgram(program, *devices[0], test::SeededInputs(m.graph(), 32));
  Expected<ProgramRun> apart_run =
      RunProgram(plain_program, *devices[0], test::SeededInputs(m.graph(), 32));
  REQUIRE(run.ok());
  REQUIRE(apart_run.ok());
  REQUIRE(run->outputs.size() == 1);
  // On the RTL, each group's share of the run's cycles, to the retirement
  // of its last instruction: three, adding up to the run's.
  const auto rtl =
      std::find_if(devices.begin(), devices.end(),
                   [](const std::unique_ptr<Device>& d) { return d->name() == "rtl"; });
  REQUIRE(rtl != devices.end());
  Expected<ProgramRun> timed = RunProgram(program, **rtl, test::SeededInputs(m.graph(), 32));
  REQUIRE(timed.ok());
  for (const OpuCounters& c : timed->counters) {
    if (c.cycles == 0) continue;  // a CPU step
    REQUIRE(c.group_cycles.size() == 3);
    CHECK(c.group_cycles[0] + c.group_cycles[1] + c.group_cycles[2] == c.cycles);
    for (int64_t g : c.group_cycles) CHECK(g > 0);
  }
  CHECK(std::equal(run->outputs[0].raw(), run->outputs[0].raw() + run->outputs[0].bytes(),
                   apart_run->outputs[0].raw()));
}

TEST_CASE("rtl: three convolutions as one run agree with the reference on every device") {
  const std::vector<std::unique_ptr<Device>> devices = test::EveryDevice();
  // One tile each (the next group's first window reads the last Store:
  // its Fence waits for it); many tiles, a residual add two groups on;
  // stride 2 in the middle; output blocks past the lanes.
  CheckRun({4, 5, 3, {3, 1, 8}, {1, 1, 16}, {3, 1, 8}, true}, devices);
  CheckRun({40, 48, 16, {3, 1, 24}, {3, 1, 24}, {1, 1, 24}, true}, devices);
  CheckRun({33, 20, 8, {5, 1, 16}, {3, 2, 40}, {1, 1, 72}, false}, devices);
  std::mt19937 rng(48);
  const auto draw = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  const auto layer = [&] { return Layer{2 * draw(0, 2) + 1, draw(1, 2), 8 * draw(1, 10)}; };
  for (int i = 0; i < 6; ++i) {
    RunShape s{draw(3, 36), draw(3, 36), 8 * draw(1, 6), layer(), layer(), layer(), false};
    s.residual = draw(0, 1) == 1;
    if (s.residual) {  // c back to a's size and channels
      s.b.stride = s.c.stride = 1;
      s.c.channels = s.a.channels;
    }
    CheckRun(s, devices);
  }
}

}  // namespace
}  // namespace opuc
