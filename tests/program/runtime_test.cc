// Running programs: on every device (ref, fsim, cpu) a program computes what the integer
// reference computes for the whole quantized graph, bit for bit (and each
// OPU step's estimated cycles lie between bounds from fsim's counters); verify
// agrees on a sound program and, on one whose instruction was changed,
// names the first step that diverges with the reference's value.
#include <doctest/doctest.h>

#include <cstring>
#include <string>
#include <vector>

#include "estimate_bounds.h"
#include "opuc/cpu_reference/reference.h"
#include "opuc/runtime/run_program.h"
#include "small_model.h"
#include "usage_check.h"

namespace opuc {
namespace {

Program Load(const std::vector<uint8_t>& bytes) {
  auto owner = std::make_shared<std::vector<uint8_t>>(bytes);
  Expected<Program> p = ReadProgram(owner, owner->data(), owner->size(), "small.opup");
  REQUIRE_MESSAGE(p.ok(), p.status().ToString());
  return std::move(p).value();
}

std::vector<std::unique_ptr<Device>> Devices() {
  std::vector<std::unique_ptr<Device>> devices;
  for (const std::string& name : DeviceNames()) devices.push_back(MakeDevice(name).value());
  return devices;
}

bool SameBytes(const HostTensor& a, const HostTensor& b) {
  return a.type() == b.type() && std::memcmp(a.raw(), b.raw(), a.bytes()) == 0;
}

/// Runs `program` on every device on `seed`'s inputs: each gives the integer
/// reference's outputs for the whole graph, bit for bit; `also(device,
/// run)` checks more.
template <typename Also>
void CheckEveryDevice(const Program& program, const Graph& graph, uint64_t seed, Also also) {
  const std::vector<HostTensor> expected =
      RunReference(graph, test::SeededInputs(graph, seed)).value();
  for (const std::string& name : DeviceNames()) {
    CAPTURE(name);
    std::unique_ptr<Device> device = MakeDevice(name).value();
    Expected<ProgramRun> run = RunProgram(program, *device, test::SeededInputs(graph, seed));
    REQUIRE_MESSAGE(run.ok(), run.status().ToString());
    REQUIRE(run->outputs.size() == expected.size());
    for (size_t i = 0; i < expected.size(); ++i) CHECK(SameBytes(run->outputs[i], expected[i]));
    also(name, *run);
  }
}

TEST_CASE("runtime: every device computes the whole graph's reference results") {
  for (const auto& [hw, normalized] :
       {std::pair{"tiny", false}, {"opu1024", false}, {"tiny", true}, {"opu1024", true}}) {
    CAPTURE(hw);
    CAPTURE(normalized);
    const test::SmallModel m = test::MakeSmallModel(hw, normalized);
    if (normalized) {  // the input's scale and shift: one OPU pass before conv1's
      std::vector<std::vector<std::string>> groups;  // the OPU groups' ops, by name
      for (const HwGroup& g : m.partition.groups) {
        if (g.kind != GroupKind::kOpu) continue;
        groups.emplace_back();
        for (NodeId op : g.ops) groups.back().push_back(m.graph().node(op).name);
      }
      REQUIRE(groups.size() > 1);
      CHECK(groups[0] == std::vector<std::string>{"scale", "shift"});
      CHECK(groups[1].at(0) == "conv1");
      for (size_t s = 0; s < m.partition.groups.size(); ++s)  // every OPU group compiled
        CHECK((m.partition.groups[s].kind == GroupKind::kOpu) ==
              (m.code.steps[s].kind == StepKind::kOpu));
    }
    const std::vector<uint8_t> bytes = m.Write();
    const Program program = Load(bytes);
    for (uint64_t seed : {11u, 12u}) {
      CAPTURE(seed);
      const std::vector<HostTensor> inputs = test::SeededInputs(m.graph(), seed);
      CheckEveryDevice(program, m.graph(), seed,
                       [&](const std::string& name, const ProgramRun& run) {
                         int64_t issues = 0;
                         for (const OpuCounters& c : run.counters) issues += c.gemm_issues;
                         CHECK((name == "fsim") == (issues > 0));  // only fsim has engines to count
                         if (name == "fsim") {
                           test::CheckEstimateBounds(program, run);
                           test::CheckUsageAgainstCounters(program, run);
                         }
                       });
      Expected<VerifyResult> verify = VerifyProgram(program, Devices(), inputs);
      REQUIRE(verify.ok());
      CHECK_FALSE(verify->divergence.has_value());
      CHECK(verify->steps_run == static_cast<int64_t>(program.steps().size()));
    }
  }
}

TEST_CASE("runtime: a conv reading a doubled map ignores its copies") {
  // The input of 8 channels feeds a 3x3 depthwise conv of Co/2 channels,
  // which reads it doubled (two output pixels an entry), and a 3x3 conv,
  // which would fold it alone but reads it as it is (a map is laid out
  // one way), its weights zero on the copies' lanes: every device gives the
  // reference's results for both.
  GraphBuilder b("conv_and_depthwise");
  const TensorId x = b.Input("x", DType::kF32, {1, 12, 12, 8});
  Attributes same;
  same.Set("padding", std::string("same"));
  b.Output(b.Op(OpKind::kConv2D, "conv",
                {x, b.ConstantF32("conv/w", {4, 3, 3, 8}, test::Ramp(288, 0.05f, -0.3f))}, same));
  b.Output(b.Op(OpKind::kDepthwiseConv2D, "dw",
                {x, b.ConstantF32("dw/w", {1, 3, 3, 8}, test::Ramp(72, 0.07f, -0.3f))}, same));
  const test::SmallModel m = test::CompileSmallModel("opu1024", std::move(b).Finish().value());
  const Program program = Load(m.Write());
  int doubled = 0, folded = 0;
  for (const ActivationLayout& a : program.activations()) {
    doubled += a.doubled;
    folded += a.fold.has_value();
  }
  CHECK(doubled == 1);  // x/int8, which the host writes
  CHECK(folded == 0);
  int paired = 0;
  for (const PlannedStep& step : m.code.steps)
    paired += step.tiling.find("two pixels an entry") != std::string::npos;
  CHECK(paired == 1);
  CheckEveryDevice(program, m.graph(), 3, [](const std::string&, const ProgramRun&) {});
}

TEST_CASE("runtime: a CPU group is one fused node of the program, run as one function") {
  const test::SmallModel m = test::MakeSmallModel("opu1024", false, /*cpu_tail=*/true);
  const Program program = Load(m.Write());
  const Graph& graph = program.graph();
  std::vector<std::string> fused;  // each CPU step's node: "op(body ops)"
  for (const ProgramStep& step : program.steps()) {
    if (step.kind != StepKind::kCpu) continue;
    for (NodeId n : step.nodes) {
      const Node& node = graph.node(n);
      if (!node.body) continue;
      std::string text = node.name + ":";
      for (const Node& op : node.body->nodes) text += " " + op.name;
      fused.push_back(text);
    }
  }
  // The quantizer ends the output in a dequantize, which joins the group.
  CHECK(fused == std::vector<std::string>{"square/dequantize: up square square/dequantize"});
  // Two nodes fewer in the graph written, and no tensor between the three ops.
  CHECK(graph.nodes.size() + 2 == m.graph().nodes.size());
  CHECK(graph.tensors.size() + 2 == m.graph().tensors.size());
  for (uint64_t seed : {21u, 22u}) {
    CAPTURE(seed);
    CheckEveryDevice(program, m.graph(), seed, [](const std::string&, const ProgramRun&) {});
  }
}

TEST_CASE("runtime: verify names the first step whose result changed") {
  test::SmallModel m = test::MakeSmallModel("tiny");
  // The last OPU step's output stage now clamps everything to its lowest value.
  PlannedStep& last = *m.OpuSteps().back();
  size_t at = 0;
  while (!std::holds_alternative<isa::OutputInsn>(isa::Decode(last.words[at]).value())) ++at;
  auto output = std::get<isa::OutputInsn>(isa::Decode(last.words[at]).value());
  output.hi = output.lo;
  last.words[at] = isa::Encode(output).value();
  const Program program = Load(m.Write());
  size_t step = 0;
  while (program.steps()[step].group != last.group) ++step;

  const std::vector<HostTensor> inputs = test::SeededInputs(m.graph(), 5);
  Expected<VerifyResult> verify = VerifyProgram(program, Devices(), inputs);
  REQUIRE_MESSAGE(verify.ok(), verify.status().ToString());
  REQUIRE(verify->divergence.has_value());
  const Divergence& d = *verify->divergence;
  CHECK(d.step == step);
  CHECK(d.group == last.group);
  CHECK(d.devices[0] == "ref");
  CHECK(d.devices[1] == "fsim");
  CHECK(d.differing > 0);
  // What the reference computes for that tensor, from the whole graph.
  const TensorId tensor = program.steps()[step].outputs[0];
  CHECK(d.tensor == tensor);
  HostTensor reference;
  REQUIRE(RunReference(m.graph(), inputs, [&](TensorId t, const HostTensor& v) -> Status {
            if (t == tensor)
              reference = HostTensor::Copy(v.dtype(), v.shape(), v.raw(), v.bytes()).value();
            return OkStatus();
          }).ok());
  REQUIRE(reference.elements() > d.element);
  const double want = reference.dtype() == DType::kU8    ? reference.data<uint8_t>()[d.element]
                      : reference.dtype() == DType::kI16 ? reference.data<int16_t>()[d.element]
                                                         : reference.data<int8_t>()[d.element];
  CHECK(d.values[0] == want);
  CHECK(d.values[1] != want);
  int64_t flat = 0;
  for (size_t k = 0; k < d.index.size(); ++k) flat = flat * reference.shape()[k] + d.index[k];
  CHECK(flat == d.element);
}

TEST_CASE("runtime: errors name what is wrong") {
  const test::SmallModel m = test::MakeSmallModel("tiny");
  const Program program = Load(m.Write());
  std::unique_ptr<Device> fsim = MakeDevice("fsim").value();
  CHECK(MakeDevice("gpu").status().message() ==
        "device 'gpu' is unknown (devices: ref, fsim, cpu)");
  Expected<ProgramRun> none = RunProgram(program, *fsim, {});
  CHECK(none.status().message() == "the program's graph 'small' has 1 inputs; given 0");
  std::vector<HostTensor> wrong;
  wrong.push_back(HostTensor::Zeros(DType::kF32, {1, 10, 10, 4}).value());
  CHECK(RunProgram(program, *fsim, std::move(wrong)).status().message() ==
        "input 0 'image' is f32[1,10,10,4]; the program expects f32[1,10,10,3]");
  std::vector<std::unique_ptr<Device>> one;
  one.push_back(MakeDevice("ref").value());
  CHECK(VerifyProgram(program, one, test::SeededInputs(m.graph(), 1)).status().message() ==
        "verify needs at least two devices; given 1");
}

}  // namespace
}  // namespace opuc
