//===- src/codegen/codegen.cc - The program's steps, planned once -----===//
//
// Three passes over the groups: plan each one's step (a CPU step for a CPU
// group and for an OPU group that does not compile yet, with the reason),
// lay out DRAM (the constants of every OPU step, then a region per
// activation, first fit among the regions whose lifetimes meet its own),
// then choose tilings and emit (step_searches.cc).
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <cstring>
#include <map>
#include <optional>
#include <set>

#include "chained_pairs.h"
#include "dense_pairs.h"
#include "depthwise_window.h"
#include "doubled_maps.h"
#include "input_blocks.h"
#include "input_fold.h"
#include "opuc/codegen/codegen.h"
#include "opuc/program/lifetime.h"
#include "packed_rows.h"
#include "phases.h"
#include "step_searches.h"
#include "support/format.h"

namespace opuc {
namespace {

constexpr int64_t kAlign = 64;

int64_t AlignUp(int64_t n, int64_t a) { return (n + a - 1) / a * a; }

/// The activations' lifetimes over the partition's groups, as the program
/// reader checks them: a run's groups each count (docs/codegen.md, "Runs");
/// a chained pair's second group reads what its first does (`chained`:
/// the second groups' ids), as their one step does.
std::vector<Lifetime> GroupLifetimes(const Graph& graph, const HwPartition& partition,
                                     const std::set<int32_t>& chained) {
  std::vector<std::vector<TensorId>> inputs, outputs;
  for (const HwGroup& g : partition.groups) {
    inputs.push_back(g.inputs);
    outputs.push_back(g.outputs);
    if (chained.count(g.id) > 0 && inputs.size() >= 2) {
      const std::vector<TensorId>& first = inputs[inputs.size() - 2];
      inputs.back().insert(inputs.back().end(), first.begin(), first.end());
    }
  }
  return Lifetimes(graph.tensors.size(), inputs, outputs, graph.outputs);
}

/// The lowest address from `base` where `bytes` fit beside every placed
/// region whose lifetime meets `life`.
int64_t FirstFit(const StepPlan& code, const std::vector<Lifetime>& lives, const Lifetime& life,
                 int64_t bytes, int64_t base, int64_t align) {
  std::vector<std::pair<int64_t, int64_t>> busy;
  for (const ActivationLayout& a : code.activations)
    if (lives[static_cast<size_t>(a.tensor)].Meets(life))
      busy.emplace_back(a.address, AlignUp(a.address + a.bytes(), align));
  std::sort(busy.begin(), busy.end());
  int64_t at = base;
  for (const auto& [begin, end] : busy) {
    if (at + bytes <= begin) break;
    at = std::max(at, end);
  }
  return at;
}

}  // namespace

const ActivationLayout* StepPlan::Find(TensorId tensor) const {
  for (const ActivationLayout& l : activations)
    if (l.tensor == tensor) return &l;
  return nullptr;
}

std::vector<uint8_t> StepPlan::DramImage() const {
  std::vector<uint8_t> dram(static_cast<size_t>(dram_bytes), 0);
  std::memcpy(dram.data(), constants.data(), constants.size());
  return dram;
}

const PlannedStep* StepPlan::FindStep(int32_t group) const {
  for (const PlannedStep& step : steps)
    if (step.group == group) return &step;
  return nullptr;
}

std::vector<const PlannedStep*> StepPlan::OpuSteps() const {
  std::vector<const PlannedStep*> opu;
  for (const PlannedStep& step : steps)
    if (step.kind == StepKind::kOpu && step.chained_into < 0) opu.push_back(&step);
  return opu;
}

Expected<StepPlan> PlanSteps(const Graph& graph, const HwPartition& partition, const HwConfig& hw,
                             const PlanOptions& options) {
  OPUC_RETURN_IF_ERROR(ValidateHwConfig(hw));
  const OpuBufferUnits units = BufferUnits(hw);
  const int64_t align = std::max(kAlign, hw.dram.word_bits / 8);
  StepPlan code;
  struct Described {
    size_t step = 0;
    codegen::InnerProductGroup group;
  };
  std::vector<Described> described_groups;
  std::map<int32_t, codegen::FoldCandidate> folds;  // by group id
  for (const HwGroup& group : partition.groups) {
    PlannedStep& step = code.steps.emplace_back();
    step.group = group.id;
    if (group.kind != GroupKind::kOpu) {
      step.reason = ReasonText(graph, partition, group.reason);
      continue;
    }
    Expected<codegen::InnerProductGroup> described =
        codegen::DescribeGroup(graph, partition, group);
    if (!described.ok()) {
      if (described.status().code() != StatusCode::kUnsupported) return described.status();
      step.reason = "not compiled for the OPU yet: " + described.status().message();
      continue;
    }
    codegen::LineUpInputBlocks(*described, units.lanes);
    if (options.fold_inputs) {
      codegen::FoldCandidate& c = folds[group.id];
      c.input = described->input;
      c.fold = codegen::ChooseInputFold(graph, partition, group, *described, units.lanes);
      if (c.fold && options.pixel_pairs) {
        // Whether the single fold's 1x1 may take pointwise pairs: asked of
        // the group as that fold makes it.
        codegen::InnerProductGroup single = *described;
        codegen::FoldInnerProduct(*c.fold, single, units.out_lanes);
        c.pairs =
            codegen::PairsCutPasses(*c.fold, *described, units.lanes, units.out_lanes,
                                    options.dense_pairs && codegen::UsesDensePairs(single, units));
      }
    }
    described_groups.push_back({code.steps.size() - 1, std::move(*described)});
  }
  // A packed output's layout is the map's bytes (PackLayout), which only
  // the host and the CPU steps read: no OPU group may read it.
  std::set<TensorId> opu_reads;
  for (const Described& d : described_groups) {
    opu_reads.insert(d.group.input);
    for (const codegen::InputPiece& piece : d.group.pieces) opu_reads.insert(piece.tensor);
    for (const codegen::ResidualStep& res : d.group.residuals) opu_reads.insert(res.tensor);
  }
  std::set<TensorId> packed_outputs;
  std::set<TensorId> doubled;
  if (options.doubled_maps && options.compact_pixels) {
    std::vector<const codegen::InnerProductGroup*> groups;
    std::set<int32_t> folded;
    for (const Described& d : described_groups) {
      groups.push_back(&d.group);
      if (const auto it = folds.find(d.group.group); it != folds.end() && it->second.fold)
        folded.insert(d.group.group);
    }
    doubled = codegen::ChooseDoubledMaps(groups, folded, units);
  }
  // A tensor folds only when every OPU group that reads it folds it alike.
  std::vector<codegen::ReadyGroup> ready;
  for (Described& d : described_groups) {
    codegen::InnerProductGroup& g = d.group;
    const bool doubles_output = g.store_output && doubled.count(g.output) > 0;
    const bool pairs_input = doubled.count(g.input) > 0 && codegen::PairsDepthwise(g, units);
    if (doubles_output) codegen::DoubleOutput(g, units);
    if (pairs_input) codegen::PairDepthwise(g, units);
    std::optional<InputFold> fold;
    if (const auto it = folds.find(g.group); it != folds.end() && it->second.fold)
      fold = codegen::SharedFold(partition, g.input, folds);
    if (fold) codegen::FoldInnerProduct(*fold, g, units.out_lanes);
    if (options.phases) codegen::UsePhases(g);
    if (!fold && options.packed_rows && opu_reads.count(g.output) == 0 &&
        codegen::UsePackedRows(g, units, options.compact_pixels))
      packed_outputs.insert(g.output);
    else if (!fold && options.packed_pixels)
      codegen::UsePackedPixels(g, units, options.compact_pixels);
    codegen::ChooseDepthwiseWindow(g, hw, units);
    g.i16_whole = options.whole_i16 && codegen::ReadsI16Whole(g, units);
    g.window_pairs = options.window_pairs && codegen::UsesWindowPairs(g, units);
    g.block_pairs = options.block_pairs && codegen::UsesBlockPairs(g, units);
    ready.push_back({d.step,
                     std::move(g),
                     {},
                     {},
                     fold,
                     doubles_output,
                     pairs_input,
                     -1,
                     false,
                     {},
                     {},
                     units});
  }
  // Chained pairs: a depthwise group and the 1x1 group right after it
  // (chained_pairs.h), the depthwise output in the buffer's top rows.
  for (size_t i = 0; options.chained_pairs != 1 && i + 1 < ready.size(); ++i) {
    codegen::ReadyGroup& first = ready[i];
    codegen::ReadyGroup& second = ready[i + 1];
    if (!codegen::MayChain(first.group, second.group) || first.chain_row >= 0) continue;
    first.chain_note =
        codegen::ChainRefusal(graph, partition, first.group, second.group, units, options);
    if (!first.chain_note.empty()) continue;
    first.chain_row = second.chain_row =
        units.fm_rows - codegen::ChainRows(first.group, units.lanes);
    first.chain_first = true;
  }
  for (codegen::ReadyGroup& r : ready) {
    codegen::InnerProductGroup& g = r.group;
    Expected<codegen::Tiling> tiling = codegen::ChooseTiling(g, units);
    if (!tiling.ok()) return tiling.status().WithContext(Cat("group ", g.group));
    r.tiling = *tiling;
    if (r.chain_row >= 0) {  // the buffer but a chained pair's map (rows from chain_row)
      r.chain_units = units;
      r.chain_units.fm_rows = r.chain_row;
      codegen::InnerProductGroup chained = g;
      chained.input_on_chip = !r.chain_first;
      Expected<codegen::Tiling> fewest = codegen::ChooseTiling(chained, r.chain_units);
      if (!fewest.ok()) return fewest.status().WithContext(Cat("group ", g.group));
      r.chain_tiling = *fewest;
    }
    // Packed with each weight again L / 2 on; rewritten without the copies
    // below where no tiling with pairs is fastest.
    g.dense_pairs = options.dense_pairs && codegen::UsesDensePairs(g, units);
    r.constants = codegen::PackConstants(r.group, r.tiling, units, align, code.constants);
  }
  const int64_t base = AlignUp(static_cast<int64_t>(code.constants.size()), align);
  std::set<int32_t> chained_seconds;
  for (const codegen::ReadyGroup& r : ready)
    if (r.chain_row >= 0 && !r.chain_first) chained_seconds.insert(r.group.group);
  const std::vector<Lifetime> lives = GroupLifetimes(graph, partition, chained_seconds);
  int64_t next = base;
  auto place = [&](TensorId t, const std::optional<InputFold>& fold) -> Status {
    if (code.Find(t) != nullptr) return OkStatus();
    OPUC_ASSIGN_OR_RETURN(ActivationLayout layout, LayoutActivation(graph, t, units.lanes, 0));
    if (fold) OPUC_RETURN_IF_ERROR(FoldLayout(layout, *fold));
    if (options.compact_pixels) CompactPixels(layout, units.out_lanes);
    if (packed_outputs.count(t) > 0) OPUC_RETURN_IF_ERROR(PackLayout(layout, units.out_lanes));
    if (doubled.count(t) > 0) OPUC_RETURN_IF_ERROR(DoubleLayout(layout));
    const int64_t bytes = AlignUp(layout.bytes(), align);
    layout.address = FirstFit(code, lives, lives[static_cast<size_t>(t)], bytes, base, align);
    next = std::max(next, layout.address + bytes);
    code.activations.push_back(layout);
    return OkStatus();
  };
  for (const codegen::ReadyGroup& r : ready) {
    const codegen::InnerProductGroup& g = r.group;
    std::vector<TensorId> placed;
    for (const codegen::InputPiece& piece : g.pieces) placed.push_back(piece.tensor);
    if (g.pieces.empty()) placed.push_back(g.input);
    if (g.store_output) placed.push_back(g.output);
    for (const codegen::ResidualStep& res : g.residuals)
      if (res.constant.empty()) placed.push_back(res.tensor);  // a constant stays in the blob
    if (g.store_pool) placed.push_back(g.pool->tensor);
    if (g.upsampled != kNoTensor) placed.push_back(g.upsampled);
    for (TensorId t : placed)
      OPUC_RETURN_IF_ERROR(
          place(t, t == g.input ? r.fold : std::nullopt).WithContext(Cat("group ", g.group)));
  }
  code.dram_bytes = next;
  std::set<TensorId> on_chip;  // the maps chained pairs keep
  OPUC_RETURN_IF_ERROR(codegen::SearchSteps(graph, hw, units, options, ready, code, on_chip));
  // A map a chained pair keeps never reaches DRAM: its region stays unused.
  code.activations.erase(
      std::remove_if(code.activations.begin(), code.activations.end(),
                     [&](const ActivationLayout& a) { return on_chip.count(a.tensor) > 0; }),
      code.activations.end());
  return code;
}

}  // namespace opuc
