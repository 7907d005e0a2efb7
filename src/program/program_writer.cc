//===- src/program/program_writer.cc - A compiled model to .opup ----------===//
//
// One step per partition group, in the partition's order (producers first).
// The graph goes in as a .opug (the same bytes WriteOpug makes), so the
// program carries the definition of every step's results with it.
//
//===----------------------------------------------------------------------===//
#include <map>

#include "opuc/frontend/opug.h"
#include "opuc/program/program.h"
#include "opup_generated.h"
#include "support/format.h"

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

Offset<fb::Step> WriteStep(FlatBufferBuilder& fbb, const Graph& graph, const HwPartition& partition,
                           const HwGroup& group, const OpuGroupCode* code,
                           const std::string& skipped) {
  const auto nodes = Ids(fbb, group.ops);
  const auto inputs = Ids(fbb, group.inputs);
  const auto outputs = Ids(fbb, group.outputs);
  Offset<void> kind;
  fb::StepKind type = fb::StepKind::CpuStep;
  if (code != nullptr) {
    std::vector<fb::Word> words;
    for (const isa::Word& w : code->words) words.emplace_back(w.lo, w.hi);
    kind =
        fb::CreateOpuStepDirect(fbb, &words, code->estimated_cycles, code->tiling.c_str()).Union();
    type = fb::StepKind::OpuStep;
  } else {
    const std::string reason = group.kind == GroupKind::kCpu
                                   ? ReasonText(graph, partition, group.reason)
                                   : "not compiled for the OPU yet: " + skipped;
    kind = fb::CreateCpuStepDirect(fbb, reason.c_str()).Union();
  }
  return fb::CreateStep(fbb, group.id, nodes, inputs, outputs, type, kind);
}

}  // namespace

Expected<std::vector<uint8_t>> WriteProgram(const Graph& graph, const HwPartition& partition,
                                            const OpuCode& code, const HwConfig& hw,
                                            const ProgramBuild& build) {
  OPUC_ASSIGN_OR_RETURN(std::vector<uint8_t> opug, WriteOpug(graph));
  std::map<int32_t, const OpuGroupCode*> compiled;
  for (const OpuGroupCode& g : code.groups) compiled[g.group] = &g;
  std::map<int32_t, std::string> skipped;
  for (const SkippedGroup& g : code.skipped) skipped[g.group] = g.reason;

  FlatBufferBuilder fbb(opug.size() + code.constants.size() + 4096);
  const auto build_table = WriteBuild(fbb, build, hw);
  fbb.ForceVectorAlignment(opug.size(), 1, kConstantAlignment);
  const auto graph_bytes = fbb.CreateVector(opug);
  fbb.ForceVectorAlignment(code.constants.size(), 1, 64);
  const auto constants = fbb.CreateVector(code.constants);
  std::vector<Offset<fb::Activation>> activations;
  for (const ActivationLayout& a : code.activations)
    activations.push_back(fb::CreateActivation(fbb, a.tensor, a.address));
  std::vector<Offset<fb::Step>> steps;
  for (const HwGroup& group : partition.groups) {
    const auto it = compiled.find(group.id);
    if (group.kind == GroupKind::kOpu && it == compiled.end() && !skipped.count(group.id))
      return InternalError(Cat("OPU group ", group.id, " was neither compiled nor skipped"));
    steps.push_back(WriteStep(fbb, graph, partition, group,
                              it == compiled.end() ? nullptr : it->second, skipped[group.id]));
  }
  const auto root =
      fb::CreateProgram(fbb, kProgramVersion, build_table, graph_bytes, constants, code.dram_bytes,
                        fbb.CreateVector(activations), fbb.CreateVector(steps));
  fb::FinishProgramBuffer(fbb, root);
  return std::vector<uint8_t>(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize());
}

}  // namespace opuc
