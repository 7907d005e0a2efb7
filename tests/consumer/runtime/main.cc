//===- tests/consumer/runtime/main.cc - Firmware's use of the runtime -----===//
//
// Loads the .opup named on the command line and runs it, from seeded random
// inputs, on the functional simulator and on the CPU executor; both must give
// the same outputs bit for bit, and ref, fsim and cpu must agree on every
// step's results. It includes and links the runtime alone: nothing of the
// compiler. Exit 0 when everything holds.
//
//===----------------------------------------------------------------------===//
#include <opuc/program/program.h>
#include <opuc/runtime/device.h>
#include <opuc/runtime/run_program.h>
#include <opuc/tensor_io/random_input.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace {

int Fail(const std::string& what, const opuc::Status& status) {
  std::fprintf(stderr, "runtime_consumer: %s: %s\n", what.c_str(), status.ToString().c_str());
  return 1;
}

bool SameBytes(const opuc::HostTensor& a, const opuc::HostTensor& b) {
  return a.dtype() == b.dtype() && a.shape() == b.shape() && a.bytes() == b.bytes() &&
         std::memcmp(a.raw(), b.raw(), a.bytes()) == 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: runtime_consumer <program.opup>\n");
    return 2;
  }
  opuc::Expected<opuc::Program> program = opuc::LoadProgramFile(argv[1]);
  if (!program.ok()) return Fail("loading", program.status());
  opuc::Expected<std::vector<opuc::HostTensor>> inputs = opuc::RandomInputs(program->graph(), 7);
  if (!inputs.ok()) return Fail("making inputs", inputs.status());

  std::vector<std::vector<opuc::HostTensor>> outputs;
  std::vector<std::unique_ptr<opuc::Device>> devices;
  for (const char* name : {"fsim", "cpu"}) {
    opuc::Expected<std::unique_ptr<opuc::Device>> device = opuc::MakeDevice(name);
    if (!device.ok()) return Fail(name, device.status());
    opuc::Expected<opuc::ProgramRun> run = opuc::RunProgram(*program, **device, *inputs);
    if (!run.ok()) return Fail(std::string("running on ") + name, run.status());
    outputs.push_back(std::move(run->outputs));
    devices.push_back(std::move(device).value());
  }
  for (size_t o = 0; o < outputs[0].size(); ++o) {
    if (!SameBytes(outputs[0][o], outputs[1][o])) {
      std::fprintf(stderr, "runtime_consumer: output %zu differs between fsim and cpu\n", o);
      return 1;
    }
  }
  opuc::Expected<std::unique_ptr<opuc::Device>> ref = opuc::MakeDevice("ref");
  if (!ref.ok()) return Fail("ref", ref.status());
  devices.insert(devices.begin(), std::move(ref).value());
  opuc::Expected<opuc::VerifyResult> verified = opuc::VerifyProgram(*program, devices, *inputs);
  if (!verified.ok()) return Fail("verifying", verified.status());
  if (verified->divergence) {
    std::fprintf(stderr, "runtime_consumer: %s and %s differ at step %zu\n",
                 verified->divergence->devices[0].c_str(), verified->divergence->devices[1].c_str(),
                 verified->divergence->step);
    return 1;
  }
  size_t opu_steps = 0;
  for (const opuc::ProgramStep& step : program->steps())
    opu_steps += step.kind == opuc::StepKind::kOpu ? 1 : 0;
  std::printf(
      "runtime_consumer: %s: %zu steps (%zu on the OPU), fsim = cpu on %zu outputs, "
      "ref, fsim and cpu agree on %lld tensors\n",
      argv[1], program->steps().size(), opu_steps, outputs[0].size(),
      static_cast<long long>(verified->tensors_compared));
  return 0;
}
