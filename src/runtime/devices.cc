//===- src/runtime/devices.cc - The ref, cpu and fsim devices -------------===//
#include "opuc/cpu/executor.h"
#include "opuc/fsim/fsim.h"
#include "opuc/runtime/device.h"
#include "run_nodes.h"
#include "support/format.h"

namespace opuc {
namespace {

/// The step's graph nodes on a CPU executor: on the integer reference
/// ("ref": what the OPU must compute) or on the CPU executor ("cpu", which
/// computes the same bits faster).
template <NodeEvaluator kEvaluate>
class NodesDevice final : public Device {
 public:
  std::string_view name() const override { return kEvaluate == &EvaluateNode ? "ref" : "cpu"; }
  Status RunOpuStep(const Program& program, const ProgramStep& step, std::vector<uint8_t>& dram,
                    OpuCounters* counters) override {
    if (counters) *counters = OpuCounters();
    const Graph& graph = program.graph();
    std::map<TensorId, HostTensor> values;
    for (TensorId t : step.inputs) {
      OPUC_ASSIGN_OR_RETURN(HostTensor v,
                            ReadActivation(*program.Find(t), graph.tensor(t).shape, dram));
      values.emplace(t, std::move(v));
    }
    OPUC_RETURN_IF_ERROR(RunNodes(graph, step.nodes, values, kEvaluate));
    for (TensorId t : step.outputs) {
      const auto it = values.find(t);
      if (it == values.end())
        return InternalError(Cat(DescribeTensor(graph, t), " was not computed by the step"));
      OPUC_RETURN_IF_ERROR(WriteActivation(*program.Find(t), it->second, dram));
    }
    return OkStatus();
  }
};

/// The step's instruction words on the functional simulator.
class FsimDevice final : public Device {
 public:
  std::string_view name() const override { return "fsim"; }
  Status RunOpuStep(const Program& program, const ProgramStep& step, std::vector<uint8_t>& dram,
                    OpuCounters* counters) override {
    return RunFunctionalSim(program.hw(), step.Words(), dram, counters);
  }
};

struct Registered {
  std::string name;
  DeviceFactory make;
};

template <class D>
Expected<std::unique_ptr<Device>> MakeUntraced(const DeviceOptions& options) {
  std::unique_ptr<Device> device = std::make_unique<D>();
  if (!options.trace_path.empty())
    return InvalidArgument(
        Cat("--trace: device '", device->name(), "' has no signals to trace (rtl has)"));
  return device;
}

std::vector<Registered>& Registry() {
  static std::vector<Registered> devices = {
      {"ref", &MakeUntraced<NodesDevice<&EvaluateNode>>},
      {"fsim", &MakeUntraced<FsimDevice>},
      {"cpu", &MakeUntraced<NodesDevice<&EvaluateNodeOnCpu>>}};
  return devices;
}

}  // namespace

void RegisterDevice(std::string name, DeviceFactory factory) {
  for (Registered& r : Registry()) {
    if (r.name != name) continue;
    r.make = std::move(factory);
    return;
  }
  Registry().push_back({std::move(name), std::move(factory)});
}

std::vector<std::string> DeviceNames() {
  std::vector<std::string> names;
  for (const Registered& r : Registry()) names.push_back(r.name);
  return names;
}

Expected<std::unique_ptr<Device>> MakeDevice(std::string_view name, const DeviceOptions& options) {
  for (const Registered& r : Registry())
    if (r.name == name) return r.make(options);
  std::string known;
  for (const Registered& r : Registry()) known += Cat(known.empty() ? "" : ", ", r.name);
  return InvalidArgument(Cat("device '", name, "' is unknown (devices: ", known, ")"));
}

}  // namespace opuc
