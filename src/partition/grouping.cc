//===- src/partition/grouping.cc - Seed 002's walk, topological -----------===//
//
// For each node in topological order (nodes waiting to be collected are
// skipped): a CPU node gets a group of its own; a datapath node tries to
// join the group whose last value it streams in (for a residual add, either
// operand's group, the later producer first), and otherwise opens a new
// group matched from the HDFG root. A join needs, in this order:
//
//   1. FindMatch from the group's last stage finds a stage for the node;
//   2. no second ipa, no second input pad, no acyclic stage used twice;
//   3. its other inputs come from outside the group, and not from a group
//      that depends on this one (that would make the groups a cycle);
//   4. every value the join buries inside the group that someone else reads
//      comes from a tappable module, and the group stores at most
//      store.max_outputs values.
//
// CollectInputs (seed 002) then pulls in the node's ungrouped constant-only
// producers and the channel pad of a residual; it stops, as the seed does,
// at a node another group owns, at a grouped node, and at an ungrouped node
// the walk will place itself.
//
//===----------------------------------------------------------------------===//
#include "partition/grouping.h"

#include <algorithm>

#include "support/format.h"

namespace opuc::partition {
namespace {

struct Group {
  bool opu = true;
  std::vector<NodeId> members;
  NodeId tail = -1;
  int32_t last_stage = -1;
  bool has_ipa = false;
  bool has_input_pad = false;
  std::vector<bool> used_stage;
  std::vector<int32_t> producers;  // groups it reads from
};

struct Candidate {
  int32_t group;
  int32_t position;  // the input that streams in
  NodeId producer;
};

class Walker {
 public:
  Walker(const Graph& graph, const HwConfig& hw, const Dfg& dfg)
      : graph_(graph), hw_(hw), dfg_(dfg), stages_(hw.hdfg.stages) {
    producer_ = graph.Producers();
    readers_.resize(graph.tensors.size());
    graph_output_.assign(graph.tensors.size(), false);
    for (size_t n = 0; n < graph.nodes.size(); ++n)
      for (TensorId t : graph.nodes[n].inputs)
        if (t != kNoTensor) readers_[static_cast<size_t>(t)].push_back(static_cast<NodeId>(n));
    for (TensorId t : graph.outputs) graph_output_[static_cast<size_t>(t)] = true;
    group_of_.assign(graph.nodes.size(), -1);
    place_.resize(graph.nodes.size());
    mark_.assign(graph.nodes.size(), 0);
  }

  Grouping Run() {
    for (size_t i = 0; i < graph_.nodes.size(); ++i) {
      const auto n = static_cast<NodeId>(i);
      const DfgNode& d = dfg_.nodes[i];
      if (d.role == DfgRole::kCpu) NewCpu(n, d.cpu_reason);
      if (d.role == DfgRole::kStage) Place(n);
    }
    for (size_t i = 0; i < graph_.nodes.size(); ++i) {
      if (group_of_[i] >= 0) continue;
      const bool pad = dfg_.nodes[i].role == DfgRole::kResidualPad;
      NewCpu(static_cast<NodeId>(i),
             Cat(dfg_.nodes[i].what, pad ? ": its residual add is not on the datapath"
                                         : ": computed from constants, and no datapath group collects it"));
    }
    Grouping out;
    out.group_of = group_of_;
    for (const Group& g : groups_) out.group_is_opu.push_back(g.opu);
    out.placements = std::move(place_);
    return out;
  }

 private:
  std::string Name(NodeId n) const {
    const Node& node = graph_.node(n);
    return node.name.empty() ? Cat("#", n) : node.name;
  }
  std::string Value(TensorId t) const { return Cat("'", graph_.tensor(t).name, "'"); }

  int32_t AddGroup(bool opu) {
    Group g;
    g.opu = opu;
    g.used_stage.assign(stages_.size(), false);
    groups_.push_back(std::move(g));
    return static_cast<int32_t>(groups_.size() - 1);
  }

  void NewCpu(NodeId n, std::string reason) {
    const int32_t g = AddGroup(false);
    Assign(n, g);
    place_[static_cast<size_t>(n)].placement = Placement::kCpu;
    place_[static_cast<size_t>(n)].reason = std::move(reason);
  }

  /// Puts `n` in `g`, recording the groups it reads from.
  void Assign(NodeId n, int32_t g) {
    group_of_[static_cast<size_t>(n)] = g;
    place_[static_cast<size_t>(n)].group = g;
    Group& group = groups_[static_cast<size_t>(g)];
    group.members.push_back(n);
    for (TensorId t : graph_.node(n).inputs) {
      const NodeId p = t == kNoTensor ? -1 : producer_[static_cast<size_t>(t)];
      const int32_t h = p < 0 ? -1 : group_of_[static_cast<size_t>(p)];
      if (h >= 0 && h != g && std::find(group.producers.begin(), group.producers.end(), h) ==
                                  group.producers.end())
        group.producers.push_back(h);
    }
  }

  /// Whether group `to` depends on group `from` (a path of groups).
  bool Reaches(int32_t from, int32_t to) {
    const uint32_t epoch = ++reach_epoch_;
    std::vector<int32_t> stack = {to};
    if (group_seen_.size() < groups_.size()) group_seen_.resize(groups_.size(), 0);
    while (!stack.empty()) {
      const int32_t g = stack.back();
      stack.pop_back();
      if (g == from) return true;
      if (group_seen_[static_cast<size_t>(g)] == epoch) continue;
      group_seen_[static_cast<size_t>(g)] = epoch;
      for (int32_t h : groups_[static_cast<size_t>(g)].producers) stack.push_back(h);
    }
    return false;
  }

