//===- src/partition/cpu_fusion.cc - FuseOps over the CPU nodes -----------===//
//
// The CPU nodes are grouped by the generic partitioner (src/fusion, TVM's
// FuseOps) run on the whole forward graph with every OPU node, and the
// tuple in front of an OPU concat, made opaque and every edge into them
// opaque. An opaque node never fuses, no rule fuses into an opaque
// post-dominator, and CheckPath refuses any path through one, so a CPU
// group never holds or straddles an OPU node: the groups FuseOps would make
// of the CPU ops alone, in their place in the graph.
//
//===----------------------------------------------------------------------===//
#include <map>

#include "grouping.h"
#include "opuc/fusion/fuse_mutator.h"
#include "opuc/fusion/graph_partitioner.h"
#include "opuc/fusion/indexed_forward_graph.h"
#include "opuc/partition/hw_partition.h"
#include "support/format.h"

namespace opuc::partition {
namespace {

using Kind = IndexedForwardGraph::NodeKind;

IndexedForwardGraph Restrict(const IndexedForwardGraph& full, const std::vector<bool>& on_opu) {
  IndexedForwardGraph restricted;
  restricted.Reserve(full.size(), full.num_edges());
  std::vector<bool> opaque(full.size(), false);
  for (size_t i = 0; i < full.size(); ++i) {
    IndexedForwardGraph::Node node = full.node(static_cast<int32_t>(i));
    const bool op_like = node.kind == Kind::kOp || node.kind == Kind::kTuple;
    if (op_like && node.ref >= 0 && on_opu[static_cast<size_t>(node.ref)]) {
      node.pattern = OpPatternKind::kOpaque;
      opaque[i] = true;
    }
    restricted.AddNode(node);
  }
  for (size_t i = 0; i < full.size(); ++i)
    for (const auto& edge : full.outputs(static_cast<int32_t>(i))) {
      const OpPatternKind pattern =
          opaque[static_cast<size_t>(edge.node)] ? OpPatternKind::kOpaque : edge.pattern;
      // Both ends exist and the producer comes first: AddEdge cannot fail here.
      restricted.AddEdge(static_cast<int32_t>(i), edge.node, pattern).IgnoreError();
    }
  restricted.Finalize();
  restricted.node_of_op = full.node_of_op;
  restricted.node_of_tensor = full.node_of_tensor;
  return restricted;
}

struct CpuPartition {
  IndexedForwardGraph forward;  // the whole graph's, the OPU nodes opaque
  Partition partition;
};

Expected<CpuPartition> PartitionCpuNodes(const Graph& graph, const std::vector<bool>& on_opu) {
  OPUC_ASSIGN_OR_RETURN(const IndexedForwardGraph full, BuildIndexedForwardGraph(graph));
  CpuPartition cpu{Restrict(full, on_opu), {}};
  OPUC_ASSIGN_OR_RETURN(cpu.partition, PartitionGraph(cpu.forward, FuseOptions{}));
  return cpu;
}

}  // namespace

Status FuseCpuGroups(const Graph& graph, Grouping& grouping) {
  std::vector<bool> on_opu(graph.nodes.size(), false);
  for (NodeId n : Ids<NodeId>(graph.nodes.size()))
    on_opu[static_cast<size_t>(n)] = grouping.group_is_opu[grouping.group_of[n]];
  OPUC_ASSIGN_OR_RETURN(const CpuPartition cpu, PartitionCpuNodes(graph, on_opu));
  const IndexedForwardGraph& full = cpu.forward;
  const Partition& fused = cpu.partition;
  // One internal group per FuseOps root, reusing the first member's group.
  std::map<int32_t, int32_t> group_of_root;
  for (NodeId n : Ids<NodeId>(graph.nodes.size())) {
    if (on_opu[static_cast<size_t>(n)]) continue;
    const int32_t root = fused.group[static_cast<size_t>(full.node_of_op[static_cast<size_t>(n)])];
    const IndexedForwardGraph::Node& r = full.node(root);
    if (r.kind == Kind::kOp && on_opu[static_cast<size_t>(r.ref)])
      return InternalError(Cat("FuseOps put CPU ", DescribeNode(graph, n), " with OPU ",
                               DescribeNode(graph, r.ref)));
    auto [it, fresh] = group_of_root.emplace(root, grouping.group_of[n]);
    grouping.group_of[n] = it->second;
    grouping.placements[n].group = it->second;
    (void)fresh;
  }
  return OkStatus();
}

}  // namespace opuc::partition

namespace opuc {

Expected<CpuFunctions> FuseCpuFunctions(const Graph& graph, const HwPartition& partition) {
  std::vector<bool> on_opu(graph.nodes.size(), false);
  for (const HwGroup& group : partition.groups)
    for (NodeId n : group.ops)
      if (group.kind == GroupKind::kOpu) on_opu[static_cast<size_t>(n)] = true;
  OPUC_ASSIGN_OR_RETURN(const partition::CpuPartition cpu,
                        partition::PartitionCpuNodes(graph, on_opu));
  CpuFunctions functions{graph, {}, 0};
  OPUC_ASSIGN_OR_RETURN(
      const FuseCounts counts,
      ApplyPartition(functions.graph, cpu.forward, cpu.partition, &functions.renumbering));
  functions.fused_nodes = counts.fused_nodes;
  return functions;
}

}  // namespace opuc
