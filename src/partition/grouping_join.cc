//===- src/partition/grouping_join.cc - May a node join a group? ----------===//
//
// The join checks of grouping.cc's walk, in its order, and the words for
// every refusal and every group a node had to start.
//
//===----------------------------------------------------------------------===//
#include "walker.h"

namespace opuc::partition {

ReasonPart Walker::NoStage(int32_t g, const DfgNode& d) const {
  const Group& group = groups_[g];
  const HdfgStage& last = StageAt(group.last_stage);
  const HwModuleMask ipa = ModuleBit(HwModule::kIpa), pad = ModuleBit(HwModule::kPad);
  if ((d.request.modules & ipa) && group.has_ipa) return Why(ReasonKind::kSecondIpa, g);
  if ((d.request.modules & pad) && (d.request.feeds & ipa) && group.has_input_pad)
    return Why(ReasonKind::kSecondPad, g);
  if ((d.request.modules & pad) && (d.request.feeds & ipa) && group.has_ipa)
    return Why(ReasonKind::kPadAfterIpa, g);
  ReasonPart why = Why(ReasonKind::kNoStageAfter, g);
  if (last.successors.empty())
    why.kind = ReasonKind::kNothingFollows;
  else if (d.request.modules & ModuleBit(last.module))
    why.kind = ReasonKind::kNoRepeat;
  why.stage = group.last_stage;
  why.what = d.what;
  return why;
}

/// Whether a pool or an upsample of the group marked with epoch_ reads
/// `m`'s value (`n`, joining on a stage of `n_module`, among them). The post
/// stages work on the accumulator's entries in place; a pool writes other
/// entries and the upsample rides on the store, so only the value entering
/// one of them is still there to store once the group's last value is.
bool Walker::EntersPoolOrUpsample(NodeId m, NodeId n, HwModule n_module) const {
  const HwModuleMask after = ModuleBit(HwModule::kPool) | ModuleBit(HwModule::kUpsample);
  for (TensorId t : graph_.node(m).outputs)
    for (NodeId r : readers_[t]) {
      if (mark_[r] != epoch_) continue;
      const int32_t at = r == n ? -1 : place_[r].stage;
      const HwModule module = r == n ? n_module : at < 0 ? HwModule::kMemRead : StageAt(at).module;
      if (after & ModuleBit(module)) return true;
    }
  return false;
}

/// Tries to add `n` to c.group; on refusal says why in `why`.
bool Walker::TryJoin(NodeId n, const Candidate& c, ReasonPart& why) {
  const DfgNode& d = dfg_.nodes[n];
  Group& group = groups_[c.group];
  const int32_t stage = FindMatch(hw_.hdfg, group.last_stage, d.request);
  if (stage < 0) {
    why = NoStage(c.group, d);
    return false;
  }
  const HdfgStage& s = StageAt(stage);
  if (s.module == HwModule::kIpa && group.has_ipa) {
    why = Why(ReasonKind::kSecondIpa, c.group);
    return false;
  }
  if (group.used_stage[stage] && !OnCycle(hw_.hdfg, stage)) {
    why = Why(ReasonKind::kStageUsed, c.group);
    why.stage = stage;
    return false;
  }
  const std::vector<NodeId> pulled = Collect(n);  // marks n and pulled with epoch_
  for (NodeId m : group.members) mark_[m] = epoch_;
  std::vector<NodeId> joining = pulled;
  joining.push_back(n);
  for (NodeId m : joining) {
    const Node& node = graph_.node(m);
    for (size_t k = 0; k < node.inputs.size(); ++k) {
      const TensorId t = node.inputs[k];
      const NodeId p = t == kNoTensor ? -1 : producer_[t];
      if (p < 0) continue;
      const int32_t h = group_of_[p];
      if (h == c.group) {
        if (m == n && static_cast<int32_t>(k) == c.position) continue;
        why = Why(ReasonKind::kStreamedInside, c.group);
        why.node = m;
        why.tensor = t;
        return false;
      }
      if (h < 0) continue;  // collected with it, or computed from constants
      if (Reaches(c.group, h)) {
        why = Why(ReasonKind::kWaitForItself, c.group);
        why.other_group = h;
        why.tensor = t;
        return false;
      }
    }
  }
  int64_t stores = 1;
  for (NodeId m : group.members) {
    NodeId outside = -1;
    bool escapes = false;
    for (TensorId t : graph_.node(m).outputs) {
      escapes = escapes || graph_output_[t];
      for (NodeId r : readers_[t])
        if (mark_[r] != epoch_) {
          escapes = true;
          outside = r;
        }
    }
    if (!escapes) continue;
    ++stores;
    const int32_t at = place_[m].stage;
    const HwModule module = at < 0 ? HwModule::kMemRead : StageAt(at).module;
    if (at < 0 || !(hw_.store.taps & ModuleBit(module))) {
      why = Why(ReasonKind::kBuried, c.group);
      why.node = m;
      why.other_node = outside;
      if (at >= 0) why.what = HwModuleName(module);
      return false;
    }
    if (!EntersPoolOrUpsample(m, n, s.module)) {
      why = Why(ReasonKind::kTapInPlace, c.group);
      why.node = m;
      why.other_node = outside;
      return false;
    }
  }
  if (stores > hw_.store.max_outputs) {
    why = Why(ReasonKind::kTooManyStores, c.group);
    why.count = stores;
    why.limit = hw_.store.max_outputs;
    return false;
  }
  ReasonPart joined = Why(ReasonKind::kJoined, c.group);
  joined.stage = stage;
  joined.other_stage = group.last_stage;
  Commit(n, c.group, stage, pulled);
  place_[n].placement = Placement::kJoined;
  place_[n].reason = {joined};
  return true;
}

/// Why `n` joined none of its inputs' groups.
Reason Walker::StartReason(NodeId n, Reason refusals) const {
  if (!refusals.empty()) return refusals;
  const DfgNode& d = dfg_.nodes[n];
  if (d.stream_inputs.empty()) {
    ReasonPart heads = Why(ReasonKind::kHeadsGroup);
    heads.what = d.what;
    return {heads};
  }
  Reason reason;
  for (int32_t k : d.stream_inputs) {
    const TensorId t = graph_.node(n).inputs[static_cast<size_t>(k)];
    const NodeId p = producer_[t];
    ReasonPart one;
    one.tensor = t;
    one.node = p;
    if (p < 0) {
      one.kind = graph_.tensor(t).is_constant() ? ReasonKind::kReadsConstant
                                                : ReasonKind::kReadsGraphInput;
    } else if (group_of_[p] < 0 || dfg_.nodes[p].role == DfgRole::kResidualPad) {
      one.kind = ReasonKind::kReadsOffDatapath;
    } else if (!groups_[group_of_[p]].opu) {
      one.kind = ReasonKind::kReadsFromCpu;
    } else {
      one.kind = ReasonKind::kStreamedPast;
      one.group = group_of_[p];
      one.node = groups_[one.group].tail;
    }
    reason.push_back(std::move(one));
  }
  return reason;
}

}  // namespace opuc::partition