  /// CollectInputs: the waiting producers `n` pulls in (readers all inside).
  std::vector<NodeId> Collect(NodeId n) {
    std::vector<NodeId> pulled;
    std::vector<NodeId> stack = {n};
    ++epoch_;
    mark_[static_cast<size_t>(n)] = epoch_;
    while (!stack.empty()) {
      const NodeId m = stack.back();
      stack.pop_back();
      for (TensorId t : graph_.node(m).inputs) {
        const NodeId p = t == kNoTensor ? -1 : producer_[static_cast<size_t>(t)];
        if (p < 0 || mark_[static_cast<size_t>(p)] == epoch_) continue;
        // Stops: owned by a group, or a node the walk places itself.
        if (group_of_[static_cast<size_t>(p)] >= 0) continue;
        const DfgRole role = dfg_.nodes[static_cast<size_t>(p)].role;
        if (role != DfgRole::kConstantPrep && role != DfgRole::kResidualPad) continue;
        if (!AllReadersMarked(p)) continue;
        mark_[static_cast<size_t>(p)] = epoch_;
        pulled.push_back(p);
        stack.push_back(p);
      }
    }
    return pulled;
  }

  bool AllReadersMarked(NodeId p) const {
    for (TensorId t : graph_.node(p).outputs) {
      if (graph_output_[static_cast<size_t>(t)]) return false;
      for (NodeId r : readers_[static_cast<size_t>(t)])
        if (mark_[static_cast<size_t>(r)] != epoch_) return false;
    }
    return true;
  }

  std::string NoStage(int32_t g, const DfgNode& d) const {
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
  bool TryJoin(NodeId n, const Candidate& c, std::string& why) {
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

  void Commit(NodeId n, int32_t g, int32_t stage, const std::vector<NodeId>& pulled) {
    // Producers before readers, so Assign sees the pulled nodes' groups.
    std::vector<NodeId> order = pulled;
    std::sort(order.begin(), order.end());
    for (NodeId p : order) {
      Assign(p, g);
      place_[static_cast<size_t>(p)].placement = Placement::kCollected;
      place_[static_cast<size_t>(p)].reason =
          dfg_.nodes[static_cast<size_t>(p)].role == DfgRole::kResidualPad
              ? Cat("collected by ", Name(n), ": the res_adder reads the missing channels as zeros")
              : Cat("collected by ", Name(n), ": computed from constants when weights are packed");
    }
    Assign(n, g);
    Group& group = groups_[static_cast<size_t>(g)];
    const HdfgStage& s = stages_[static_cast<size_t>(stage)];
    group.tail = n;
    group.last_stage = stage;
    group.used_stage[static_cast<size_t>(stage)] = true;
    group.has_ipa = group.has_ipa || s.module == HwModule::kIpa;
    group.has_input_pad = group.has_input_pad ||
                          (s.module == HwModule::kPad && !group.has_ipa &&
                           (dfg_.nodes[static_cast<size_t>(n)].request.feeds & ModuleBit(HwModule::kIpa)));
    place_[static_cast<size_t>(n)].stage = stage;
  }

  /// Why `n` joined none of its inputs' groups.
  std::string StartReason(NodeId n, const std::vector<std::string>& refusals) const {
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

  void Place(NodeId n) {
    const DfgNode& d = dfg_.nodes[static_cast<size_t>(n)];
    const Node& node = graph_.node(n);
    std::vector<Candidate> candidates;
    for (int32_t k : d.stream_inputs) {
      const TensorId t = node.inputs[static_cast<size_t>(k)];
      const NodeId p = producer_[static_cast<size_t>(t)];
      const int32_t g = p < 0 ? -1 : group_of_[static_cast<size_t>(p)];
      if (g < 0 || !groups_[static_cast<size_t>(g)].opu || groups_[static_cast<size_t>(g)].tail != p)
        continue;
      bool seen = false;
      for (const Candidate& c : candidates) seen = seen || c.group == g;
      if (!seen) candidates.push_back({g, k, p});
    }
    // The later producer first: the earlier value already waits in DRAM.
    std::sort(candidates.begin(), candidates.end(),
              [](const Candidate& a, const Candidate& b) { return a.producer > b.producer; });
    std::vector<std::string> refusals;
    for (const Candidate& c : candidates) {
      std::string why;
      if (TryJoin(n, c, why)) return;
      refusals.push_back(std::move(why));
    }
    const int32_t stage = FindMatch(hw_.hdfg, -1, d.request);
    if (stage < 0) {
      NewCpu(n, Cat(d.what, ": no stage of this OPU's HDFG runs it"));
      return;
    }
    const std::vector<NodeId> pulled = Collect(n);
    const int32_t g = AddGroup(true);
    Commit(n, g, stage, pulled);
    place_[static_cast<size_t>(n)].placement = Placement::kStarted;
    place_[static_cast<size_t>(n)].reason = StartReason(n, refusals);
  }

  const Graph& graph_;
  const HwConfig& hw_;
  const Dfg& dfg_;
  const std::vector<HdfgStage>& stages_;
  std::vector<NodeId> producer_;
  std::vector<std::vector<NodeId>> readers_;
  std::vector<bool> graph_output_;
  std::vector<int32_t> group_of_;
  std::vector<Group> groups_;
  std::vector<NodePlacement> place_;
  std::vector<uint32_t> mark_;
  std::vector<uint32_t> group_seen_;
  uint32_t epoch_ = 0;        // marks of the nodes in a tentative group
  uint32_t reach_epoch_ = 0;  // marks of Reaches' search
};

}  // namespace

std::string GroupRef(int32_t internal) { return Cat("group {g:", internal, "}"); }

Grouping GroupForOpu(const Graph& graph, const HwConfig& hw, const Dfg& dfg) {
  return Walker(graph, hw, dfg).Run();
}

}  // namespace opuc::partition
