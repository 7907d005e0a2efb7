//===- src/partition/finalize.cc - Groups in execution order --------------===//
//
// Orders the groups so that every group comes after the groups it reads
// from (Kahn's algorithm; among ready groups the one whose first op comes
// first in the graph), numbers them in that order, and lists each group's
// ops, inputs, constants, outputs and MACs. Reasons written with internal
// group references ("{g:K}") get the final numbers.
//
//===----------------------------------------------------------------------===//
#include <functional>
#include <queue>
#include <set>

#include "opuc/partition/macs.h"
#include "grouping.h"
#include "support/format.h"

namespace opuc::partition {
namespace {

std::string Renumber(const std::string& text, const std::vector<int32_t>& final_id) {
  std::string out;
  size_t pos = 0;
  for (;;) {
    const size_t open = text.find("{g:", pos);
    if (open == std::string::npos) break;
    const size_t close = text.find('}', open);
    if (close == std::string::npos) break;
    const int64_t internal = std::stoll(text.substr(open + 3, close - open - 3));
    out += text.substr(pos, open - pos);
    const bool known = internal >= 0 && static_cast<size_t>(internal) < final_id.size() &&
                       final_id[static_cast<size_t>(internal)] >= 0;
    out += known ? std::to_string(final_id[static_cast<size_t>(internal)]) : "?";
    pos = close + 1;
  }
  return out + text.substr(pos);
}

void AddOnce(std::vector<TensorId>& list, TensorId t) {
  for (TensorId x : list)
    if (x == t) return;
  list.push_back(t);
}

}  // namespace

Expected<HwPartition> Finalize(const Graph& graph, const HwConfig& hw, Grouping grouping) {
  const size_t internal_count = grouping.group_is_opu.size();
  const std::vector<NodeId> producer = graph.Producers();
  std::vector<std::vector<NodeId>> members(internal_count);
  for (size_t n = 0; n < graph.nodes.size(); ++n)
    members[static_cast<size_t>(grouping.group_of[n])].push_back(static_cast<NodeId>(n));

  // The group graph: an edge per distinct (producer group, reader group).
  std::vector<std::set<int32_t>> successors(internal_count);
  std::vector<int32_t> indegree(internal_count, 0);
  for (size_t n = 0; n < graph.nodes.size(); ++n)
    for (TensorId t : graph.nodes[n].inputs) {
      const NodeId p = t == kNoTensor ? -1 : producer[static_cast<size_t>(t)];
      if (p < 0) continue;
      const int32_t from = grouping.group_of[static_cast<size_t>(p)], to = grouping.group_of[n];
      if (from != to && successors[static_cast<size_t>(from)].insert(to).second)
        ++indegree[static_cast<size_t>(to)];
    }
  // Ready groups by their first op (members are in node order).
  using Entry = std::pair<NodeId, int32_t>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> ready;
  for (size_t g = 0; g < internal_count; ++g)
    if (!members[g].empty() && indegree[g] == 0) ready.push({members[g].front(), static_cast<int32_t>(g)});
  std::vector<int32_t> final_id(internal_count, -1);
  std::vector<int32_t> order;
  while (!ready.empty()) {
    const int32_t g = ready.top().second;
    ready.pop();
    final_id[static_cast<size_t>(g)] = static_cast<int32_t>(order.size());
    order.push_back(g);
    for (int32_t s : successors[static_cast<size_t>(g)])
      if (--indegree[static_cast<size_t>(s)] == 0) ready.push({members[static_cast<size_t>(s)].front(), s});
  }
  for (size_t g = 0; g < internal_count; ++g)
    if (!members[g].empty() && final_id[g] < 0)
      return InternalError(Cat("the groups depend on each other in a cycle; the group of ",
                               DescribeNode(graph, members[g].front()), " is on it"));

  std::vector<std::vector<NodeId>> readers(graph.tensors.size());
  for (size_t n = 0; n < graph.nodes.size(); ++n)
    for (TensorId t : graph.nodes[n].inputs)
      if (t != kNoTensor) readers[static_cast<size_t>(t)].push_back(static_cast<NodeId>(n));
  std::vector<bool> graph_output(graph.tensors.size(), false);
  for (TensorId t : graph.outputs) graph_output[static_cast<size_t>(t)] = true;
  HwPartition result;
  result.hw_name = hw.name;
  for (int32_t g : order) {
    HwGroup group;
    group.id = static_cast<int32_t>(result.groups.size());
    group.kind = grouping.group_is_opu[static_cast<size_t>(g)] ? GroupKind::kOpu : GroupKind::kCpu;
    group.ops = members[static_cast<size_t>(g)];
    std::set<std::string> cpu_reasons;
    for (NodeId n : group.ops) {
      const Node& node = graph.node(n);
      for (TensorId t : node.inputs) {
        if (t == kNoTensor) continue;
        const NodeId p = producer[static_cast<size_t>(t)];
        if (graph.tensor(t).is_constant()) AddOnce(group.constants, t);
        else if (p < 0 || grouping.group_of[static_cast<size_t>(p)] != g) AddOnce(group.inputs, t);
      }
      group.macs += NodeMacs(graph, n);
      NodePlacement& place = grouping.placements[static_cast<size_t>(n)];
      place.group = group.id;
      place.reason = Renumber(place.reason, final_id);
      if (group.kind == GroupKind::kCpu && cpu_reasons.insert(place.reason).second)
        group.reason += (group.reason.empty() ? "" : "; ") + place.reason;
      if (group.kind == GroupKind::kOpu && place.placement == Placement::kStarted) group.reason = place.reason;
    }
    for (NodeId n : group.ops)
      for (TensorId t : graph.node(n).outputs) {
        bool outside = graph_output[static_cast<size_t>(t)];
        for (NodeId r : readers[static_cast<size_t>(t)])
          outside = outside || grouping.group_of[static_cast<size_t>(r)] != g;
        if (outside) AddOnce(group.outputs, t);
      }
    const int64_t ops = static_cast<int64_t>(group.ops.size());
    (group.kind == GroupKind::kOpu ? result.opu_ops : result.cpu_ops) += ops;
    if (group.kind == GroupKind::kOpu) result.opu_macs += group.macs;
    result.total_macs += group.macs;
    result.groups.push_back(std::move(group));
  }
  result.nodes = std::move(grouping.placements);
  return result;
}

}  // namespace opuc::partition
