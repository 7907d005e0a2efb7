//===- src/program/program.cc - A loaded program --------------------------===//
#include <algorithm>
#include <cstring>
#include <variant>

#include "opuc/file_io/file_io.h"
#include "opuc/opu/buffer_units.h"
#include "opuc/program/program.h"
#include "support/format.h"

namespace opuc {

isa::Word ProgramStep::word(size_t i) const {
  // Little endian in the file (FlatBuffers' order), whatever the host's.
  const uint8_t* bytes = words + 16 * i;
  isa::Word w;
  for (int b = 7; b >= 0; --b) {
    w.lo = w.lo << 8 | bytes[b];
    w.hi = w.hi << 8 | bytes[8 + b];
  }
  return w;
}

std::vector<isa::Word> ProgramStep::Words() const {
  std::vector<isa::Word> all;
  all.reserve(word_count);
  for (size_t i = 0; i < word_count; ++i) all.push_back(word(i));
  return all;
}

std::vector<ProgramStep> StepParts(const Program& program, const ProgramStep& step) {
  if (step.groups.empty()) return {step};
  const Graph& graph = program.graph();
  std::vector<ProgramStep> parts;
  for (const StepGroup& g : step.groups) {
    ProgramStep& part = parts.emplace_back();
    part.kind = step.kind;
    part.group = g.group;
    part.nodes.assign(step.nodes.begin() + static_cast<std::ptrdiff_t>(g.first_node),
                      step.nodes.begin() + static_cast<std::ptrdiff_t>(g.first_node + g.nodes));
    part.words = step.words + 16 * g.first_word;  // 16 bytes a word (ProgramStep::word)
    part.word_count = g.words;
    part.tiling = g.tiling;
    part.estimated_cycles = g.estimated_cycles;
    std::vector<TensorId> made;
    for (NodeId n : part.nodes) {
      for (TensorId t : graph.node(n).inputs)
        if (t != kNoTensor && std::count(made.begin(), made.end(), t) == 0 &&
            std::count(part.inputs.begin(), part.inputs.end(), t) == 0)
          part.inputs.push_back(t);
      for (TensorId t : graph.node(n).outputs) {
        made.push_back(t);
        if (program.Find(t) != nullptr) part.outputs.push_back(t);
      }
    }
  }
  return parts;
}

uint32_t InstructionVersion(const isa::Instruction& insn) {
  if (std::holds_alternative<isa::FenceInsn>(insn)) return kRunsVersion;
  if (const auto* gemm = std::get_if<isa::GemmInsn>(&insn))
    return BlockPairs(*gemm) ? kBlockPairsVersion
           : gemm->init == isa::GemmInsn::kPairsFromBias
               ? (!gemm->depthwise       ? kDensePairsVersion
                  : FiveWidePairs(*gemm) ? kPackedPairsVersion
                                         : kWindowPairsVersion)
           : gemm->operand == isa::GemmInsn::kI16 ? kI16WholeVersion
           : gemm->line_slot != 0 || gemm->carry  ? kLineCarryVersion
                                                  : 1;
  if (const auto* load = std::get_if<isa::LoadInsn>(&insn))
    return load->interleave ? kI16WholeVersion : 1;
  if (const auto* store = std::get_if<isa::StoreInsn>(&insn))
    return store->to_fm                              ? kStoreToFmVersion
           : store->extra_blocks != 0 && store->pair ? kStorePairBlocksVersion
           : store->extra_blocks != 0                ? kStoreBlocksVersion
                                                     : 1;
  return 1;
}

std::string VersionReason(const isa::Instruction& insn) {
  std::string fields;
  if (const auto* gemm = std::get_if<isa::GemmInsn>(&insn))
    fields = BlockPairs(*gemm) ? "init PairsFromBias at stride_x 2 needs"
             : gemm->init == isa::GemmInsn::kPairsFromBias
                 ? (!gemm->depthwise       ? "init PairsFromBias on a dense Gemm needs"
                    : FiveWidePairs(*gemm) ? "init PairsFromBias over 5 rows of 6 columns needs"
                                           : "init PairsFromBias needs")
             : gemm->operand == isa::GemmInsn::kI16 ? "operand I16 needs"
             : gemm->line_slot != 0 || gemm->carry  ? "line_slot and carry need"
                                                    : "";
  if (const auto* load = std::get_if<isa::LoadInsn>(&insn))
    fields = load->interleave ? "interleave needs" : "";
  if (const auto* store = std::get_if<isa::StoreInsn>(&insn))
    fields = store->to_fm                              ? "to_fm needs"
             : store->extra_blocks != 0 && store->pair ? "extra_blocks with pair need"
             : store->extra_blocks != 0                ? "extra_blocks need"
                                                       : "";
  if (std::holds_alternative<isa::FenceInsn>(insn)) fields = "a Fence needs";
  return fields.empty() ? fields : Cat(fields, " format version ", InstructionVersion(insn));
}

const ActivationLayout* Program::Find(TensorId tensor) const {
  if (tensor < 0 || static_cast<size_t>(tensor) >= activation_of_.size()) return nullptr;
  const int32_t at = activation_of_[static_cast<size_t>(tensor)];
  return at < 0 ? nullptr : &activations_[static_cast<size_t>(at)];
}

std::vector<uint8_t> Program::DramImage() const {
  std::vector<uint8_t> dram(static_cast<size_t>(dram_bytes_), 0);
  if (constant_bytes_ > 0)
    std::memcpy(dram.data(), constants_, static_cast<size_t>(constant_bytes_));
  return dram;
}

bool IsProgramPath(std::string_view path) {
  constexpr std::string_view kSuffix = ".opup";
  return path.size() >= kSuffix.size() && path.substr(path.size() - kSuffix.size()) == kSuffix;
}

Expected<Program> LoadProgramFile(const std::string& path) {
  OPUC_ASSIGN_OR_RETURN(AlignedBytes bytes, ReadFileAligned(path));
  return ReadProgram(bytes.owner, bytes.data(), bytes.size, path);
}

}  // namespace opuc
