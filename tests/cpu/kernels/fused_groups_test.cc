//===- tests/cpu/kernels/fused_groups_test.cc - FuseOps groups on the CPU executor -===//
//
// 150 seeded random IR graphs (every pattern kind, diamonds, extra outputs)
// fused by FuseOps: the CPU executor runs each fused graph, functions and
// all, to the float reference's results on the unfused graph, within the
// tolerance of docs/cpu-executor.md (1e-5 of each output's range).
//
//===----------------------------------------------------------------------===//
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "fusion/random_ir_graph.h"
#include "opuc/cpu/executor.h"
#include "opuc/fusion/fuse_mutator.h"
#include "opuc/tensor_io/random_input.h"

namespace opuc {
namespace {

TEST_CASE("random fused graphs: the CPU executor gives the reference's results") {
  int64_t fused = 0;
  for (uint64_t seed = 0; seed < 150; ++seed) {
    CAPTURE(seed);
    Graph g = testing::RandomIrGraph(5 + static_cast<int>(seed % 30), seed);
    Expected<std::vector<HostTensor>> inputs = RandomInputs(g, seed);
    REQUIRE(inputs.ok());
    Expected<std::vector<HostTensor>> want = RunReference(g, *inputs);
    REQUIRE_MESSAGE(want.ok(), want.status().ToString());
    Expected<FuseCounts> counts = FuseOps(g, FuseOptions());
    REQUIRE_MESSAGE(counts.ok(), counts.status().ToString());
    fused += counts->fused_nodes;
    Expected<std::vector<HostTensor>> got = RunCpu(g, *inputs);
    REQUIRE_MESSAGE(got.ok(), got.status().ToString());
    REQUIRE(got->size() == want->size());
    for (size_t o = 0; o < want->size(); ++o) {
      const HostTensor& w = (*want)[o];
      const HostTensor& c = (*got)[o];
      REQUIRE(c.type() == w.type());
      double lo = 0, hi = 0, worst = 0;
      for (int64_t k = 0; k < w.elements(); ++k) {
        lo = std::min(lo, w.ValueAt(k));
        hi = std::max(hi, w.ValueAt(k));
        worst = std::max(worst, std::abs(c.ValueAt(k) - w.ValueAt(k)));
      }
      CHECK(worst <= 1e-5 * std::max(hi - lo, 1.0));
    }
  }
  CHECK(fused > 150);  // the graphs do fuse
}

}  // namespace
}  // namespace opuc
