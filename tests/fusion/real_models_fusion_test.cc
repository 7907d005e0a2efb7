// FuseOps on the 13 real models, after the default pipeline: the partition
// is well formed (every op in exactly one convex group with one root), the
// fused graph verifies and holds every op once, and the float reference
// gives the same bits before and after. Prints the groups per model.
#include <algorithm>
#include <cstring>

#include "frontend/model_cache.h"
#include "fusion/fusion_test_util.h"
#include "opuc/cpu_reference/reference.h"
#include "opuc/frontend/load_model.h"
#include "opuc/tensor_io/random_input.h"

namespace opuc {
namespace {

using namespace testing;

TEST_CASE("FuseOps on every real model: well-formed groups, same outputs bit for bit") {
  for (const std::string& name : test::RealModelNames()) {
    CAPTURE(name);
    Graph graph = OptimizedModel(test::ModelPath(name + ".tflite"));
    const size_t ops = graph.nodes.size();

    Partitioned p = PartitionIr(graph);
    CheckPartitionInvariants(p.forward, p.partition);

    Expected<std::vector<HostTensor>> inputs = RandomInputs(graph, /*seed=*/5);
    REQUIRE(inputs.ok());
    const std::vector<HostTensor> before = ReferenceOutputs(graph, *inputs);
    auto run = RunPasses(graph, {"FuseOps"}, /*opt_level=*/3);
    REQUIRE(run.status.ok());

    // Every op is in the new graph exactly once: plain, or in one body.
    size_t held = 0, fused = 0, largest = 0;
    for (const Node& node : graph.nodes) {
      if (node.op != OpKind::kFused) {
        ++held;
        continue;
      }
      ++fused;
      held += node.body->nodes.size();
      largest = std::max(largest, node.body->nodes.size());
    }
    CHECK(held == ops);
    CHECK(static_cast<int64_t>(graph.nodes.size()) == p.partition.op_groups);
    CHECK(static_cast<int64_t>(fused) == p.partition.fused_groups);
    MESSAGE(std::string(name), ": ", ops, " ops in ", graph.nodes.size(), " groups; ", fused,
            " fused functions hold ", ops - (graph.nodes.size() - fused), " ops (largest ", largest,
            ")");

    const std::vector<HostTensor> after = ReferenceOutputs(graph, *inputs);
    REQUIRE(after.size() == before.size());
    for (size_t o = 0; o < before.size(); ++o) {
      REQUIRE(after[o].bytes() == before[o].bytes());
      CHECK(std::memcmp(after[o].raw(), before[o].raw(), before[o].bytes()) == 0);
    }
  }
}

}  // namespace
}  // namespace opuc
