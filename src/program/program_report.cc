//===- src/program/program_report.cc - What each step of a program does ---===//
#include "opuc/program/program_report.h"

#include "opuc/ir/macs.h"
#include "opuc/ir/op_kind.h"
#include "support/format.h"

namespace opuc {

double ProgramReport::Efficiency(int64_t macs, int64_t cycles) const {
  if (cycles <= 0 || array_macs_per_cycle <= 0) return 0.0;
  return static_cast<double>(macs) /
         (static_cast<double>(cycles) * static_cast<double>(array_macs_per_cycle));
}

int64_t ProgramReport::Cycles(const StepReport& step) const {
  return step.measured_cycles.value_or(step.estimated_cycles);
}

ClassTotals ProgramReport::Totals(LayerClass layer_class) const {
  ClassTotals totals;
  for (const StepReport& s : steps) {
    if (s.kind != StepKind::kOpu) continue;
    for (const StepPart& p : s.parts) {
      if (p.layer_class != layer_class) continue;
      ++totals.steps;
      totals.macs += p.macs;
      totals.cycles += p.measured_cycles.value_or(p.estimated_cycles);
      totals.mapping_bound_cycles += p.mapping.cycles();
      totals.gemm_cycles += p.mapping.gemm_cycles;
      totals.physical.Add(p.physical);
    }
    if (!s.parts.empty() || s.layer_class != layer_class) continue;
    ++totals.steps;
    totals.macs += s.macs;
    totals.cycles += Cycles(s);
    totals.mapping_bound_cycles += s.mapping.cycles();
    totals.gemm_cycles += s.mapping.gemm_cycles;
    totals.physical.Add(s.physical);
  }
  return totals;
}

double ProgramReport::Ratio(int64_t cycles, int64_t bound) {
  return bound > 0 ? static_cast<double>(cycles) / static_cast<double>(bound) : 0.0;
}

double ProgramReport::Milliseconds(int64_t cycles) const {
  return clock_mhz > 0 ? static_cast<double>(cycles) / (clock_mhz * 1000.0) : 0.0;
}

Expected<ProgramReport> ReportProgram(const Program& program,
                                      const std::vector<OpuCounters>* measured) {
  const std::vector<ProgramStep>& steps = program.steps();
  if (measured != nullptr && measured->size() != steps.size())
    return InvalidArgument(Cat("the measured counters cover ", measured->size(),
                               " steps; the program has ", steps.size()));
  const Graph& graph = program.graph();
  ProgramReport report;
  report.array_macs_per_cycle =
      program.hw().array.input_channels * program.hw().array.output_channels;
  report.clock_mhz = program.hw().array.clock_mhz;
  report.buffers = BufferUnits(program.hw());
  const PhysicalLimit limit(graph, program.hw());
  int64_t measured_cycles = 0, measured_steps = 0;
  for (size_t s = 0; s < steps.size(); ++s) {
    const ProgramStep& step = steps[s];
    StepReport r;
    r.step = s;
    r.kind = step.kind;
    r.group = step.group;
    for (NodeId n : step.nodes) {
      const Node& node = graph.node(n);
      if (node.body)  // a fused function: the ops it runs
        for (const Node& op : node.body->nodes) r.ops.emplace_back(OpName(op.op));
      else
        r.ops.emplace_back(OpName(node.op));
      r.macs += NodeMacs(graph, n);
    }
    if (!step.outputs.empty()) r.output = graph.tensor(step.outputs.front()).name;
    if (step.kind == StepKind::kCpu) {
      r.reason = step.reason;
      ++report.cpu_steps;
      report.cpu_macs += r.macs;
      report.steps.push_back(std::move(r));
      continue;
    }
    r.estimated_cycles = step.estimated_cycles;
    r.tiling = step.tiling;
    Expected<StepUsage> usage = UsageOfStep(program, step);
    if (!usage.ok()) return usage.status().WithContext(Cat("step ", s));
    r.usage = *usage;
    // A step of several groups: each group's bounds, summed (what the
    // groups would take one after another at best).
    const std::vector<ProgramStep> parts = StepParts(program, step);
    for (size_t k = 0; k < parts.size(); ++k) {
      const ProgramStep& part = parts[k];
      Expected<StepUsage> part_usage = UsageOfStep(program, part);
      if (!part_usage.ok()) return part_usage.status().WithContext(Cat("step ", s));
      Expected<MappingBound> mapping = MappingBoundOfStep(program, part, *part_usage);
      if (!mapping.ok()) return mapping.status().WithContext(Cat("step ", s));
      r.mapping.Add(*mapping);
      LayerClass cls = LayerClass::kOther;
      const PhysicalBound physical = limit.Bound(part.nodes, &cls);
      if (physical.compute_cycles > r.physical.compute_cycles || r.physical.macs == 0)
        r.layer_class = cls;
      r.physical.Add(physical);
      if (parts.size() < 2) continue;
      StepPart& p = r.parts.emplace_back();
      p.group = part.group;
      for (NodeId n : part.nodes) p.macs += NodeMacs(graph, n);
      p.estimated_cycles = part.estimated_cycles;
      if (measured != nullptr && k < (*measured)[s].group_cycles.size())
        p.measured_cycles = (*measured)[s].group_cycles[k];
      p.physical = physical;
      p.layer_class = cls;
      p.mapping = *mapping;
      p.tiling = part.tiling;
    }
    report.mapping_bound_cycles += r.mapping.cycles();
    report.physical.Add(r.physical);
    if (measured != nullptr && (*measured)[s].cycles > 0) {
      r.measured_cycles = (*measured)[s].cycles;
      measured_cycles += *r.measured_cycles;
      ++measured_steps;
    }
    ++report.opu_steps;
    report.opu_macs += r.macs;
    report.estimated_cycles += r.estimated_cycles;
    report.bytes_loaded += r.usage.bytes_loaded;
    report.bytes_stored += r.usage.bytes_stored;
    report.steps.push_back(std::move(r));
  }
  if (measured_steps > 0 && measured_steps == report.opu_steps)
    report.measured_cycles = measured_cycles;
  return report;
}

}  // namespace opuc
