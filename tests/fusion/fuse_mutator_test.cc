// FuseOps end to end on 200 seeded random IR graphs: the fused graph
// verifies, every group is convex with one root, the limits hold for every
// fused node, the partition is the same with TVM's walk, and the float
// reference gives the same bits before and after (fusion moves ops into
// functions; it never changes what they compute).
#include <cstring>

#include "fusion/fusion_test_util.h"
#include "fusion/random_dag.h"
#include "fusion/random_ir_graph.h"
#include "opuc/cpu_reference/reference.h"
#include "opuc/fusion/fuse_mutator.h"
#include "opuc/ir/verifier.h"
#include "opuc/tensor_io/random_input.h"

namespace opuc {
namespace {

using namespace testing;

int64_t BodyOps(const Node& node) { return static_cast<int64_t>(node.body->nodes.size()); }

TEST_CASE("random graphs: verified, convex, within limits, same partition, same bits") {
  Rng knobs(99);
  int64_t fused_nodes = 0, ops_fused = 0, ops_total = 0;
  for (uint64_t seed = 0; seed < 200; ++seed) {
    CAPTURE(seed);
    Graph g = RandomIrGraph(5 + knobs.Below(40), seed);
    FuseOptions options;
    options.max_fuse_depth = knobs.Chance(50) ? 256 : 2 + knobs.Below(8);
    options.max_function_args = knobs.Chance(50) ? 0 : 2 + knobs.Below(5);
    CAPTURE(options.max_fuse_depth);
    CAPTURE(options.max_function_args);

    Partitioned fast = PartitionIr(g, options);
    CheckPartitionInvariants(fast.forward, fast.partition);
    options.post_dominators = PostDominatorAlgorithm::kTvmWalk;
    Partitioned tvm = PartitionIr(g, options);
    CHECK(tvm.partition.group == fast.partition.group);
    for (const FuseDecision& d : fast.partition.decisions)
      CHECK(d.reason != FuseReason::kNotConsidered);

    Expected<std::vector<HostTensor>> inputs = RandomInputs(g, seed);
    REQUIRE(inputs.ok());
    Expected<std::vector<HostTensor>> before = RunReference(g, *inputs);
    REQUIRE_MESSAGE(before.ok(), before.status().ToString());
    ops_total += static_cast<int64_t>(g.nodes.size());

    Expected<FuseCounts> counts = FuseOps(g, options);
    REQUIRE_MESSAGE(counts.ok(), counts.status().ToString());
    Status verified = Verify(g);
    REQUIRE_MESSAGE(verified.ok(), verified.ToString() << "\n" << PrintGraph(g));
    fused_nodes += counts->fused_nodes;
    ops_fused += counts->ops_fused;
    for (const Node& node : g.nodes) {
      if (node.op != OpKind::kFused) continue;
      CHECK(BodyOps(node) >= 2);
      CHECK(BodyOps(node) <= options.max_fuse_depth);
      if (options.max_function_args > 0)
        CHECK(static_cast<int64_t>(node.inputs.size()) <= options.max_function_args);
    }

    Expected<std::vector<HostTensor>> after = RunReference(g, *inputs);
    REQUIRE_MESSAGE(after.ok(), after.status().ToString());
    REQUIRE(after->size() == before->size());
    for (size_t o = 0; o < before->size(); ++o) {
      REQUIRE((*after)[o].bytes() == (*before)[o].bytes());
      CHECK(std::memcmp((*after)[o].raw(), (*before)[o].raw(), (*before)[o].bytes()) == 0);
    }
  }
  MESSAGE(ops_fused, " of ", ops_total, " ops fused into ", fused_nodes, " functions");
  CHECK(fused_nodes > 200);  // the graphs do fuse
}

}  // namespace
}  // namespace opuc
