//===- src/partition/partition_check.cc - Is this a partition? ------------===//
//
// Checked from the graph alone: each node in exactly one group and listed
// there; each value read from an earlier group or the group's own (so the
// group graph has no cycle and no path leaves a group and comes back: every
// group is convex); each group connected through its own edges; inputs and
// outputs as the edges say.
//
//===----------------------------------------------------------------------===//

#include "opuc/ir/id_vector.h"
#include "opuc/partition/hw_partition.h"
#include "support/format.h"

namespace opuc {
namespace {

NodeId Find(IdVector<NodeId, NodeId>& parent, NodeId x) {
  while (parent[x] != x) {
    parent[x] = parent[parent[x]];
    x = parent[x];
  }
  return x;
}

}  // namespace

Status CheckHwPartition(const Graph& graph, const HwPartition& p) {
  const size_t n = graph.nodes.size();
  if (p.nodes.size() != n)
    return InvalidArgument(
        Cat("the partition places ", p.nodes.size(), " nodes; the graph has ", n));
  IdVector<NodeId, int32_t> group_of(n, -1);
  for (size_t position = 0; position < p.groups.size(); ++position) {
    const HwGroup& group = p.groups[position];
    const int32_t g = group.id;
    if (g < 0 || static_cast<size_t>(g) != position)
      return InvalidArgument(Cat("group at position ", position, " has id ", g));
    if (group.ops.empty()) return InvalidArgument(Cat("group ", g, " is empty"));
    for (NodeId id : group.ops) {
      if (id < 0 || static_cast<size_t>(id) >= n)
        return InvalidArgument(Cat("group ", g, " lists node ", id, ", which does not exist"));
      if (group_of[id] >= 0)
        return InvalidArgument(
            Cat(DescribeNode(graph, id), " is in groups ", group_of[id], " and ", g));
      group_of[id] = g;
      if (p.nodes[static_cast<size_t>(id)].group != g)
        return InvalidArgument(Cat(DescribeNode(graph, id), " is listed in group ", g,
                                   " but placed in ", p.nodes[static_cast<size_t>(id)].group));
    }
  }
  const Ids<NodeId> nodes(n);
  for (NodeId id : nodes)
    if (group_of[id] < 0) return InvalidArgument(Cat(DescribeNode(graph, id), " is in no group"));
  const IdVector<TensorId, NodeId> producer(graph.Producers());
  IdVector<NodeId, NodeId> parent(n);
  for (NodeId id : nodes) parent[id] = id;
  for (NodeId id : nodes)
    for (TensorId t : graph.node(id).inputs) {
      const NodeId q = t == kNoTensor ? -1 : producer[t];
      if (q < 0) continue;
      const int32_t from = group_of[q], to = group_of[id];
      if (from > to)
        return InvalidArgument(Cat(DescribeNode(graph, id), " in group ", to, " reads ",
                                   DescribeTensor(graph, t), " from the later group ", from));
      if (from == to) parent[Find(parent, q)] = Find(parent, id);
    }
  for (const HwGroup& group : p.groups)
    for (NodeId id : group.ops)
      if (Find(parent, id) != Find(parent, group.ops.front()))
        return InvalidArgument(Cat("group ", group.id,
                                   " is not connected: ", DescribeNode(graph, id),
                                   " has no path to ", DescribeNode(graph, group.ops.front())));
  return OkStatus();
}

}  // namespace opuc
