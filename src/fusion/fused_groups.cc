//===- src/fusion/fused_groups.cc - The groups FuseMutator rewrites -------===//
#include "fused_groups.h"

#include "support/format.h"

namespace opuc::fusion {

Expected<FusedGroups> CollectFusedGroups(const Graph& graph, const IndexedForwardGraph& forward,
                                         const Partition& partition) {
  if (forward.node_of_op.size() != graph.nodes.size() ||
      forward.node_of_tensor.size() != graph.tensors.size() ||
      partition.group.size() != forward.size() || partition.ops_in_group.size() != forward.size())
    return InvalidArgument("the forward graph and partition are not of this graph");
  FusedGroups groups;
  groups.index_of.assign(forward.size(), -1);
  int32_t count = 0;
  for (size_t n = 0; n < graph.nodes.size(); ++n) {  // number the roots in graph order
    const int32_t f = forward.node_of_op[n];
    if (partition.group[static_cast<size_t>(f)] == f &&
        partition.ops_in_group[static_cast<size_t>(f)] >= 2)
      groups.index_of[static_cast<size_t>(f)] = count++;
  }
  groups.group_of_node.assign(graph.nodes.size(), -1);
  groups.begin.assign(static_cast<size_t>(count) + 1, 0);
  for (size_t n = 0; n < graph.nodes.size(); ++n) {
    const int32_t root = partition.group[static_cast<size_t>(forward.node_of_op[n])];
    const int32_t g = groups.index_of[static_cast<size_t>(root)];
    groups.group_of_node[n] = g;
    if (g >= 0) ++groups.begin[static_cast<size_t>(g) + 1];
  }
  for (size_t g = 0; g < static_cast<size_t>(count); ++g) groups.begin[g + 1] += groups.begin[g];
  groups.members.resize(groups.begin.back());
  std::vector<uint32_t> fill(groups.begin.begin(), groups.begin.end() - 1);
  for (size_t n = 0; n < graph.nodes.size(); ++n) {
    const int32_t g = groups.group_of_node[n];
    if (g >= 0) groups.members[fill[static_cast<size_t>(g)]++] = static_cast<NodeId>(n);
  }
  for (size_t f = 0; f < forward.size(); ++f) {
    const int32_t g = groups.index_of[f];
    if (g < 0) continue;
    const NodeId last = groups.members[groups.begin[static_cast<size_t>(g) + 1] - 1];
    if (forward.node(static_cast<int32_t>(f)).ref != last)
      return InternalError(Cat("the fusion group of ",
                               DescribeForwardNode(forward, &graph, static_cast<int32_t>(f)),
                               " does not end at it"));
  }
  return groups;
}

namespace {

/// Whether `consumer` reads inside group `root`: it is a member, or it is a
/// tuple whose consumers (the concat) are.
bool ReadsInside(const IndexedForwardGraph& forward, const Partition& partition, int32_t consumer,
                 int32_t root) {
  if (partition.group[static_cast<size_t>(consumer)] == root) return true;
  if (!forward.IsTuple(consumer)) return false;
  for (const IndexedForwardGraph::Edge& edge : forward.outputs(consumer))
    if (partition.group[static_cast<size_t>(edge.node)] != root) return false;
  return true;
}

}  // namespace

Status CheckFusedGroups(const IndexedForwardGraph& forward, const Partition& partition,
                        const FusedGroups& groups, const Graph& graph) {
  for (size_t i = 0; i < forward.size(); ++i) {
    const auto id = static_cast<int32_t>(i);
    const int32_t root = partition.group[i];
    if (id == root || groups.index_of[static_cast<size_t>(root)] < 0) continue;
    if (forward.IsSimpleConstant(id)) continue;  // copied into every function that reads it
    auto where = [&] { return DescribeForwardNode(forward, &graph, id); };  // for errors only
    if (forward.node(id).extern_ref)
      return InternalError(Cat(where(), " is a graph output inside a fusion group"));
    for (const IndexedForwardGraph::Edge& edge : forward.outputs(id)) {
      if (!ReadsInside(forward, partition, edge.node, root))
        return InternalError(Cat(where(), " is read by ",
                                 DescribeForwardNode(forward, &graph, edge.node),
                                 ", outside its fusion group"));
      if (forward.IsOp(id) && forward.IsOp(edge.node) &&
          forward.node(edge.node).ref < forward.node(id).ref)
        return InvalidArgument(Cat(DescribeForwardNode(forward, &graph, edge.node),
                                   " reads the result of ", where(),
                                   ", which comes after it (nodes must be in topological order)"));
    }
  }
  return OkStatus();
}

std::vector<TensorId> TensorIdsAfterFusion(const IndexedForwardGraph& forward,
                                           const Partition& partition, const FusedGroups& groups,
                                           const Graph& graph) {
  auto fused_member = [&](int32_t node) {
    return groups.index_of[static_cast<size_t>(partition.group[static_cast<size_t>(node)])] >= 0;
  };
  std::vector<TensorId> ids(graph.tensors.size(), kNoTensor);
  TensorId next = 0;
  for (size_t t = 0; t < graph.tensors.size(); ++t) {
    const int32_t producer = forward.node_of_tensor[t];
    bool moves = false;
    if (producer >= 0 && forward.IsOp(producer)) {
      moves = fused_member(producer) && partition.group[static_cast<size_t>(producer)] != producer;
    } else if (producer >= 0 && forward.IsSimpleConstant(producer) &&
               !forward.node(producer).extern_ref) {
      moves = true;  // unless someone outside the fused groups reads it
      for (const IndexedForwardGraph::Edge& edge : forward.outputs(producer)) {
        if (!forward.IsTuple(edge.node)) {
          moves = moves && fused_member(edge.node);
          continue;
        }
        for (const IndexedForwardGraph::Edge& concat : forward.outputs(edge.node))
          moves = moves && fused_member(concat.node);  // a tuple's readers read the constant
      }
    }
    if (!moves) ids[t] = next++;
  }
  return ids;
}

}  // namespace opuc::fusion
