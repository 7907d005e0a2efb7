// Chained pairs on every device (codegen/chained_pairs.h; opu1024: tiny's
// array has no depthwise mode, its depthwise convs run on the CPU): a depthwise
// conv whose output only the 1x1 conv after it reads runs with it as one
// OPU step, the map kept in the feature-map buffer (Store.to_fm). Small
// float models of that shape (channels on and off the array's widths,
// strides 1 and 2, with and without a residual add), quantized and
// compiled with and without chaining, run on the reference, the functional
// simulator, the CPU executor and the Verilated RTL: every output bit for
// bit, and the same as the unchained program's.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>

#include "doubled_model.h"
#include "every_device.h"
#include "opuc/runtime/run_program.h"
#include "rtl.h"

namespace opuc {
namespace {

struct PairShape {
  int64_t h, w, ci, co, stride;
  bool residual;        // the 1x1's output plus the block's input (co == ci, stride 1)
  bool shared = false;  // a second op reads the depthwise output: not chained
};

Graph PairModel(const PairShape& s) {
  GraphBuilder b("pair");
  const TensorId x = b.Input("x", DType::kF32, {1, s.h, s.w, s.ci});
  Attributes dw_attrs;
  dw_attrs.Set("padding", std::string("same"));
  dw_attrs.Set("strides", std::vector<int64_t>{s.stride, s.stride});
  Attributes same;
  same.Set("padding", std::string("same"));
  const auto ci = static_cast<size_t>(s.ci), co = static_cast<size_t>(s.co);
  TensorId d = b.Op(OpKind::kDepthwiseConv2D, "dw",
                    {x, b.ConstantF32("dw/w", {1, 3, 3, s.ci}, test::Ramp(9 * ci, 0.05f, -0.3f)),
                     b.ConstantF32("dw/b", {s.ci}, test::Ramp(ci, 0.03f, -0.1f))},
                    dw_attrs);
  d = b.Op(OpKind::kRelu6, "dw/relu6", {d});
  TensorId p =
      b.Op(OpKind::kConv2D, "pw",
           {d, b.ConstantF32("pw/w", {s.co, 1, 1, s.ci}, test::Ramp(co * ci, 0.02f, -0.4f)),
            b.ConstantF32("pw/b", {s.co}, test::Ramp(co, 0.02f, -0.05f))},
           same);
  if (s.residual) p = b.Op(OpKind::kAdd, "add", {p, x});
  p = b.Op(OpKind::kRelu, "relu", {p});
  b.Output(p);
  if (s.shared) b.Output(b.Op(OpKind::kRelu, "other", {d}));
  return test::Finished(std::move(b));
}

int OpuSteps(const Program& program) {
  return static_cast<int>(
      std::count_if(program.steps().begin(), program.steps().end(),
                    [](const ProgramStep& step) { return step.kind == StepKind::kOpu; }));
}

// `s` compiled for `hw` chained wherever it may and never: both programs
// agree with the reference on `devices` bit for bit, and with each other.
void CheckChained(const std::string& hw, const PairShape& s,
                  const std::vector<std::unique_ptr<Device>>& devices) {
  CAPTURE(hw);
  CAPTURE(s.h);
  CAPTURE(s.w);
  CAPTURE(s.ci);
  CAPTURE(s.co);
  CAPTURE(s.stride);
  CAPTURE(s.residual);
  PlanOptions chained;  // chained whether or not the estimator finds it faster
  chained.chained_pairs = 2;
  chained.runs = false;  // the pair's step alone
  const test::SmallModel m = test::CompileSmallModel(hw, PairModel(s), chained);
  REQUIRE(test::CountTilings(m, "chained, the depthwise output on chip") == 1);
  const Program program = test::ReadAligned(m.Write(), "chained.opup");
  // Its step lists its two groups (version 13; 16 where its stride-2 Gemms
  // take two channel blocks).
  CHECK(program.version() >= kRunsVersion);
  PlanOptions unchained;
  unchained.chained_pairs = 1;
  unchained.runs = false;
  const test::SmallModel plain = test::CompileSmallModel(hw, PairModel(s), unchained);
  CHECK(test::CountTilings(plain, "chained") == 0);
  const Program plain_program = test::ReadAligned(plain.Write(), "plain.opup");
  CHECK(OpuSteps(program) + 1 == OpuSteps(plain_program));
  test::CheckAgree(program, devices, test::SeededInputs(m.graph(), 21));
  Expected<ProgramRun> a = RunProgram(program, *devices[0], test::SeededInputs(m.graph(), 22));
  Expected<ProgramRun> b =
      RunProgram(plain_program, *devices[0], test::SeededInputs(m.graph(), 22));
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  REQUIRE(a->outputs.size() == 1);
  CHECK(std::equal(a->outputs[0].raw(), a->outputs[0].raw() + a->outputs[0].bytes(),
                   b->outputs[0].raw(), b->outputs[0].raw() + b->outputs[0].bytes()));
}

TEST_CASE("rtl: a depthwise conv chained to its 1x1 agrees with the reference on every device") {
  const std::vector<std::unique_ptr<Device>> devices = test::EveryDevice();
  // One output block; part of a lane block, with a residual add; a lane
  // block and a part (two Stores a pixel); half the feature-map buffer
  // (64 x 64 x 24); stride 2. (Maps of Co / 2 channels or fewer read
  // doubled, two pixels an entry, are not chained.)
  for (const PairShape& s :
       {PairShape{12, 20, 16, 24, 1, false}, PairShape{9, 17, 24, 24, 1, true},
        PairShape{10, 14, 72, 40, 1, false}, PairShape{64, 64, 24, 24, 1, true},
        PairShape{17, 22, 40, 48, 2, false}})
    CheckChained("opu1024", s, devices);
  // Drawn: sizes, channels on and off the lanes, strides, residual adds.
  std::mt19937 rng(47);
  const auto draw = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  for (int i = 0; i < 8; ++i) {
    PairShape s{draw(3, 30), draw(3, 40), 8 * draw(2, 18), 8 * draw(1, 12), draw(1, 2), false};
    s.residual = s.stride == 1 && draw(0, 1) == 1;
    if (s.residual) s.co = s.ci;
    CheckChained("opu1024", s, devices);
  }
}

TEST_CASE("a depthwise output another op reads too is not chained, and the step says why") {
  PlanOptions chained;
  chained.chained_pairs = 2;
  const test::SmallModel m =
      test::CompileSmallModel("opu1024", PairModel({12, 20, 24, 24, 1, false, true}), chained);
  CHECK(test::CountTilings(m, "chained, the depthwise output on chip") == 0);
  CHECK(test::CountTilings(m, "not chained to group 2: group 3 reads the depthwise output too") ==
        1);
}

}  // namespace
}  // namespace opuc
