// The post-dominator tree: small graphs whose trees are drawn by hand, and
// the binary-lifting builder against TVM's walk on 1,000 seeded random DAGs
// (random, deep chains with long skips, wide fan-outs, nested diamonds,
// ladders): the same parent and depth for every node, and the same combined
// pattern wherever a parent exists.
#include <doctest/doctest.h>

#include "fusion/fusion_test_util.h"
#include "fusion/random_dag.h"
#include "opuc/fusion/post_dominator_tree.h"

namespace opuc {
namespace {

using namespace testing;
using Kind = IndexedForwardGraph::NodeKind;

IndexedForwardGraph Make(const std::vector<OpPatternKind>& patterns,
                         const std::vector<std::tuple<int32_t, int32_t, OpPatternKind>>& edges,
                         const std::vector<int32_t>& externs) {
  IndexedForwardGraph g;
  for (OpPatternKind pattern : patterns) g.AddNode({Kind::kOp, pattern, false, -1});
  for (int32_t e : externs) g.set_extern_ref(e);
  for (const auto& [from, to, pattern] : edges) REQUIRE(g.AddEdge(from, to, pattern).ok());
  g.Finalize();
  return g;
}

TEST_CASE("a diamond: the fork's post-dominator is the join, with the worst pattern on the way") {
  //        0                  post-dominator tree:
  //      /   \   (edges point          4
  //     1     2   down)                |
  //      \   /                         3
  //        3                         / | \   (a node's parent
  //        |                        0  1  2   is above it)
  //        4 (graph output)
  IndexedForwardGraph g = Make({kElemWise, kElemWise, kInjective, kBroadcast, kElemWise},
                               {{0, 1, kElemWise},
                                {0, 2, kInjective},
                                {1, 3, kElemWise},
                                {2, 3, kBroadcast},
                                {3, 4, kElemWise}},
                               {4});
  for (const PostDominatorTree& tree :
       {BuildPostDominatorTree(g), BuildPostDominatorTreeTvmWalk(g)}) {
    CHECK(tree.parent == std::vector<int32_t>{3, 3, 3, 4, -1});
    CHECK(tree.depth == std::vector<int32_t>{3, 3, 3, 2, 1});
    // 0 -> 3: edges elemwise and injective, tree nodes 1 (elemwise) and 2 (broadcast).
    CHECK(tree.pattern[0] == kInjective);
    CHECK(tree.pattern[2] == kBroadcast);
  }
}

TEST_CASE("no post-dominator: graph outputs, consumers that never meet, dead ends") {
  // 0 feeds the two outputs 1 and 2; 3 has no consumer at all.
  IndexedForwardGraph g = Make({kElemWise, kElemWise, kElemWise, kElemWise},
                               {{0, 1, kElemWise}, {0, 2, kElemWise}}, {1, 2});
  PostDominatorTree fast = BuildPostDominatorTree(g);
  PostDominatorTree tvm = BuildPostDominatorTreeTvmWalk(g);
  CHECK(fast.parent == std::vector<int32_t>{-1, -1, -1, -1});
  CHECK(tvm.parent == fast.parent);
  CHECK(fast.depth == std::vector<int32_t>{1, 1, 1, 1});
  CHECK(fast.pattern[1] == kOpaque);   // a graph output, as TVM gives it
  CHECK(tvm.pattern[3] == kElemWise);  // TVM's value for a dead end; never read
}

TEST_CASE("the forward graph rejects backward edges and unknown nodes") {
  IndexedForwardGraph g;
  g.AddNode({});
  g.AddNode({});
  CHECK(g.AddEdge(1, 0, kElemWise).code() == StatusCode::kInvalidArgument);
  CHECK(g.AddEdge(0, 2, kElemWise).code() == StatusCode::kInvalidArgument);
  CHECK(g.AddEdge(0, 0, kElemWise).code() == StatusCode::kInvalidArgument);
  CHECK(g.AddEdge(0, 1, kElemWise).ok());
  g.Finalize();
  CHECK(g.AddEdge(0, 1, kElemWise).code() == StatusCode::kInternal);
}

void CheckSameTree(const IndexedForwardGraph& g, const PostDominatorTree& fast,
                   const PostDominatorTree& tvm) {
  REQUIRE(fast.parent.size() == g.size());
  for (size_t i = 0; i < g.size(); ++i) {
    CAPTURE(i);
    REQUIRE(fast.parent[i] == tvm.parent[i]);
    REQUIRE(fast.depth[i] == tvm.depth[i]);
    if (fast.parent[i] >= 0) REQUIRE(fast.pattern[i] == tvm.pattern[i]);
  }
}

TEST_CASE("binary lifting and TVM's walk agree on 1,000 random DAGs") {
  Rng sizes(2024);
  int with_parent = 0, deepest = 0;
  for (uint64_t seed = 0; seed < 1000; ++seed) {
    const DagShape shape = kDagShapes[seed % std::size(kDagShapes)];
    // Mostly small graphs, every tenth up to 3,000 nodes (deep trees).
    const int nodes = seed % 10 == 9 ? 500 + sizes.Below(2500) : 2 + sizes.Below(300);
    CAPTURE(seed);
    CAPTURE(DagShapeName(shape));
    CAPTURE(nodes);
    const IndexedForwardGraph g = RandomForwardGraph(shape, nodes, seed);
    const PostDominatorTree fast = BuildPostDominatorTree(g);
    const PostDominatorTree tvm = BuildPostDominatorTreeTvmWalk(g);
    CheckSameTree(g, fast, tvm);
    for (size_t i = 0; i < g.size(); ++i) {
      with_parent += fast.parent[i] >= 0;
      deepest = std::max(deepest, fast.depth[i]);
    }
    // The partitions built on either tree are the same, and well formed.
    FuseOptions options;
    options.max_fuse_depth = 1 + sizes.Below(40);
    Expected<Partition> a = PartitionGraph(g, fast, options);
    Expected<Partition> b = PartitionGraph(g, tvm, options);
    REQUIRE_MESSAGE(a.ok(), a.status().ToString());
    REQUIRE_MESSAGE(b.ok(), b.status().ToString());
    REQUIRE(a->group == b->group);
    CheckPartitionInvariants(g, *a);
  }
  MESSAGE("nodes with a post-dominator: ", with_parent, "; deepest tree node: ", deepest);
  CHECK(deepest > 1000);  // the deep cases did exercise long jumps
}

TEST_CASE("the TVM walk stops when its step budget runs out") {
  const IndexedForwardGraph g = RandomForwardGraph(DagShape::kLadder, 2000, 1);
  TvmWalkBudget unlimited;
  BuildPostDominatorTreeTvmWalk(g, &unlimited);
  CHECK_FALSE(unlimited.exhausted);
  CHECK(unlimited.steps > 100000);  // quadratic: about (2000/2)^2 / 2 steps
  TvmWalkBudget budget;
  budget.max_steps = 1000;
  BuildPostDominatorTreeTvmWalk(g, &budget);
  CHECK(budget.exhausted);
}

}  // namespace
}  // namespace opuc
