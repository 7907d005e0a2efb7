//===- src/compiler/write_program.cc - A compiled model to .opup ----------===//
//
// One step per planned step, which is one per partition group in the
// partition's order (producers first).
// The graph goes in as a .opug (the same bytes WriteOpug makes), so the
// program carries the definition of every step's results with it; each CPU
// group of two or more ops is one `fused` node there (FuseCpuFunctions), so
// the host runs it as one function. Steps and activations name the nodes
// and tensors of that graph.
//
//===----------------------------------------------------------------------===//
#include "opuc/compiler/write_program.h"

#include <algorithm>
#include <optional>
#include <set>

#include "opuc/opug/opug.h"
#include "opup_generated.h"
#include "support/format.h"
#include "support/vector_allocator.h"

namespace opuc {
namespace {

namespace fb = ::opuc::opup;
using flatbuffers::FlatBufferBuilder;
using flatbuffers::Offset;

static_assert(sizeof(fb::Word) == sizeof(isa::Word), "opup.fbs Word is 16 bytes");

template <typename Id>
Offset<flatbuffers::Vector<int32_t>> Ids(FlatBufferBuilder& fbb, const std::vector<Id>& ids) {
  std::vector<int32_t> values(ids.begin(), ids.end());
  return fbb.CreateVector(values);
}

Offset<fb::Build> WriteBuild(FlatBufferBuilder& fbb, const ProgramBuild& build,
                             const HwConfig& hw) {
  std::vector<Offset<flatbuffers::String>> disabled;
  for (const std::string& pass : build.disabled_passes) disabled.push_back(fbb.CreateString(pass));
  return fb::CreateBuildDirect(fbb, build.compiler.c_str(), HwConfigToJson(hw).c_str(),
                               build.opt_level, &disabled, build.precision.c_str(),
                               build.source_name.c_str(), build.source_sha256.c_str());
}

Offset<fb::InputFold> WriteFold(FlatBufferBuilder& fbb, const std::optional<InputFold>& fold) {
  if (!fold) return 0;
  const auto i32 = [](int64_t v) { return static_cast<int32_t>(v); };
  return fb::CreateInputFold(fbb, i32(fold->kernel_h), i32(fold->kernel_w), i32(fold->stride_h),
                             i32(fold->stride_w), i32(fold->pad_top), i32(fold->pad_left),
                             i32(fold->out_h), i32(fold->out_w), i32(fold->pixels));
}

/// Maps the partition's ids (of the graph before fusion) to the program graph's.
class Renumber {
 public:
  explicit Renumber(const CpuFunctions& fused)
      : fused_(fused), step_of_node_(fused.graph.nodes.size(), -1) {}

  /// A group's nodes: its ops' fused nodes, each once, in graph order.
  Expected<std::vector<NodeId>> Nodes(const HwGroup& group) {
    std::vector<NodeId> nodes;
    for (NodeId n : group.ops) {
      if (n < 0 || static_cast<size_t>(n) >= fused_.renumbering.node.size())
        return InternalError(Cat("group ", group.id, " names node ", n, ", which does not exist"));
      nodes.push_back(fused_.renumbering.node[static_cast<size_t>(n)]);
    }
    std::sort(nodes.begin(), nodes.end());
    nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
    for (NodeId n : nodes) {
      int32_t& step = step_of_node_[static_cast<size_t>(n)];
      if (step >= 0 && step != group.id)
        return InternalError(
            Cat(DescribeNode(fused_.graph, n), " holds ops of groups ", step, " and ", group.id));
      step = group.id;
    }
    return nodes;
  }

  Expected<std::vector<TensorId>> Tensors(const std::vector<TensorId>& ids) const {
    std::vector<TensorId> out;
    for (TensorId t : ids) {
      if (t < 0 || static_cast<size_t>(t) >= fused_.renumbering.tensor.size())
        return InternalError(Cat("tensor ", t, " does not exist"));
      const TensorId id = fused_.renumbering.tensor[static_cast<size_t>(t)];
      if (id == kNoTensor)
        return InternalError(Cat("tensor ", t, " lives only inside a CPU function, yet a step",
                                 " or an activation names it"));
      out.push_back(id);
    }
    return out;
  }

