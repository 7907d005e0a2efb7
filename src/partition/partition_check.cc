//===- src/partition/partition_check.cc - Is this a partition? ------------===//
//
// Checked from the graph alone: each node in exactly one group and listed
// there; each value read from an earlier group or the group's own (so the
// group graph has no cycle and no path leaves a group and comes back: every
// group is convex); each group connected through its own edges; inputs and
// outputs as the edges say.
//
//===----------------------------------------------------------------------===//
#include <numeric>

#include "opuc/partition/hw_partition.h"
#include "support/format.h"

namespace opuc {
namespace {

int32_t Find(std::vector<int32_t>& parent, int32_t x) {
  while (parent[static_cast<size_t>(x)] != x) {
    parent[static_cast<size_t>(x)] = parent[static_cast<size_t>(parent[static_cast<size_t>(x)])];
    x = parent[static_cast<size_t>(x)];
  }
  return x;
}

}  // namespace

Status CheckHwPartition(const Graph& graph, const HwPartition& p) {
  const size_t n = graph.nodes.size();
  if (p.nodes.size() != n)
    return InvalidArgument(Cat("the partition places ", p.nodes.size(), " nodes; the graph has ", n));
  std::vector<int32_t> group_of(n, -1);
  for (size_t g = 0; g < p.groups.size(); ++g) {
    const HwGroup& group = p.groups[g];
    if (group.id != static_cast<int32_t>(g))
      return InvalidArgument(Cat("group at position ", g, " has id ", group.id));
    if (group.ops.empty()) return InvalidArgument(Cat("group ", g, " is empty"));
    for (NodeId id : group.ops) {
      if (id < 0 || static_cast<size_t>(id) >= n)
        return InvalidArgument(Cat("group ", g, " lists node ", id, ", which does not exist"));
      if (group_of[static_cast<size_t>(id)] >= 0)
        return InvalidArgument(Cat(DescribeNode(graph, id), " is in groups ",
                                   group_of[static_cast<size_t>(id)], " and ", g));
      group_of[static_cast<size_t>(id)] = static_cast<int32_t>(g);
      if (p.nodes[static_cast<size_t>(id)].group != static_cast<int32_t>(g))
        return InvalidArgument(Cat(DescribeNode(graph, id), " is listed in group ", g,
                                   " but placed in ", p.nodes[static_cast<size_t>(id)].group));
    }
  }
  for (size_t id = 0; id < n; ++id)
    if (group_of[id] < 0)
      return InvalidArgument(Cat(DescribeNode(graph, static_cast<NodeId>(id)), " is in no group"));
  const std::vector<NodeId> producer = graph.Producers();
  std::vector<int32_t> parent(n);
  std::iota(parent.begin(), parent.end(), 0);
  for (size_t id = 0; id < n; ++id)
    for (TensorId t : graph.nodes[id].inputs) {
      const NodeId q = t == kNoTensor ? -1 : producer[static_cast<size_t>(t)];
      if (q < 0) continue;
      const int32_t from = group_of[static_cast<size_t>(q)], to = group_of[id];
      if (from > to)
        return InvalidArgument(Cat(DescribeNode(graph, static_cast<NodeId>(id)), " in group ", to,
                                   " reads ", DescribeTensor(graph, t), " from the later group ", from));
      if (from == to) parent[static_cast<size_t>(Find(parent, q))] = Find(parent, static_cast<int32_t>(id));
    }
  for (const HwGroup& group : p.groups)
    for (NodeId id : group.ops)
      if (Find(parent, id) != Find(parent, group.ops.front()))
        return InvalidArgument(Cat("group ", group.id, " is not connected: ", DescribeNode(graph, id),
                                   " has no path to ", DescribeNode(graph, group.ops.front())));
  return OkStatus();
}

}  // namespace opuc
