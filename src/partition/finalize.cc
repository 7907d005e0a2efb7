//===- src/partition/finalize.cc - Groups in execution order --------------===//
//
// Orders the groups so that every group comes after the groups it reads
// from (Kahn's algorithm; among ready groups the one whose first op comes
// first in the graph), numbers them in that order, and lists each group's
// ops, inputs, constants, outputs and MACs. The groups that reasons name get
// their final numbers.
//
//===----------------------------------------------------------------------===//
#include <functional>
#include <queue>
#include <set>

#include "grouping.h"
#include "opuc/ir/macs.h"
#include "support/format.h"

namespace opuc::partition {
namespace {

/// Internal group ids in `reason` become the final ones. The group a
/// refusal waited on may since have merged into another (FuseCpuGroups):
/// it is named by where its value ended up.
void Renumber(Reason& reason, const IdVector<int32_t, int32_t>& final_id, const Grouping& grouping,
              const IdVector<TensorId, NodeId>& producer) {
  auto map = [&](int32_t& g) {
    if (g >= 0) g = final_id[g];
  };
  for (ReasonPart& part : reason) {
    map(part.group);
    if (part.kind == ReasonKind::kWaitForItself)
      part.other_group = grouping.group_of[producer[part.tensor]];
    map(part.other_group);
  }
}

void AddOnce(Reason& reason, const ReasonPart& part) {
  for (const ReasonPart& x : reason)
    if (x.kind == part.kind && x.what == part.what && x.detail == part.detail) return;
  reason.push_back(part);
}

void AddOnce(std::vector<TensorId>& list, TensorId t) {
  for (TensorId x : list)
    if (x == t) return;
  list.push_back(t);
}

}  // namespace

Expected<HwPartition> Finalize(const Graph& graph, const HwConfig& hw, Grouping grouping) {
  const size_t internal_count = grouping.group_is_opu.size();
  const IdVector<TensorId, NodeId> producer(graph.Producers());
  const Ids<NodeId> nodes(graph.nodes.size());
  const Ids<int32_t> groups(internal_count);
  IdVector<int32_t, std::vector<NodeId>> members(internal_count);
  for (NodeId n : nodes) members[grouping.group_of[n]].push_back(n);

  // The group graph: an edge per distinct (producer group, reader group).
  IdVector<int32_t, std::set<int32_t>> successors(internal_count);
  IdVector<int32_t, int32_t> indegree(internal_count, 0);
  for (NodeId n : nodes)
    for (TensorId t : graph.node(n).inputs) {
      const NodeId p = t == kNoTensor ? -1 : producer[t];
      if (p < 0) continue;
      const int32_t from = grouping.group_of[p], to = grouping.group_of[n];
      if (from != to && successors[from].insert(to).second) ++indegree[to];
    }
  // Ready groups by their first op (members are in node order).
  using Entry = std::pair<NodeId, int32_t>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> ready;
  for (int32_t g : groups)
    if (!members[g].empty() && indegree[g] == 0) ready.push({members[g].front(), g});
  IdVector<int32_t, int32_t> final_id(internal_count, -1);
  std::vector<int32_t> order;
  while (!ready.empty()) {
    const int32_t g = ready.top().second;
    ready.pop();
    final_id[g] = static_cast<int32_t>(order.size());
    order.push_back(g);
    for (int32_t s : successors[g])
      if (--indegree[s] == 0) ready.push({members[s].front(), s});
  }
  for (int32_t g : groups)
    if (!members[g].empty() && final_id[g] < 0)
      return InternalError(Cat("the groups depend on each other in a cycle; the group of ",
                               DescribeNode(graph, members[g].front()), " is on it"));

  IdVector<TensorId, std::vector<NodeId>> readers(graph.tensors.size());
  for (NodeId n : nodes)
    for (TensorId t : graph.node(n).inputs)
      if (t != kNoTensor) readers[t].push_back(n);
  IdVector<TensorId, bool> graph_output(graph.tensors.size(), false);
  for (TensorId t : graph.outputs) graph_output[t] = true;
  HwPartition result;
  result.hw_name = hw.name;
  for (const HdfgStage& stage : hw.hdfg.stages) result.stages.push_back(stage.name);
  for (int32_t g : order) {
    HwGroup group;
    group.id = static_cast<int32_t>(result.groups.size());
    group.kind = grouping.group_is_opu[g] ? GroupKind::kOpu : GroupKind::kCpu;
    group.ops = members[g];
    for (NodeId n : group.ops) {
      const Node& node = graph.node(n);
      for (TensorId t : node.inputs) {
        if (t == kNoTensor) continue;
        const NodeId p = producer[t];
        if (graph.tensor(t).is_constant())
          AddOnce(group.constants, t);
        else if (p < 0 || grouping.group_of[p] != g)
          AddOnce(group.inputs, t);
      }
      group.macs += NodeMacs(graph, n);
      NodePlacement& place = grouping.placements[n];
      place.group = group.id;
      Renumber(place.reason, final_id, grouping, producer);
      if (group.kind == GroupKind::kCpu)
        for (const ReasonPart& part : place.reason) AddOnce(group.reason, part);
      if (group.kind == GroupKind::kOpu && place.placement == Placement::kStarted)
        group.reason = place.reason;
    }
    for (NodeId n : group.ops)
      for (TensorId t : graph.node(n).outputs) {
        bool outside = graph_output[t];
        for (NodeId r : readers[t]) outside = outside || grouping.group_of[r] != g;
        if (outside) AddOnce(group.outputs, t);
      }
    const int64_t ops = static_cast<int64_t>(group.ops.size());
    (group.kind == GroupKind::kOpu ? result.opu_ops : result.cpu_ops) += ops;
    if (group.kind == GroupKind::kOpu) result.opu_macs += group.macs;
    result.total_macs += group.macs;
    result.groups.push_back(std::move(group));
  }
  result.nodes = std::move(grouping.placements).items();
  return result;
}

}  // namespace opuc::partition
