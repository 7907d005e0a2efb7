// Seeded random forward graphs for the fusion tests: random DAGs, deep
// chains with long skips, wide fan-outs, nested diamonds, and ladders (two
// long lanes with cross edges that meet only at the end, where TVM's walk
// is quadratic). Deterministic everywhere: SplitMix64, no std distributions.
#ifndef OPUC_TESTS_FUSION_RANDOM_DAG_H
#define OPUC_TESTS_FUSION_RANDOM_DAG_H

#include <cstdint>

#include "opuc/fusion/indexed_forward_graph.h"
#include "opuc/tensor_io/random_input.h"

namespace opuc::testing {

/// SplitMix64 (opuc/tensor_io/random_input.h) with the draws the graphs need.
class Rng : public SplitMix64 {
 public:
  using SplitMix64::SplitMix64;
  /// In [0, n); n > 0.
  int32_t Below(int64_t n) { return static_cast<int32_t>(Next() % static_cast<uint64_t>(n)); }
  bool Chance(int percent) { return Below(100) < percent; }
};

enum class DagShape { kRandom, kDeepChain, kWideFanOut, kDiamonds, kLadder };
inline constexpr DagShape kDagShapes[] = {DagShape::kRandom, DagShape::kDeepChain,
                                          DagShape::kWideFanOut, DagShape::kDiamonds,
                                          DagShape::kLadder};
const char* DagShapeName(DagShape shape);

/// About `nodes` nodes (at least 2) of the given shape, with random pattern
/// kinds (tuples as tuple nodes, opaque sources as graph inputs, some
/// elemwise sources as simple constants), edge patterns that are the
/// consumer's (a broadcast sometimes elemwise), and the sinks plus (except
/// in deep chains and ladders) a few random nodes marked extern_ref.
IndexedForwardGraph RandomForwardGraph(DagShape shape, int nodes, uint64_t seed);

}  // namespace opuc::testing

#endif  // OPUC_TESTS_FUSION_RANDOM_DAG_H
