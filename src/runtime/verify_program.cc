//===- src/runtime/verify_program.cc - Devices in lockstep ----------------===//
//
// Every device runs the same step, then each step output is compared with
// the first device's, byte for byte. Running in lockstep (rather than each
// device to the end) finds the first divergence without keeping every
// intermediate value of a whole run.
//
//===----------------------------------------------------------------------===//
#include <cstring>

#include "opuc/runtime/run_program.h"
#include "support/format.h"

namespace opuc {
namespace {

bool SameBytes(const HostTensor& a, const HostTensor& b) {
  return a.type() == b.type() && std::memcmp(a.raw(), b.raw(), a.bytes()) == 0;
}

/// The first differing element of two tensors of one type.
Divergence Compare(const HostTensor& a, const HostTensor& b) {
  Divergence d;
  const auto size = static_cast<int64_t>(DTypeSize(a.dtype()));
  bool first = true;
  for (int64_t i = 0; i < a.elements(); ++i) {
    if (std::memcmp(a.raw() + i * size, b.raw() + i * size, static_cast<size_t>(size)) == 0)
      continue;
    ++d.differing;
    if (!first) continue;
    first = false;
    d.element = i;
    d.values[0] = a.ValueAt(i);
    d.values[1] = b.ValueAt(i);
    d.index.assign(a.shape().size(), 0);
    for (size_t k = a.shape().size(), rest = static_cast<size_t>(i); k-- > 0;) {
      const auto extent = static_cast<size_t>(a.shape()[k]);
      d.index[k] = static_cast<int64_t>(rest % extent);
      rest /= extent;
    }
  }
  return d;
}

}  // namespace

Expected<VerifyResult> VerifyProgram(const Program& program,
                                     const std::vector<std::unique_ptr<Device>>& devices,
                                     const std::vector<HostTensor>& inputs) {
  if (devices.size() < 2)
    return InvalidArgument(Cat("verify needs at least two devices; given ", devices.size()));
  std::vector<ProgramRunner> runners;
  for (const auto& device : devices) {
    std::vector<HostTensor> copies;
    for (const HostTensor& t : inputs) {
      OPUC_ASSIGN_OR_RETURN(HostTensor copy,
                            HostTensor::Copy(t.dtype(), t.shape(), t.raw(), t.bytes()));
      copies.push_back(std::move(copy));
    }
    OPUC_ASSIGN_OR_RETURN(ProgramRunner runner,
                          ProgramRunner::Start(program, *device, std::move(copies)));
    runners.push_back(std::move(runner));
  }
  VerifyResult result;
  const Graph& graph = program.graph();
  while (!runners[0].done()) {
    const size_t index = runners[0].next_step();
    const ProgramStep& step = program.steps()[index];
    for (ProgramRunner& runner : runners) OPUC_RETURN_IF_ERROR(runner.Step());
    ++result.steps_run;
    for (TensorId t : step.outputs) {
      const HostTensor* expected = runners[0].Value(t);
      if (expected == nullptr)
        return InternalError(Cat("step ", index, ": ", DescribeTensor(graph, t), " is missing"));
      ++result.tensors_compared;
      for (size_t k = 1; k < runners.size(); ++k) {
        const HostTensor* got = runners[k].Value(t);
        if (got != nullptr && SameBytes(*expected, *got)) continue;
        if (got == nullptr || !(got->type() == expected->type()))
          return InternalError(Cat("step ", index, ": ", DescribeTensor(graph, t), " on ",
                                   devices[k]->name(), " is missing or of another type"));
        Divergence d = Compare(*expected, *got);
        d.step = index;
        d.group = step.group;
        d.tensor = t;
        d.devices[0] = std::string(devices[0]->name());
        d.devices[1] = std::string(devices[k]->name());
        result.divergence = std::move(d);
        return result;
      }
    }
  }
  return result;
}

}  // namespace opuc
