//===- src/partition/grouping_join.cc - May a node join a group? ----------===//
//
// The join checks of grouping.cc's walk, in its order, and the words for
// every refusal and every group a node had to start.
//
//===----------------------------------------------------------------------===//
#include "walker.h"

namespace opuc::partition {

std::string Walker::NoStage(int32_t g, const DfgNode& d) const {
  const Group& group = groups_[static_cast<size_t>(g)];
  const HdfgStage& last = stages_[static_cast<size_t>(group.last_stage)];
  const HwModuleMask ipa = ModuleBit(HwModule::kIpa), pad = ModuleBit(HwModule::kPad);
  if ((d.request.modules & ipa) && group.has_ipa) return Cat("second ipa in ", GroupRef(g));
  if ((d.request.modules & pad) && (d.request.feeds & ipa) && group.has_input_pad)
    return Cat("second pad in ", GroupRef(g));
  if ((d.request.modules & pad) && (d.request.feeds & ipa) && group.has_ipa)
    return Cat("a pad for an inner product after the ipa of ", GroupRef(g),
               " (one pad and one ipa per group)");
  if (last.successors.empty()) return Cat("nothing follows ", last.name, " in ", GroupRef(g));
  if (d.request.modules & ModuleBit(last.module))
    return Cat(d.what, " cannot follow ", last.name, " in ", GroupRef(g),
               ": no unit runs twice in a row");
  return Cat("no stage after ", last.name, " in ", GroupRef(g), " runs ", d.what);
}

/// Tries to add `n` to c.group; on refusal says why in `why`.
bool Walker::TryJoin(NodeId n, const Candidate& c, std::string& why) {
  const DfgNode& d = dfg_.nodes[static_cast<size_t>(n)];
  Group& group = groups_[static_cast<size_t>(c.group)];
  const int32_t stage = FindMatch(hw_.hdfg, group.last_stage, d.request);
  if (stage < 0) {
    why = NoStage(c.group, d);
    return false;
  }
  const HdfgStage& s = stages_[static_cast<size_t>(stage)];
  if (s.module == HwModule::kIpa && group.has_ipa) {
    why = Cat("second ipa in ", GroupRef(c.group));
    return false;
  }
  if (group.used_stage[static_cast<size_t>(stage)] && !OnCycle(hw_.hdfg, stage)) {
    why = Cat("stage ", s.name, " is already used in ", GroupRef(c.group));
    return false;
  }
  const std::vector<NodeId> pulled = Collect(n);  // marks n and pulled with epoch_
  for (NodeId m : group.members) mark_[static_cast<size_t>(m)] = epoch_;
  std::vector<NodeId> joining = pulled;
  joining.push_back(n);
  for (NodeId m : joining) {
    const Node& node = graph_.node(m);
    for (size_t k = 0; k < node.inputs.size(); ++k) {
      const TensorId t = node.inputs[k];
      const NodeId p = t == kNoTensor ? -1 : producer_[static_cast<size_t>(t)];
      if (p < 0) continue;
      const int32_t h = group_of_[static_cast<size_t>(p)];
      if (h == c.group) {
        if (m == n && static_cast<int32_t>(k) == c.position) continue;
        why = Cat(Name(m), " reads ", Value(t), ", a value inside ", GroupRef(c.group),
                  " that the datapath has streamed past");
        return false;
      }
      if (h < 0) continue;  // collected with it, or computed from constants
      if (Reaches(c.group, h)) {
        why = Cat("joining ", GroupRef(c.group), " would make it wait for itself: ", Value(t),
                  " comes from ", GroupRef(h), ", which depends on it");
        return false;
      }
    }
  }
  int64_t stores = 1;
  for (NodeId m : group.members) {
    NodeId outside = -1;
    bool escapes = false;
    for (TensorId t : graph_.node(m).outputs) {
      escapes = escapes || graph_output_[static_cast<size_t>(t)];
      for (NodeId r : readers_[static_cast<size_t>(t)])
        if (mark_[static_cast<size_t>(r)] != epoch_) {
          escapes = true;
          outside = r;
        }
    }
    if (!escapes) continue;
    ++stores;
    const int32_t at = place_[static_cast<size_t>(m)].stage;
    const HwModule module = at < 0 ? HwModule::kMemRead : stages_[static_cast<size_t>(at)].module;
    if (at < 0 || !(hw_.store.taps & ModuleBit(module))) {
      why = Cat("joining ", GroupRef(c.group), " would bury ", Name(m), "'s value inside it while ",
                outside >= 0 ? Name(outside) : std::string("the graph output"),
                " reads it, and ", at < 0 ? std::string("it") : Cat(HwModuleName(module), " results"),
                " cannot be stored (store.taps)");
      return false;
    }
  }
  if (stores > hw_.store.max_outputs) {
    why = Cat(GroupRef(c.group), " would store ", stores, " values; store.max_outputs is ",
              hw_.store.max_outputs);
    return false;
  }
  const HdfgStage& previous = stages_[static_cast<size_t>(group.last_stage)];
  Commit(n, c.group, stage, pulled);
  place_[static_cast<size_t>(n)].placement = Placement::kJoined;
  place_[static_cast<size_t>(n)].reason =
      Cat("stage ", s.name, " after ", previous.name, " in ", GroupRef(c.group));
  return true;
}

/// Why `n` joined none of its inputs' groups.
std::string Walker::StartReason(NodeId n, const std::vector<std::string>& refusals) const {
  if (!refusals.empty()) {
    std::string text;
    for (const std::string& r : refusals) text += (text.empty() ? "" : "; ") + r;
    return text;
  }
  const DfgNode& d = dfg_.nodes[static_cast<size_t>(n)];
  if (d.stream_inputs.empty()) return Cat(d.what, " reads its inputs from memory: it heads a group");
  std::string text;
  for (int32_t k : d.stream_inputs) {
    const TensorId t = graph_.node(n).inputs[static_cast<size_t>(k)];
    const NodeId p = producer_[static_cast<size_t>(t)];
    std::string one;
    if (p < 0) {
      one = graph_.tensor(t).is_constant() ? Cat("reads constant ", Value(t), " as its feature map")
                                            : Cat("reads graph input ", Value(t), " from DRAM");
    } else if (group_of_[static_cast<size_t>(p)] < 0 ||
               dfg_.nodes[static_cast<size_t>(p)].role == DfgRole::kResidualPad) {
      one = Cat("reads ", Value(t), " from ", Name(p), ", which is not on a datapath stage");
    } else if (!groups_[static_cast<size_t>(group_of_[static_cast<size_t>(p)])].opu) {
      one = Cat("reads ", Value(t), " from the CPU (", Name(p), ")");
    } else {
      const int32_t g = group_of_[static_cast<size_t>(p)];
      one = Cat("reads ", Value(t), ", which ", GroupRef(g), " streamed past (it went on to ",
                Name(groups_[static_cast<size_t>(g)].tail), ")");
    }
    text += (text.empty() ? "" : "; ") + one;
  }
  return text;
}

}  // namespace opuc::partition
