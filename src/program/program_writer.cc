//===- src/program/program_writer.cc - A compiled model to .opup ----------===//
//
// One step per partition group, in the partition's order (producers first).
// The graph goes in as a .opug (the same bytes WriteOpug makes), so the
// program carries the definition of every step's results with it; each CPU
// group of two or more ops is one `fused` node there (FuseCpuFunctions), so
// the host runs it as one function. Steps and activations name the nodes
// and tensors of that graph.
//
//===----------------------------------------------------------------------===//
#include <algorithm>

#include "opuc/frontend/opug.h"
#include "opuc/partition/hw_partition.h"
#include "opuc/program/program.h"
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

Expected<Offset<fb::Step>> WriteStep(FlatBufferBuilder& fbb, const Graph& graph,
                                     const HwPartition& partition, const OpuCode& all,
                                     const HwGroup& group, Renumber& renumber) {
  const OpuGroupCode* code = all.FindGroup(group.id);
  OPUC_ASSIGN_OR_RETURN(const std::vector<NodeId> node_ids, renumber.Nodes(group));
  OPUC_ASSIGN_OR_RETURN(const std::vector<TensorId> input_ids, renumber.Tensors(group.inputs));
  OPUC_ASSIGN_OR_RETURN(const std::vector<TensorId> output_ids, renumber.Tensors(group.outputs));
  const auto nodes = Ids(fbb, node_ids);
  const auto inputs = Ids(fbb, input_ids);
  const auto outputs = Ids(fbb, output_ids);
  Offset<void> kind;
  fb::StepKind type = fb::StepKind::CpuStep;
  if (code != nullptr) {
    std::vector<fb::Word> words;
    for (const isa::Word& w : code->words) words.emplace_back(w.lo, w.hi);
    kind =
        fb::CreateOpuStepDirect(fbb, &words, code->estimated_cycles, code->tiling.c_str()).Union();
    type = fb::StepKind::OpuStep;
  } else {
    kind =
        fb::CreateCpuStepDirect(fbb, CpuStepReason(graph, partition, all, group).c_str()).Union();
  }
  return fb::CreateStep(fbb, group.id, nodes, inputs, outputs, type, kind);
}

/// Room for the whole program, so that the builder never grows: growing
/// copies everything written so far into a buffer half as large again (a
/// large model's program is tens of megabytes, and fresh pages cost).
size_t ProgramBytesBound(size_t opug_bytes, const HwPartition& partition, const OpuCode& code) {
  size_t bytes = opug_bytes + code.constants.size() + 2 * kConstantAlignment + 4096;
  bytes += code.activations.size() * 16;
  for (const OpuGroupCode& group : code.groups)
    bytes += group.words.size() * sizeof(fb::Word) + group.tiling.size();
  for (const HwGroup& group : partition.groups)
    bytes += 4 * (group.ops.size() + group.inputs.size() + group.outputs.size()) + 512;
  for (const SkippedGroup& skipped : code.skipped) bytes += skipped.reason.size();
  return bytes;
}

}  // namespace

std::string CpuStepReason(const Graph& graph, const HwPartition& partition, const OpuCode& code,
                          const HwGroup& group) {
  if (group.kind == GroupKind::kCpu) return ReasonText(graph, partition, group.reason);
  const SkippedGroup* skipped = code.FindSkipped(group.id);
  return skipped ? "not compiled for the OPU yet: " + skipped->reason : std::string();
}

Expected<std::vector<uint8_t>> WriteProgram(const Graph& graph, const HwPartition& partition,
                                            const OpuCode& code, const HwConfig& hw,
                                            const ProgramBuild& build) {
  OPUC_ASSIGN_OR_RETURN(const CpuFunctions fused, FuseCpuFunctions(graph, partition));
  OPUC_ASSIGN_OR_RETURN(std::vector<uint8_t> opug, WriteOpug(fused.graph));
  Renumber renumber(fused);
  VectorAllocator storage;  // outlives the builder: the program is built in it
  FlatBufferBuilder fbb(ProgramBytesBound(opug.size(), partition, code), &storage);
  const auto build_table = WriteBuild(fbb, build, hw);
  fbb.ForceVectorAlignment(opug.size(), 1, kConstantAlignment);
  const auto graph_bytes = fbb.CreateVector(opug);
  // 64, past FlatBuffers' largest vector alignment (32: ForceVectorAlignment
  // asserts in a debug build), is what PreAlign, which it calls, takes.
  fbb.PreAlign(code.constants.size(), 64);
  const auto constants = fbb.CreateVector(code.constants);
  std::vector<Offset<fb::Activation>> activations;
  for (const ActivationLayout& a : code.activations) {
    OPUC_ASSIGN_OR_RETURN(const std::vector<TensorId> tensor, renumber.Tensors({a.tensor}));
    activations.push_back(fb::CreateActivation(fbb, tensor[0], a.address));
  }
  std::vector<Offset<fb::Step>> steps;
  for (const HwGroup& group : partition.groups) {
    if (group.kind == GroupKind::kOpu && !code.FindGroup(group.id) && !code.FindSkipped(group.id))
      return InternalError(Cat("OPU group ", group.id, " was neither compiled nor skipped"));
    OPUC_ASSIGN_OR_RETURN(const Offset<fb::Step> step,
                          WriteStep(fbb, graph, partition, code, group, renumber));
    steps.push_back(step);
  }
  const auto root =
      fb::CreateProgram(fbb, kProgramVersion, build_table, graph_bytes, constants, code.dram_bytes,
                        fbb.CreateVector(activations), fbb.CreateVector(steps));
  fb::FinishProgramBuffer(fbb, root);
  return storage.Take(fbb);
}

}  // namespace opuc
