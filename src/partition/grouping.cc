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
#include <algorithm>

#include "walker.h"

namespace opuc::partition {

Walker::Walker(const Graph& graph, const HwConfig& hw, const Dfg& dfg)
    : graph_(graph), hw_(hw), dfg_(dfg), stages_(hw.hdfg.stages) {
  producer_ = IdVector<TensorId, NodeId>(graph.Producers());
  readers_.resize(graph.tensors.size());
  graph_output_.assign(graph.tensors.size(), false);
  for (NodeId n : Ids<NodeId>(graph.nodes.size()))
    for (TensorId t : graph.node(n).inputs)
      if (t != kNoTensor) readers_[t].push_back(n);
  for (TensorId t : graph.outputs) graph_output_[t] = true;
  group_of_.assign(graph.nodes.size(), -1);
  place_.resize(graph.nodes.size());
  mark_.assign(graph.nodes.size(), 0);
}

Grouping Walker::Run() {
  for (NodeId n : Ids<NodeId>(graph_.nodes.size())) {
    const DfgNode& d = dfg_.nodes[n];
    if (d.role == DfgRole::kCpu) {
      ReasonPart why = Why(ReasonKind::kNotInDatapath);
      why.what = d.what;
      why.detail = d.cpu_why;
      NewCpu(n, std::move(why));
    }
    if (d.role == DfgRole::kStage) Place(n);
  }
  for (NodeId n : Ids<NodeId>(graph_.nodes.size())) {
    if (group_of_[n] >= 0) continue;
    const bool pad = dfg_.nodes[n].role == DfgRole::kResidualPad;
    ReasonPart why = Why(ReasonKind::kNotInDatapath);
    why.what = dfg_.nodes[n].what;
    why.detail = pad ? "its residual add is not on the datapath"
                     : "computed from constants, and no datapath group collects it";
    NewCpu(n, std::move(why));
  }
  Grouping out;
  out.group_of = group_of_;
  for (const Group& g : groups_) out.group_is_opu.push_back(g.opu);
  out.placements = std::move(place_);
  return out;
}

int32_t Walker::AddGroup(bool opu) {
  Group g;
  g.opu = opu;
  g.used_stage.assign(stages_.size(), false);
  groups_.push_back(std::move(g));
  return static_cast<int32_t>(groups_.size() - 1);
}

void Walker::NewCpu(NodeId n, ReasonPart reason) {
  const int32_t g = AddGroup(false);
  Assign(n, g);
  place_[n].placement = Placement::kCpu;
  place_[n].reason = {std::move(reason)};
}

/// Puts `n` in `g`, recording the groups it reads from.
void Walker::Assign(NodeId n, int32_t g) {
  group_of_[n] = g;
  place_[n].group = g;
  Group& group = groups_[g];
  group.members.push_back(n);
  for (TensorId t : graph_.node(n).inputs) {
    const NodeId p = t == kNoTensor ? -1 : producer_[t];
    const int32_t h = p < 0 ? -1 : group_of_[p];
    if (h >= 0 && h != g &&
        std::find(group.producers.begin(), group.producers.end(), h) == group.producers.end())
      group.producers.push_back(h);
  }
}

/// Whether group `to` depends on group `from` (a path of groups).
bool Walker::Reaches(int32_t from, int32_t to) {
  const uint32_t epoch = ++reach_epoch_;
  std::vector<int32_t> stack = {to};
  if (group_seen_.size() < groups_.size()) group_seen_.resize(groups_.size(), 0);
  while (!stack.empty()) {
    const int32_t g = stack.back();
    stack.pop_back();
    if (g == from) return true;
    if (group_seen_[g] == epoch) continue;
    group_seen_[g] = epoch;
    for (int32_t h : groups_[g].producers) stack.push_back(h);
  }
  return false;
}

/// CollectInputs: the waiting producers `n` pulls in (readers all inside).
std::vector<NodeId> Walker::Collect(NodeId n) {
  std::vector<NodeId> pulled;
  std::vector<NodeId> stack = {n};
  ++epoch_;
  mark_[n] = epoch_;
  while (!stack.empty()) {
    const NodeId m = stack.back();
    stack.pop_back();
    for (TensorId t : graph_.node(m).inputs) {
      const NodeId p = t == kNoTensor ? -1 : producer_[t];
      if (p < 0 || mark_[p] == epoch_) continue;
      // Stops: owned by a group, or a node the walk places itself.
      if (group_of_[p] >= 0) continue;
      const DfgRole role = dfg_.nodes[p].role;
      if (role != DfgRole::kConstantPrep && role != DfgRole::kResidualPad) continue;
      if (!AllReadersMarked(p)) continue;
      mark_[p] = epoch_;
      pulled.push_back(p);
      stack.push_back(p);
    }
  }
  return pulled;
}

bool Walker::AllReadersMarked(NodeId p) const {
  for (TensorId t : graph_.node(p).outputs) {
    if (graph_output_[t]) return false;
    for (NodeId r : readers_[t])
      if (mark_[r] != epoch_) return false;
  }
  return true;
}

void Walker::Commit(NodeId n, int32_t g, int32_t stage, const std::vector<NodeId>& pulled) {
  // Producers before readers, so Assign sees the pulled nodes' groups.
  std::vector<NodeId> order = pulled;
  std::sort(order.begin(), order.end());
  for (NodeId p : order) {
    Assign(p, g);
    place_[p].placement = Placement::kCollected;
    ReasonPart why =
        Why(dfg_.nodes[p].role == DfgRole::kResidualPad ? ReasonKind::kCollectedPad
                                                        : ReasonKind::kCollectedConstant);
    why.node = n;
    place_[p].reason = {why};
  }
  Assign(n, g);
  Group& group = groups_[g];
  const HdfgStage& s = StageAt(stage);
  group.tail = n;
  group.last_stage = stage;
  group.used_stage[stage] = true;
  group.has_ipa = group.has_ipa || s.module == HwModule::kIpa;
  group.has_input_pad =
      group.has_input_pad || (s.module == HwModule::kPad && !group.has_ipa &&
                              (dfg_.nodes[n].request.feeds & ModuleBit(HwModule::kIpa)));
  place_[n].stage = stage;
}

void Walker::Place(NodeId n) {
  const DfgNode& d = dfg_.nodes[n];
  const Node& node = graph_.node(n);
  std::vector<Candidate> candidates;
  for (int32_t k : d.stream_inputs) {
    const TensorId t = node.inputs[static_cast<size_t>(k)];
    const NodeId p = producer_[t];
    const int32_t g = p < 0 ? -1 : group_of_[p];
    if (g < 0 || !groups_[g].opu || groups_[g].tail != p) continue;
    bool seen = false;
    for (const Candidate& c : candidates) seen = seen || c.group == g;
    if (!seen) candidates.push_back({g, k, p});
  }
  // The later producer first: the earlier value already waits in DRAM.
  std::sort(candidates.begin(), candidates.end(),
            [](const Candidate& a, const Candidate& b) { return a.producer > b.producer; });
  Reason refusals;
  for (const Candidate& c : candidates) {
    ReasonPart why;
    if (TryJoin(n, c, why)) return;
    refusals.push_back(std::move(why));
  }
  const int32_t stage = FindMatch(hw_.hdfg, -1, d.request);
  if (stage < 0) {
    ReasonPart why = Why(ReasonKind::kNoHdfgStage);
    why.what = d.what;
    NewCpu(n, std::move(why));
    return;
  }
  const std::vector<NodeId> pulled = Collect(n);
  const int32_t g = AddGroup(true);
  Commit(n, g, stage, pulled);
  place_[n].placement = Placement::kStarted;
  place_[n].reason = StartReason(n, std::move(refusals));
}

Grouping GroupForOpu(const Graph& graph, const HwConfig& hw, const Dfg& dfg) {
  return Walker(graph, hw, dfg).Run();
}

}  // namespace opuc::partition
