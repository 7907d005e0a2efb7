// The limits: FuseOps.max_depth cuts long chains into groups of at most that
// many ops, FuseOps.max_function_args refuses a fusion whose function would
// take too many parameters, and opt level 0 fuses nothing. Groups by hand.
#include "fusion/fusion_test_util.h"
#include "opuc/fusion/fuse_mutator.h"
#include "opuc/ir/verifier.h"

namespace opuc {
namespace {

using namespace testing;

/// x -> r1 -> r2 -> ... -> rN (relu, tanh alternating), rN the output.
Graph Chain(int n) {
  GraphBuilder b("chain");
  TensorId t = b.Input("x", DType::kF32, {1, 8});
  for (int i = 1; i <= n; ++i)
    t = b.Op(i % 2 ? OpKind::kRelu : OpKind::kTanh, "r" + std::to_string(i), {t});
  b.Output(t);
  return Build(std::move(b));
}

TEST_CASE("max_fuse_depth 3 cuts a chain of ten into 3 + 3 + 3 + 1") {
  // r1 joins r2 (2 ops), r2's group joins r3 (3); r3 -> r4 would make 4.
  Graph g = Chain(10);
  FuseOptions options;
  options.max_fuse_depth = 3;
  Partitioned p = PartitionIr(g, options);
  CHECK(OpGroups(g, p) == Lines{"r1,r2,r3", "r4,r5,r6", "r7,r8,r9", "r10"});
  CHECK(ReasonOf(g, p, "r3") ==
        "not fused: max_fuse_depth 3 reached (the group of node 3 'r4' (tanh) would hold 4 or"
        " more ops) (phase 0)");
  CheckPartitionInvariants(p.forward, p.partition);
}

TEST_CASE("max_fuse_depth: 0 and 1 fuse nothing, the default 256 cuts 300 ops at 256") {
  for (int64_t depth : {0, 1}) {
    Graph g = Chain(4);
    FuseOptions options;
    options.max_fuse_depth = depth;
    CHECK(OpGroups(g, PartitionIr(g, options)) == Lines{"r1", "r2", "r3", "r4"});
  }
  Graph g = Chain(300);
  Partitioned p = PartitionIr(g);
  std::vector<int32_t> sizes;
  for (size_t i = 0; i < p.forward.size(); ++i)
    if (p.partition.ops_in_group[i] > 0) sizes.push_back(p.partition.ops_in_group[i]);
  CHECK(sizes == std::vector<int32_t>{256, 44});
  CHECK(DecisionOf(g, p, "r256").reason == FuseReason::kMaxFuseDepth);
}

/// a1 = add(x0, x1), a2 = add(a1, x2), a3 = add(a2, x3), y = relu(add(a3, 0.5)).
Graph Adds() {
  GraphBuilder b("adds");
  std::vector<TensorId> x;
  for (int i = 0; i < 4; ++i) x.push_back(b.Input("x" + std::to_string(i), DType::kF32, {1, 8}));
  TensorId a1 = b.Op(OpKind::kAdd, "a1", {x[0], x[1]});
  TensorId a2 = b.Op(OpKind::kAdd, "a2", {a1, x[2]});
  TensorId a3 = b.Op(OpKind::kAdd, "a3", {a2, x[3]});
  TensorId half = b.ConstantF32("half", {1}, {0.5f});
  TensorId a4 = b.Op(OpKind::kAdd, "a4", {a3, half});
  b.Output(b.Op(OpKind::kRelu, "y", {a4}));
  return Build(std::move(b));
}

TEST_CASE("max_function_args 3: a fusion that would need a fourth parameter is refused") {
  // {a1,a2} reads x0,x1,x2 (3). Adding a3 would read x3 too (4): refused.
  // {a3,a4,y} reads a2 and x3; the 0.5 is inlined and costs nothing.
  Graph g = Adds();
  FuseOptions options;
  options.max_function_args = 3;
  Partitioned p = PartitionIr(g, options);
  CHECK(OpGroups(g, p) == Lines{"a1,a2", "a3,a4,y"});
  CHECK(ReasonOf(g, p, "a2") ==
        "not fused: max_function_args 3 exceeded (the group of node 2 'a3' (add) would take 4"
        " parameters) (phase 0)");
  CheckPartitionInvariants(p.forward, p.partition);

  // The functions FuseOps makes have exactly the parameters counted.
  REQUIRE(FuseOps(g, options).ok());
  REQUIRE(Verify(g).ok());
  REQUIRE(g.nodes.size() == 2);
  CHECK(g.nodes[0].inputs.size() == 3);
  CHECK(g.nodes[1].inputs.size() == 2);

  // No limit (0): one group of five ops with five parameters.
  Graph h = Adds();
  CHECK(OpGroups(h, PartitionIr(h)) == Lines{"a1,a2,a3,a4,y"});
}

TEST_CASE("opt level 0 fuses nothing and says so") {
  Graph g = Adds();
  FuseOptions options;
  options.opt_level = 0;
  Partitioned p = PartitionIr(g, options);
  CHECK(OpGroups(g, p) == Lines{"a1", "a2", "a3", "a4", "y"});
  CHECK(ReasonOf(g, p, "a1") == "not fused: opt level 0 fuses nothing");
  const std::string before = PrintGraph(g);
  Expected<FuseCounts> counts = FuseOps(g, options);
  REQUIRE(counts.ok());
  CHECK(counts->fused_nodes == 0);
  CHECK(PrintGraph(g) == before);
}

TEST_CASE("negative limits are errors naming the option") {
  Graph g = Adds();
  FuseOptions options;
  options.max_fuse_depth = -1;
  Expected<FuseCounts> depth = FuseOps(g, options);
  CHECK(depth.status().ToString() ==
        "invalid argument: FuseOps.max_depth is -1; expected at least 0");
  options = FuseOptions();
  options.max_function_args = -2;
  CHECK(FuseOps(g, options).status().code() == StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace opuc
