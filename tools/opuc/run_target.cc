//===- tools/opuc/run_target.cc - A model or a program, run on a device ---===//
#include "opuc/run_target.h"

#include "opuc/cpu/executor.h"
#include "opuc/cpu_reference/reference.h"
#include "opuc/fusion/fuse_mutator.h"
#include "opuc/runtime/run_program.h"

namespace opuc::cli {
namespace {

/// The CPU's compile: FuseOps makes TVM's groups into functions, which the
/// executor runs as one kernel where it has one (docs/cpu-executor.md).
Expected<std::vector<HostTensor>> RunFusedOnCpu(const Graph& model,
                                                const std::vector<HostTensor>& inputs) {
  Graph graph = model;  // constants are shared, not copied
  OPUC_RETURN_IF_ERROR(FuseOps(graph, FuseOptions{}).status().WithContext("FuseOps"));
  return RunCpu(graph, inputs);
}

}  // namespace

Expected<RunTarget> LoadRunTarget(const std::string& path) {
  RunTarget target;
  target.path = path;
  if (IsProgramPath(path)) {
    OPUC_ASSIGN_OR_RETURN(target.program, LoadProgramFile(path));
  } else {
    OPUC_ASSIGN_OR_RETURN(target.model, LoadModel(path));
  }
  return target;
}

Expected<TargetRun> RunOn(const RunTarget& target, const std::string& device,
                          std::vector<HostTensor> inputs, const std::string& trace,
                          const std::vector<size_t>& trace_steps) {
  TargetRun ran;
  if (target.program) {
    DeviceOptions options;
    options.trace_path = trace;
    options.trace_steps = trace_steps;
    OPUC_ASSIGN_OR_RETURN(std::unique_ptr<Device> opu, MakeDevice(device, options));
    Expected<ProgramRun> run = RunProgram(*target.program, *opu, std::move(inputs));
    if (!run.ok()) return run.status().WithContext(target.path);
    ran.outputs = std::move(run->outputs);
    ran.counters = std::move(run->counters);
    return ran;
  }
  if (!trace.empty())
    return InvalidArgument(
        "--trace: a model runs on ref, which has no signals to trace; compile it (opuc compile) "
        "and run the program with --device rtl");
  if (device != "ref" && device != "cpu")
    return InvalidArgument("--device " + device +
                           ": a model runs on ref (the reference executor) or cpu (the CPU "
                           "executor); compile it (opuc compile) to run it on " +
                           device);
  Expected<std::vector<HostTensor>> outputs = device == "cpu"
                                                  ? RunFusedOnCpu(target.model->graph, inputs)
                                                  : RunReference(target.model->graph, inputs);
  if (!outputs.ok()) return outputs.status().WithContext(target.path);
  ran.outputs = std::move(outputs).value();
  return ran;
}

}  // namespace opuc::cli
