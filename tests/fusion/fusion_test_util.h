// Shared helpers for the fusion tests: partition an IR graph and read the
// groups back as the names of their ops, and check a partition's invariants
// independently of the code that made it.
#ifndef OPUC_TESTS_FUSION_FUSION_TEST_UTIL_H
#define OPUC_TESTS_FUSION_FUSION_TEST_UTIL_H

#include <map>
#include <string>
#include <vector>

#include "opuc/fusion/graph_partitioner.h"
#include "opuc/fusion/indexed_forward_graph.h"
#include "pass/pass_test_util.h"

namespace opuc::testing {

// Shorthands for the pattern kinds the tests spell out node by node.
inline constexpr auto kElemWise = OpPatternKind::kElemWise;
inline constexpr auto kBroadcast = OpPatternKind::kBroadcast;
inline constexpr auto kInjective = OpPatternKind::kInjective;
inline constexpr auto kFusable = OpPatternKind::kOutEWiseFusable;
inline constexpr auto kOpaque = OpPatternKind::kOpaque;

struct Partitioned {
  IndexedForwardGraph forward;
  Partition partition;
};

inline Partitioned PartitionIr(const Graph& graph, FuseOptions options = {}) {
  Expected<IndexedForwardGraph> forward = BuildIndexedForwardGraph(graph);
  REQUIRE_MESSAGE(forward.ok(), forward.status().ToString());
  Expected<Partition> partition = PartitionGraph(*forward, options);
  REQUIRE_MESSAGE(partition.ok(), partition.status().ToString());
  return {std::move(forward).value(), std::move(partition).value()};
}

/// Each group with at least one op as "a,b,c": the names of its IR nodes in
/// graph order; groups in the order of their last node.
inline Lines OpGroups(const Graph& graph, const Partitioned& p) {
  std::map<int32_t, std::vector<NodeId>> members;  // by root
  for (size_t n = 0; n < graph.nodes.size(); ++n) {
    const int32_t f = p.forward.node_of_op[n];
    members[p.partition.group[static_cast<size_t>(f)]].push_back(static_cast<NodeId>(n));
  }
  std::map<NodeId, std::string> by_last;
  for (const auto& [root, nodes] : members) {
    std::string text;
    for (NodeId n : nodes) text += (text.empty() ? "" : ",") + graph.node(n).name;
    by_last[nodes.back()] = text;
  }
  Lines lines;
  for (const auto& [last, text] : by_last) lines.push_back(text);
  return lines;
}

/// The decision of the IR node called `name`.
inline const FuseDecision& DecisionOf(const Graph& graph, const Partitioned& p,
                                      const std::string& name) {
  for (size_t n = 0; n < graph.nodes.size(); ++n)
    if (graph.nodes[n].name == name)
      return p.partition.decisions[static_cast<size_t>(p.forward.node_of_op[n])];
  FAIL("no node called " << name);
  static FuseDecision none;
  return none;
}

/// The text of that decision.
inline std::string ReasonOf(const Graph& graph, const Partitioned& p, const std::string& name) {
  return DescribeDecision(p.forward, &graph, DecisionOf(graph, p, name));
}

/// Checks, from the graph alone: every node in exactly one group named by a
/// member; only the group's last node (in topological order) is read from
/// outside or is a graph output; no path leaves a group and comes back.
/// One-element constants are exempt: FuseMutator copies them.
inline void CheckPartitionInvariants(const IndexedForwardGraph& g, const Partition& p) {
  const size_t n = g.size();
  REQUIRE(p.group.size() == n);
  std::vector<int32_t> last(n, -1);
  for (size_t i = 0; i < n; ++i) {
    const int32_t root = p.group[i];
    REQUIRE(root >= 0);
    REQUIRE(static_cast<size_t>(root) < n);
    REQUIRE(p.group[static_cast<size_t>(root)] == root);  // the root is in its own group
    last[static_cast<size_t>(root)] =
        std::max(last[static_cast<size_t>(root)], static_cast<int32_t>(i));
  }
  for (size_t i = 0; i < n; ++i) {
    const auto id = static_cast<int32_t>(i);
    const int32_t root = p.group[i];
    CHECK(last[static_cast<size_t>(root)] == root);  // the root is the group's last node
    // A one-element constant is copied into every function that reads it.
    if (id == root || g.IsSimpleConstant(id)) continue;
    CHECK_FALSE(g.node(id).extern_ref);
    for (const auto& edge : g.outputs(id)) CHECK(p.group[static_cast<size_t>(edge.node)] == root);
  }
  // Convexity by search: from every edge leaving a group, nothing reachable
  // (before the group's root) is back in the group.
  for (size_t i = 0; i < n; ++i) {
    const int32_t root = p.group[i];
    if (g.IsSimpleConstant(static_cast<int32_t>(i))) continue;
    for (const auto& edge : g.outputs(static_cast<int32_t>(i))) {
      if (p.group[static_cast<size_t>(edge.node)] == root) continue;
      std::vector<int32_t> stack = {edge.node};
      std::vector<bool> seen(n, false);
      while (!stack.empty()) {
        const int32_t v = stack.back();
        stack.pop_back();
        if (seen[static_cast<size_t>(v)] || v > root) continue;
        seen[static_cast<size_t>(v)] = true;
        CHECK_MESSAGE(p.group[static_cast<size_t>(v)] != root,
                      "group #" << root << " is not convex");
        for (const auto& e : g.outputs(v)) stack.push_back(e.node);
      }
    }
  }
}

}  // namespace opuc::testing

#endif  // OPUC_TESTS_FUSION_FUSION_TEST_UTIL_H