 private:
  const CpuFunctions& fused_;
  std::vector<int32_t> step_of_node_;
};

/// The step of `group` (the groups of `joined`, each with its nodes, where
/// it holds several).
Expected<Offset<fb::Step>> WriteStep(FlatBufferBuilder& fbb, const HwGroup& group,
                                     const std::vector<HwGroup>& joined, const StepPlan& plan,
                                     const PlannedStep& planned, Renumber& renumber) {
  // A step of several groups lists each one's nodes in turn.
  std::vector<NodeId> node_ids;
  std::vector<size_t> part_nodes;
  for (HwGroup part : joined.size() > 1 ? joined : std::vector<HwGroup>{group}) {
    part.id = group.id;
    OPUC_ASSIGN_OR_RETURN(const std::vector<NodeId> ids, renumber.Nodes(part));
    node_ids.insert(node_ids.end(), ids.begin(), ids.end());
    part_nodes.push_back(ids.size());
  }
  OPUC_ASSIGN_OR_RETURN(const std::vector<TensorId> input_ids, renumber.Tensors(group.inputs));
  OPUC_ASSIGN_OR_RETURN(const std::vector<TensorId> output_ids, renumber.Tensors(group.outputs));
  const auto nodes = Ids(fbb, node_ids);
  const auto inputs = Ids(fbb, input_ids);
  const auto outputs = Ids(fbb, output_ids);
  if (planned.kind == StepKind::kCpu) {
    const auto cpu = fb::CreateCpuStepDirect(fbb, planned.reason.c_str()).Union();
    return fb::CreateStep(fbb, group.id, nodes, inputs, outputs, fb::StepKind::CpuStep, cpu);
  }
  std::vector<fb::Word> words;
  for (const isa::Word& w : planned.words) words.emplace_back(w.lo, w.hi);
  std::vector<Offset<fb::OpuGroup>> groups;
  for (size_t k = 0; k < planned.parts.size() && k < part_nodes.size(); ++k) {
    const PlannedStep::Part& part = planned.parts[k];
    const PlannedStep* own = plan.FindStep(part.group);
    groups.push_back(fb::CreateOpuGroupDirect(
        fbb, part.group, static_cast<int32_t>(part_nodes[k]), static_cast<uint32_t>(part.words),
        own != nullptr ? own->tiling.c_str() : "", part.estimated_cycles));
  }
  const auto opu =
      fb::CreateOpuStepDirect(fbb, &words, planned.estimated_cycles, planned.tiling.c_str(),
                              groups.empty() ? nullptr : &groups)
          .Union();
  return fb::CreateStep(fbb, group.id, nodes, inputs, outputs, fb::StepKind::OpuStep, opu);
}

/// The one step of consecutive groups (a chained pair, or a run: docs/
/// codegen.md): every group's ops, what any reads from outside them, what
/// any writes that a group after them or the host reads (a chained pair's
/// map, which only its second reads, never leaves the chip; a run's maps
/// read only inside it stay in its DRAM regions).
HwGroup JoinedGroup(const std::vector<HwGroup>& joined, const HwPartition& partition,
                    const Graph& graph) {
  HwGroup step = joined.back();
  step.ops.clear();
  step.inputs.clear();
  step.outputs.clear();
  std::set<int32_t> ids;
  for (const HwGroup& g : joined) ids.insert(g.id);
  std::set<TensorId> made, read_after(graph.outputs.begin(), graph.outputs.end());
  for (const HwGroup& g : partition.groups)
    if (ids.count(g.id) == 0) read_after.insert(g.inputs.begin(), g.inputs.end());
  for (const HwGroup& g : joined) {
    step.ops.insert(step.ops.end(), g.ops.begin(), g.ops.end());
    for (TensorId t : g.inputs)
      if (made.count(t) == 0 && std::count(step.inputs.begin(), step.inputs.end(), t) == 0)
        step.inputs.push_back(t);
    for (TensorId t : g.outputs) {
      made.insert(t);
      if (read_after.count(t) > 0) step.outputs.push_back(t);
    }
  }
  return step;
}

/// Room for the whole program, so that the builder never grows: growing
/// copies everything written so far into a buffer half as large again (a
/// large model's program is tens of megabytes, and fresh pages cost).
size_t ProgramBytesBound(size_t opug_bytes, const HwPartition& partition, const StepPlan& plan) {
  size_t bytes = opug_bytes + plan.constants.size() + 2 * kConstantAlignment + 4096;
  for (const ActivationLayout& a : plan.activations) bytes += a.fold ? 80U : 16U;
  for (const PlannedStep& step : plan.steps)
    bytes += step.words.size() * sizeof(fb::Word) + step.tiling.size() + step.reason.size();
  for (const HwGroup& group : partition.groups)
    bytes += 4 * (group.ops.size() + group.inputs.size() + group.outputs.size()) + 512;
  return bytes;
}

}  // namespace

Expected<std::vector<uint8_t>> WriteProgram(const Graph& graph, const HwPartition& partition,
                                            const StepPlan& plan, const HwConfig& hw,
                                            const ProgramBuild& build) {
  if (plan.steps.size() != partition.groups.size())
    return InternalError(Cat("the plan has ", plan.steps.size(), " steps for ",
                             partition.groups.size(), " partition groups"));
  OPUC_ASSIGN_OR_RETURN(const CpuFunctions fused, FuseCpuFunctions(graph, partition));
  OPUC_ASSIGN_OR_RETURN(std::vector<uint8_t> opug, WriteOpug(fused.graph));
  Renumber renumber(fused);
  VectorAllocator storage;  // outlives the builder: the program is built in it
  FlatBufferBuilder fbb(ProgramBytesBound(opug.size(), partition, plan), &storage);
  const auto build_table = WriteBuild(fbb, build, hw);
  fbb.ForceVectorAlignment(opug.size(), 1, kConstantAlignment);
  const auto graph_bytes = fbb.CreateVector(opug);
  // 64, past FlatBuffers' largest vector alignment (32: ForceVectorAlignment
  // asserts in a debug build), is what PreAlign, which it calls, takes.
  fbb.PreAlign(plan.constants.size(), 64);
  const auto constants = fbb.CreateVector(plan.constants);
  std::vector<Offset<fb::Activation>> activations;
  uint32_t version = 1;  // the oldest that holds the program, so older readers take it
  for (const ActivationLayout& a : plan.activations) {
    OPUC_ASSIGN_OR_RETURN(const std::vector<TensorId> tensor, renumber.Tensors({a.tensor}));
    activations.push_back(fb::CreateActivation(
        fbb, tensor[0], a.address, WriteFold(fbb, a.fold), static_cast<int32_t>(a.granule),
        a.pack > 1 ? static_cast<int32_t>(a.pack) : 0, a.doubled));
    if (a.fold) version = std::max(version, kInputFoldVersion);
    if (a.fold && a.fold->pixels > 1) version = std::max(version, kPixelPairsVersion);
    if (a.granule > 0) version = std::max(version, kCompactPixelsVersion);
    if (a.pack > 1) version = std::max(version, kPackedRowsVersion);
    if (a.doubled) version = std::max(version, kDoubledMapsVersion);
  }
  std::vector<Offset<fb::Step>> steps;
  std::vector<HwGroup> joined;  // groups before whose words are in a later step
  for (size_t s = 0; s < plan.steps.size(); ++s) {
    if (plan.steps[s].group != partition.groups[s].id)
      return InternalError(Cat("planned step ", s, " is for group ", plan.steps[s].group,
                               ", partition group ", s, " is group ", partition.groups[s].id));
    if (plan.steps[s].chained_into >= 0) {
      if (s + 1 == plan.steps.size() || partition.groups[s + 1].id != plan.steps[s].chained_into)
        return InternalError(Cat("group ", partition.groups[s].id,
                                 " is chained to a group that does not follow it"));
      joined.push_back(partition.groups[s]);
      continue;
    }
    joined.push_back(partition.groups[s]);
    const HwGroup group =
        joined.size() > 1 ? JoinedGroup(joined, partition, graph) : partition.groups[s];
    for (const isa::Word& w : plan.steps[s].words) {
      Expected<isa::Instruction> insn = isa::Decode(w);
      if (insn.ok()) version = std::max(version, InstructionVersion(*insn));
    }
    if (!plan.steps[s].parts.empty()) version = std::max(version, kRunsVersion);
    OPUC_ASSIGN_OR_RETURN(const Offset<fb::Step> step,
                          WriteStep(fbb, group, joined, plan, plan.steps[s], renumber));
    steps.push_back(step);
    joined.clear();
  }
  const auto root =
      fb::CreateProgram(fbb, version, build_table, graph_bytes, constants, plan.dram_bytes,
                        fbb.CreateVector(activations), fbb.CreateVector(steps));
  fb::FinishProgramBuffer(fbb, root);
  return storage.Take(fbb);
}

}  // namespace opuc
