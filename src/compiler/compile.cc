//===- src/compiler/compile.cc - A model to a .opup program ---------------===//
#include "opuc/compiler/compile.h"

#include <future>
#include <system_error>

#include "opuc/codegen/codegen.h"
#include "opuc/compiler/write_program.h"
#include "opuc/partition/hw_partition.h"
#include "opuc/pass/pass_context.h"
#include "opuc/pass/registry.h"
#include "opuc/version.h"
#include "support/format.h"
#include "support/sha256.h"

namespace opuc {
namespace {

const char* PrecisionName(Precision p) {
  switch (p) {
    case Precision::kInt8: return "int8";
    case Precision::kMixed: return "mixed";
    case Precision::kInt16: return "int16";
  }
  return "int8";
}

Status RunPasses(Graph& graph, const CompileOptions& options) {
  OPUC_ASSIGN_OR_RETURN(std::unique_ptr<Sequential> pipeline,
                        CreatePipeline(DefaultPipelineNames()));
  PassContext ctx;
  ctx.opt_level = options.opt_level;
  ctx.disabled_passes = options.disabled_passes;
  OPUC_RETURN_IF_ERROR(ctx.Validate());
  PassCounters counters;
  return pipeline->Run(graph, ctx, counters).status();
}

CompileReport Report(const Graph& graph, const HwPartition& partition, const StepPlan& plan) {
  CompileReport report;
  report.total_macs = partition.total_macs;
  for (size_t s = 0; s < partition.groups.size(); ++s) {
    const HwGroup& group = partition.groups[s];
    const PlannedStep& step = plan.steps[s];  // WriteProgram checked they pair
    GroupReport r;
    r.group = group.id;
    r.opu_group = group.kind == GroupKind::kOpu;
    r.macs = group.macs;
    for (NodeId n : group.ops) {
      const std::string& name = graph.node(n).name;
      r.ops.push_back(name.empty() ? Cat("#", n) : name);
    }
    r.step = step.kind;
    if (step.chained_into >= 0) {  // its cycles are counted with the next group's step
      r.tiling = Cat("in group ", step.chained_into, "'s step: ", step.tiling);
      r.in_step_of = step.chained_into;
      report.opu_macs += group.macs;
    } else if (step.kind == StepKind::kOpu) {
      r.words = static_cast<int64_t>(step.words.size());
      r.estimated_cycles = step.estimated_cycles;
      r.tiling = step.tiling;
      ++report.opu_steps;
      report.opu_macs += group.macs;
      report.estimated_cycles += r.estimated_cycles;
    } else {
      r.reason = step.reason;
      ++report.cpu_steps;
    }
    report.groups.push_back(std::move(r));
  }
  return report;
}

}  // namespace

Expected<CompiledModel> CompileModel(Graph model,
                                     const std::vector<std::vector<HostTensor>>& calibration,
                                     const HwConfig& hw, CompileOptions options,
                                     const CompileProgress& progress) {
  auto stage = [&](std::string_view name) {
    if (progress) progress(name);
  };
  AlignedBytes& source = options.source;
  std::future<std::string> hash;
  if (options.source_sha256.empty() && source.data() && options.quantize.threads != 1) {
    try {
      hash = std::async(std::launch::async, [bytes = source]() mutable {
        std::string hex = Sha256Hex(bytes.data(), bytes.size);
        bytes = AlignedBytes();  // let go now, not when the result is read
        return hex;
      });
      source = AlignedBytes();            // the hash holds the file now
    } catch (const std::system_error&) {  // no thread to be had: hashed in line below
    }
  }
  stage("passes");
  OPUC_RETURN_IF_ERROR(RunPasses(model, options).WithContext("passes"));
  stage("quantize");
  // What an i16 costs is the hardware's: one pass or two in the array.
  options.quantize.i16_in_one_pass = FeatureMapPairs(hw);
  Expected<QuantizedGraph> quantized = Quantize(model, calibration, options.quantize);
  if (!quantized.ok()) return quantized.status().WithContext("quantize");
  const Graph& graph = quantized->graph;
  stage("partition");
  Expected<HwPartition> partition = PartitionForHardware(graph, hw);
  if (!partition.ok()) return partition.status().WithContext("partition");
  stage("codegen");
  Expected<StepPlan> plan = PlanSteps(graph, *partition, hw, options.plan);
  if (!plan.ok()) return plan.status().WithContext("codegen");
  stage("program");
  ProgramBuild build;
  build.compiler = std::string("opuc ") + OPUC_VERSION;
  build.opt_level = options.opt_level;
  build.disabled_passes = options.disabled_passes;
  build.precision = PrecisionName(options.quantize.precision);
  build.source_name = options.source_name;
  build.source_sha256 = !options.source_sha256.empty() ? options.source_sha256
                        : hash.valid()                 ? hash.get()
                        : source.data()                ? Sha256Hex(source.data(), source.size)
                                                       : std::string();
  CompiledModel compiled;
  Expected<std::vector<uint8_t>> bytes = WriteProgram(graph, *partition, *plan, hw, build);
  if (!bytes.ok()) return bytes.status().WithContext("program");
  compiled.program = std::move(bytes).value();
  compiled.report = Report(graph, *partition, *plan);
  compiled.report.quantize = quantized->report;
  compiled.report.constant_bytes = static_cast<int64_t>(plan->constants.size());
  compiled.report.dram_bytes = plan->dram_bytes;
  compiled.report.program_bytes = static_cast<int64_t>(compiled.program.size());
  return compiled;
}

}  // namespace opuc
