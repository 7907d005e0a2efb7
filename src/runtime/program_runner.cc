//===- src/runtime/program_runner.cc - A program's steps on one device ----===//
#include <limits>

#include "opuc/cpu/executor.h"
#include "opuc/runtime/run_program.h"
#include "opuc/tensor_io/allocation_limit.h"
#include "run_nodes.h"
#include "support/format.h"

namespace opuc {
namespace {

constexpr size_t kKeep = std::numeric_limits<size_t>::max();

std::string StepName(size_t index, const ProgramStep& step) {
  return Cat("step ", index, " (", step.kind == StepKind::kOpu ? "OPU" : "CPU", ", group ",
             step.group, ")");
}

}  // namespace

ProgramRunner::ProgramRunner(const Program& program, Device& device)
    : program_(&program), device_(&device) {}

Expected<ProgramRunner> ProgramRunner::Start(const Program& program, Device& device,
                                             std::vector<HostTensor> inputs) {
  const Graph& graph = program.graph();
  if (inputs.size() != graph.inputs.size())
    return InvalidArgument(Cat("the program's graph '", graph.name, "' has ", graph.inputs.size(),
                               " inputs; given ", inputs.size()));
  ProgramRunner runner(program, device);
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Tensor& t = graph.tensor(graph.inputs[i]);
    if (!(inputs[i].type() == t.type()))
      return InvalidArgument(Cat("input ", i, " '", t.name, "' is ", DescribeType(inputs[i]),
                                 "; the program expects ", DTypeName(t.dtype),
                                 ShapeToString(t.shape)));
    runner.values_.insert_or_assign(graph.inputs[i], std::move(inputs[i]));
  }
  runner.last_read_.assign(graph.tensors.size(), 0);
  runner.in_dram_.assign(graph.tensors.size(), false);
  const std::vector<ProgramStep>& steps = program.steps();
  for (size_t s = 0; s < steps.size(); ++s) {
    for (TensorId t : steps[s].outputs) runner.last_read_[static_cast<size_t>(t)] = s;
    for (TensorId t : steps[s].inputs) runner.last_read_[static_cast<size_t>(t)] = s;
    for (NodeId n : steps[s].nodes)
      for (TensorId t : graph.node(n).inputs)
        if (t != kNoTensor) runner.last_read_[static_cast<size_t>(t)] = s;
  }
  for (TensorId t : graph.outputs) runner.last_read_[static_cast<size_t>(t)] = kKeep;
  OPUC_RETURN_IF_ERROR(
      CheckAllocation(static_cast<uint64_t>(program.dram_bytes()), "the program's DRAM image"));
  runner.dram_ = program.DramImage();
  runner.counters_.resize(steps.size());
  return runner;
}

Status ProgramRunner::RunOpu(const ProgramStep& step) {
  const Graph& graph = program_->graph();
  for (TensorId t : step.inputs) {
    if (in_dram_[static_cast<size_t>(t)]) continue;  // as an OPU step left it
    const auto it = values_.find(t);
    if (it == values_.end())
      return InvalidArgument(
          Cat(DescribeTensor(graph, t), " has no value (no earlier step made it)"));
    OPUC_RETURN_IF_ERROR(WriteActivation(*program_->Find(t), it->second, dram_));
  }
  OPUC_RETURN_IF_ERROR(device_->RunOpuStep(*program_, step, dram_, &counters_[next_]));
  for (TensorId t : step.outputs) {
    OPUC_ASSIGN_OR_RETURN(HostTensor v,
                          ReadActivation(*program_->Find(t), graph.tensor(t).shape, dram_));
    values_.insert_or_assign(t, std::move(v));
    in_dram_[static_cast<size_t>(t)] = true;
  }
  return OkStatus();
}

Status ProgramRunner::Step() {
  if (done()) return InternalError("the program has run to its end");
  const ProgramStep& step = program_->steps()[next_];
  const Status run = step.kind == StepKind::kOpu
                         ? RunOpu(step)
                         : RunNodes(program_->graph(), step.nodes, values_, &EvaluateNodeOnCpu);
  if (!run.ok()) return run.WithContext(Cat(StepName(next_, step), " on ", device_->name()));
  // Values last read before this step go; this step's outputs stay one step
  // longer, so that VerifyProgram can compare them.
  for (auto it = values_.begin(); it != values_.end();)
    it = last_read_[static_cast<size_t>(it->first)] < next_ ? values_.erase(it) : std::next(it);
  ++next_;
  return OkStatus();
}

const HostTensor* ProgramRunner::Value(TensorId tensor) const {
  const auto it = values_.find(tensor);
  return it == values_.end() ? nullptr : &it->second;
}

Expected<std::vector<HostTensor>> ProgramRunner::Outputs() const {
  std::vector<HostTensor> outputs;
  for (TensorId t : program_->graph().outputs) {
    const HostTensor* v = Value(t);
    if (v == nullptr)
      return InternalError(
          Cat("graph output ", DescribeTensor(program_->graph(), t), " was not computed"));
    OPUC_ASSIGN_OR_RETURN(HostTensor copy,
                          HostTensor::Copy(v->dtype(), v->shape(), v->raw(), v->bytes()));
    outputs.push_back(std::move(copy));
  }
  return outputs;
}

Expected<ProgramRun> RunProgram(const Program& program, Device& device,
                                std::vector<HostTensor> inputs) {
  OPUC_ASSIGN_OR_RETURN(ProgramRunner runner,
                        ProgramRunner::Start(program, device, std::move(inputs)));
  while (!runner.done()) OPUC_RETURN_IF_ERROR(runner.Step());
  ProgramRun run;
  OPUC_ASSIGN_OR_RETURN(run.outputs, runner.Outputs());
  run.counters = runner.counters();
  return run;
}

}  // namespace opuc
