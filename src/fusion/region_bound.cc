//===- src/fusion/region_bound.cc - Regions too large to ever fuse --------===//
//
// Along one chain of the post-dominator tree the regions are disjoint: a
// node x on the chain from a consumer u of v up to v's post-dominator P
// sees everything below it pass through it, and its own region ends at its
// parent. So v's region holds v, and for each consumer u, at least the sum
// of the regions on u's chain up to P. (Chains of different consumers may
// share nodes, so their sums are not added; the largest counts.) In
// reverse topological order the nodes above v are done, and one pass gives
// every node a lower bound, exact along single chains.
//
// The chains are walked in turns, a step each, and the walk stops as soon
// as one sum passes the limit: a chain that meets a large region ends the
// count at once, and no node costs more than about the limit in steps.
//
//===----------------------------------------------------------------------===//
#include "region_bound.h"

namespace opuc::fusion {

std::vector<uint32_t> RegionOps(const IndexedForwardGraph& graph, const PostDominatorTree& tree,
                                uint32_t limit) {
  const size_t n = graph.size();
  const uint32_t over = limit + 1;
  std::vector<uint32_t> ops(n, 0);
  struct Chain {
    int32_t at;      // the next tree node to add, or the post-dominator when done
    uint32_t count;  // ops so far on this chain
  };
  std::vector<Chain> chains;
  for (size_t i = n; i-- > 0;) {
    const auto id = static_cast<int32_t>(i);
    const int32_t sink = tree.parent[i];
    if (sink < 0) continue;
    const uint32_t own = graph.IsOp(id) ? 1 : 0;
    chains.clear();
    for (const IndexedForwardGraph::Edge& edge : graph.outputs(id))
      chains.push_back({edge.node, 0});
    uint32_t best = 0;
    for (bool live = true; live && own + best <= limit;) {
      live = false;
      for (Chain& chain : chains) {
        if (chain.at == sink) continue;
        chain.count += ops[static_cast<size_t>(chain.at)];
        chain.at = tree.parent[static_cast<size_t>(chain.at)];
        best = chain.count > best ? chain.count : best;
        live = true;
      }
    }
    ops[i] = own + best > limit ? over : own + best;
  }
  return ops;
}

}  // namespace opuc::fusion
