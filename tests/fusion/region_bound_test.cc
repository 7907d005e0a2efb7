// The region bound (src/fusion/region_bound.h): on seeded random DAGs, the
// bound found through the post-dominator tree never exceeds a plain graph
// walk's count of the region's ops, says "over" only when the region is, and
// is mostly exact (always where the region is a single chain).
#include <doctest/doctest.h>

#include <algorithm>

#include "fusion/random_dag.h"
#include "opuc/fusion/post_dominator_tree.h"
#include "region_bound.h"

namespace opuc {
namespace {

using namespace testing;

/// Ops reachable from `v` (itself included) before `sink`, by brute force.
uint32_t RegionByWalk(const IndexedForwardGraph& g, int32_t v, int32_t sink) {
  std::vector<bool> seen(g.size(), false);
  std::vector<int32_t> stack = {v};
  seen[static_cast<size_t>(v)] = true;
  uint32_t ops = 0;
  while (!stack.empty()) {
    const int32_t x = stack.back();
    stack.pop_back();
    ops += g.IsOp(x) ? 1u : 0u;
    for (const auto& edge : g.outputs(x)) {
      if (edge.node == sink || seen[static_cast<size_t>(edge.node)]) continue;
      seen[static_cast<size_t>(edge.node)] = true;
      stack.push_back(edge.node);
    }
  }
  return ops;
}

TEST_CASE("the region bound is a lower bound, and usually exact") {
  Rng knobs(5);
  int saturated = 0, exact = 0, below = 0;
  for (uint64_t seed = 0; seed < 300; ++seed) {
    CAPTURE(seed);
    const DagShape shape = kDagShapes[seed % std::size(kDagShapes)];
    const IndexedForwardGraph g = RandomForwardGraph(shape, 2 + knobs.Below(400), seed);
    const PostDominatorTree tree = BuildPostDominatorTree(g);
    const uint32_t limit = knobs.Chance(20) ? 1000 : static_cast<uint32_t>(1 + knobs.Below(40));
    const std::vector<uint32_t> ops = fusion::RegionOps(g, tree, limit);
    for (size_t i = 0; i < g.size(); ++i) {
      const int32_t sink = tree.parent[i];
      if (sink < 0) {
        CHECK(ops[i] == 0);
        continue;
      }
      CAPTURE(i);
      const uint32_t walked = RegionByWalk(g, static_cast<int32_t>(i), sink);
      REQUIRE(ops[i] <= std::min(walked, limit + 1));
      if (ops[i] == limit + 1) REQUIRE(walked > limit);
      if (g.outputs(static_cast<int32_t>(i)).size() == 1)
        REQUIRE(ops[i] == std::min(walked, limit + 1));
      saturated += ops[i] == limit + 1;
      exact += ops[i] == std::min(walked, limit + 1);
      below += ops[i] < std::min(walked, limit + 1);
    }
  }
  MESSAGE(exact, " regions bounded exactly (", saturated, " of them over the limit), ", below,
          " below their count");
  CHECK(saturated > 1000);
  CHECK(exact > 4 * below);
}

}  // namespace
}  // namespace opuc
