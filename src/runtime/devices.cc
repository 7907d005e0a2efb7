//===- src/runtime/devices.cc - The reference and fsim devices ------------===//
#include "opuc/opu/fsim.h"
#include "opuc/runtime/device.h"
#include "run_nodes.h"
#include "support/format.h"

namespace opuc {
namespace {

/// The step's graph nodes on the integer reference: what the OPU must compute.
class ReferenceDevice final : public Device {
 public:
  std::string_view name() const override { return "ref"; }
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
    OPUC_RETURN_IF_ERROR(RunNodes(graph, step.nodes, values));
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

}  // namespace

std::vector<std::string> DeviceNames() { return {"ref", "fsim"}; }

Expected<std::unique_ptr<Device>> MakeDevice(std::string_view name) {
  if (name == "ref") return std::unique_ptr<Device>(std::make_unique<ReferenceDevice>());
  if (name == "fsim") return std::unique_ptr<Device>(std::make_unique<FsimDevice>());
  return InvalidArgument(Cat("device '", name, "' is unknown (devices: ref, fsim)"));
}

}  // namespace opuc
