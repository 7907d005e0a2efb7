// Seeded random forward graphs (random_dag.h).
#include "fusion/random_dag.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

namespace opuc::testing {
namespace {

using Kind = IndexedForwardGraph::NodeKind;

constexpr OpPatternKind kOpPatterns[] = {
    OpPatternKind::kElemWise,        OpPatternKind::kElemWise,   OpPatternKind::kElemWise,
    OpPatternKind::kBroadcast,       OpPatternKind::kBroadcast,  OpPatternKind::kInjective,
    OpPatternKind::kInjective,       OpPatternKind::kCommReduce, OpPatternKind::kOutEWiseFusable,
    OpPatternKind::kOutEWiseFusable, OpPatternKind::kTuple,      OpPatternKind::kOpaque};

/// The edges of the chosen shape, as (producer, consumer) with producer <
/// consumer; node 0 is always a source.
std::vector<std::pair<int32_t, int32_t>> Edges(DagShape shape, int32_t n, Rng& rng) {
  std::vector<std::pair<int32_t, int32_t>> edges;
  auto add = [&](int32_t from, int32_t to) { edges.emplace_back(from, to); };
  switch (shape) {
    case DagShape::kRandom:
      for (int32_t i = 1; i < n; ++i) {
        const int32_t inputs = 1 + rng.Below(3);
        for (int32_t k = 0; k < inputs; ++k) add(i - 1 - rng.Below(std::min(i, 8)), i);
        if (rng.Chance(5)) add(rng.Below(i), i);  // an occasional long edge
      }
      break;
    case DagShape::kDeepChain:
      for (int32_t i = 1; i < n; ++i) {
        add(i - 1, i);
        if (i > 2 && rng.Chance(10)) add(rng.Below(i - 1), i);  // a long skip
      }
      break;
    case DagShape::kWideFanOut: {
      const int32_t width = 2 + rng.Below(std::max(2, n / 4));
      for (int32_t i = 1; i < n - 1; ++i) {
        const int32_t layer_start = ((i - 1) / width) * width + 1;
        const int32_t prev_start = std::max(0, layer_start - width);
        const int32_t prev_count = std::max(1, layer_start - prev_start);
        add(layer_start == 1 ? 0 : prev_start + rng.Below(prev_count), i);
        if (rng.Chance(30) && layer_start > 1) add(prev_start + rng.Below(prev_count), i);
      }
      for (int32_t i = std::max(1, n - 1 - width); i < n - 1; ++i) add(i, n - 1);  // the join
      break;
    }
    case DagShape::kDiamonds:
      // A spine; from each fork, branches of random length meet at a join.
      for (int32_t i = 1; i < n;) {
        const int32_t fork = i - 1;
        const int32_t branches = 2 + rng.Below(3);
        std::vector<int32_t> ends;
        for (int32_t b = 0; b < branches && i < n - 1; ++b) {
          int32_t prev = fork;
          for (int32_t len = 1 + rng.Below(6); len > 0 && i < n - 1; --len)
            add(prev, i), prev = i++;
          ends.push_back(prev);
        }
        if (i >= n) break;
        for (int32_t end : ends) add(end, i);
        if (ends.empty()) add(fork, i);
        ++i;
      }
      break;
    case DagShape::kLadder:
      // Lanes a (even) and b (odd): a_k -> a_k+1, b_k -> b_k+1, a_k -> b_k+1.
      for (int32_t i = 2; i < n - 1; ++i) {
        add(i - 2, i);
        if ((i & 1) && rng.Chance(80)) add(i - 3 >= 0 ? i - 3 : 0, i);
      }
      add(n - 2, n - 1);
      if (n >= 3) add(n - 3, n - 1);
      break;
  }
  return edges;
}

}  // namespace

const char* DagShapeName(DagShape shape) {
  switch (shape) {
    case DagShape::kRandom: return "random";
    case DagShape::kDeepChain: return "deep chain";
    case DagShape::kWideFanOut: return "wide fan-out";
    case DagShape::kDiamonds: return "diamonds";
    case DagShape::kLadder: return "ladder";
  }
  return "?";
}

IndexedForwardGraph RandomForwardGraph(DagShape shape, int nodes, uint64_t seed) {
  Rng rng(seed);
  const int32_t n = std::max(nodes, 2);
  const std::vector<std::pair<int32_t, int32_t>> edges = Edges(shape, n, rng);
  std::vector<int> in_degree(static_cast<size_t>(n), 0), out_degree(static_cast<size_t>(n), 0);
  for (const auto& [from, to] : edges)
    ++out_degree[static_cast<size_t>(from)], ++in_degree[static_cast<size_t>(to)];
  // Deep shapes keep their depth: only their sinks are graph outputs.
  const bool deep = shape == DagShape::kDeepChain || shape == DagShape::kLadder;
  IndexedForwardGraph graph;
  for (int32_t i = 0; i < n; ++i) {
    IndexedForwardGraph::Node node;
    node.pattern = kOpPatterns[rng.Below(std::size(kOpPatterns))];
    node.kind = node.pattern == OpPatternKind::kTuple ? Kind::kTuple : Kind::kOp;
    if (in_degree[static_cast<size_t>(i)] == 0) {  // a source: an input or a constant
      const bool simple = rng.Chance(30);
      node.kind = simple ? Kind::kConstant : Kind::kGraphInput;
      node.pattern = simple ? OpPatternKind::kElemWise : OpPatternKind::kOpaque;
    }
    node.extern_ref = out_degree[static_cast<size_t>(i)] == 0 || (!deep && rng.Chance(3));
    graph.AddNode(node);
  }
  for (const auto& [from, to] : edges) {
    OpPatternKind pattern = graph.node(to).pattern;
    if (graph.IsTuple(to)) pattern = OpPatternKind::kInjective;
    if (pattern == OpPatternKind::kBroadcast && rng.Chance(50)) pattern = OpPatternKind::kElemWise;
    REQUIRE(graph.AddEdge(from, to, pattern).ok());
  }
  graph.Finalize();
  return graph;
}

}  // namespace opuc::testing
