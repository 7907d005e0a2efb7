// The seeds' worked examples, grouped exactly as the seeds show TVM grouping
// them: seed 000's conv2d + add(const) + relu + multiply(0.5) + add becomes
// ONE function of 3 parameters (x, weight, the add's constant; 0.5 is
// inlined), and seed 001's conv2d + bias add + relu fuse while max_pool2d
// stays alone. The expected groups, orders and trees are derived by hand in
// the comments, from the seeds' text and figures.
#include "fusion/fusion_test_util.h"
#include "opuc/fusion/fuse_mutator.h"
#include "opuc/fusion/post_dominator_tree.h"
#include "opuc/ir/verifier.h"

namespace opuc {
namespace {

using namespace testing;

/// Seed 000, in NHWC: x[1,16,16,3], weight[3,3,3,3] (OHWI), c = ones[1,14,14,3].
///   conv = conv2d(x, weight); y = add(conv, c); act = relu(y);
///   mul = mul(conv, 0.5); z = add(act, mul)
Graph Seed000() {
  GraphBuilder b("seed000");
  TensorId x = b.Input("x", DType::kF32, {1, 16, 16, 3});
  TensorId w = b.ConstantF32("weight", {3, 3, 3, 3}, std::vector<float>(81, 0.25f));
  TensorId conv = b.Op(OpKind::kConv2D, "conv", {x, w});
  TensorId c = b.ConstantF32("c", {1, 14, 14, 3}, std::vector<float>(14 * 14 * 3, 1.0f));
  TensorId y = b.Op(OpKind::kAdd, "y", {conv, c});
  TensorId act = b.Op(OpKind::kRelu, "act", {y});
  TensorId half = b.ConstantF32("half", {}, {0.5f});
  TensorId mul = b.Op(OpKind::kMul, "mul", {conv, half});
  b.Output(b.Op(OpKind::kAdd, "z", {act, mul}));
  return Build(std::move(b));
}

TEST_CASE("seed 000: the forward graph has TVM's post-DFS order and edge patterns") {
  Graph g = Seed000();
  Partitioned p = PartitionIr(g);
  const IndexedForwardGraph& f = p.forward;
  // The seed's figure: x 0, weight 1, conv 2, c 3, add 4, relu 5, 0.5 6, multiply 7, add 8.
  REQUIRE(f.size() == 9);
  const std::vector<std::string> names = {"x",   "weight", "conv", "c", "y",
                                          "act", "half",   "mul",  "z"};
  for (int32_t i = 0; i < 9; ++i) {
    const auto& node = f.node(i);
    const bool is_op = node.kind == IndexedForwardGraph::NodeKind::kOp;
    CHECK((is_op ? g.node(node.ref).name : g.tensor(node.ref).name) ==
          names[static_cast<size_t>(i)]);
  }
  CHECK(f.node(0).pattern == kOpaque);    // a parameter
  CHECK(f.node(3).pattern == kOpaque);    // a constant of 588 elements
  CHECK(f.node(6).pattern == kElemWise);  // the scalar 0.5: a simple constant
  CHECK(f.node(2).pattern == kFusable);
  // Only the body's result (node 8) is referenced from outside.
  for (int32_t i = 0; i < 9; ++i) CHECK(f.node(i).extern_ref == (i == 8));
  // The multiply's edges: from conv (same shape as the output) elemwise, from 0.5 broadcast.
  CHECK(f.outputs(6).size() == 1);
  CHECK(f.outputs(6).begin()->pattern == kBroadcast);
  CHECK(f.outputs(2).size() == 2);
  for (const auto& edge : f.outputs(2)) CHECK(edge.pattern == kElemWise);
}

TEST_CASE("seed 000: the post-dominator tree of the seed's figure") {
  Graph g = Seed000();
  Partitioned p = PartitionIr(g);
  for (const PostDominatorTree& tree :
       {BuildPostDominatorTree(p.forward), BuildPostDominatorTreeTvmWalk(p.forward)}) {
    // conv (2) reaches the final add through add/relu and through multiply:
    // LCA(4, 7) = 8, every pattern on the way elemwise.
    CHECK(tree.parent == std::vector<int32_t>{2, 2, 8, 4, 5, 8, 7, 8, -1});
    CHECK(tree.depth == std::vector<int32_t>{3, 3, 2, 4, 3, 2, 3, 2, 1});
    CHECK(tree.pattern[2] == kElemWise);
    CHECK(tree.pattern[6] == kBroadcast);
    CHECK(tree.pattern[1] == kFusable);
  }
}

TEST_CASE("seed 000: one group of five ops, a function of three parameters") {
  Graph g = Seed000();
  Partitioned p = PartitionIr(g);
  CHECK(OpGroups(g, p) == Lines{"conv,y,act,mul,z"});
  CHECK(ReasonOf(g, p, "conv") == "fused into its post-dominator node 4 'z' (add) (phase 0)");
  CHECK(ReasonOf(g, p, "act") ==
        "fused on the way from node 0 'conv' (conv2d) to its post-dominator node 4 'z' (add)"
        " (phase 0)");
  CheckPartitionInvariants(p.forward, p.partition);
  CHECK(DumpPartition(p.forward, &g, p.partition) ==
        "#0 graph input tensor 0 'x' opaque  group #0: not fused: the node is opaque\n"
        "#1 constant tensor 1 'weight' opaque  group #1: not fused: the node is opaque\n"
        "#2 node 0 'conv' (conv2d) out_ewise_fusable  group #8: fused into its post-dominator"
        " node 4 'z' (add) (phase 0)\n"
        "#3 constant tensor 3 'c' opaque  group #3: not fused: the node is opaque\n"
        "#4 node 1 'y' (add) broadcast  group #8: fused on the way from node 0 'conv' (conv2d)"
        " to its post-dominator node 4 'z' (add) (phase 0)\n"
        "#5 node 2 'act' (relu) elemwise  group #8: fused on the way from node 0 'conv'"
        " (conv2d) to its post-dominator node 4 'z' (add) (phase 0)\n"
        "#6 constant tensor 6 'half' elemwise  group #8: fused into its post-dominator node 3"
        " 'mul' (mul) (phase 0)\n"
        "#7 node 3 'mul' (mul) broadcast  group #8: fused on the way from node 0 'conv' (conv2d)"
        " to its post-dominator node 4 'z' (add) (phase 0)\n"
        "#8 node 4 'z' (add) broadcast  group #8: not fused: no post-dominator (a graph output,"
        " or its consumers never meet again)\n");

  Expected<FuseCounts> counts = FuseOps(g, FuseOptions{});
  REQUIRE(counts.ok());
  CHECK(counts->fused_nodes == 1);
  CHECK(counts->ops_fused == 5);
  REQUIRE(Verify(g).ok());
  REQUIRE(g.nodes.size() == 1);
  const Node& call = g.nodes[0];
  CHECK(call.op == OpKind::kFused);
  REQUIRE(call.body);
  // %p0 = x, %p1 = weight, %p2 = the add's constant, as the seed prints them.
  std::vector<std::string> args;
  for (TensorId in : call.inputs) args.push_back(g.tensor(in).name);
  CHECK(args == std::vector<std::string>{"x", "weight", "c"});
  CHECK(call.body->inputs.size() == 3);
  CHECK(NodeSignatures(*call.body) == Lines{"conv2d(x,weight)->conv", "add(conv,c)->y",
                                            "relu(y)->act", "mul(conv,half)->mul",
                                            "add(act,mul)->z"});
  CHECK(call.body->tensor(call.body->nodes[3].inputs[1]).is_constant());  // 0.5, inlined
}

/// Seed 001 (resnet18's first layers, in opuc's ops): conv2d, a bias add,
/// relu, max_pool2d, and the next conv2d + bias add + relu.
Graph Seed001() {
  GraphBuilder b("seed001");
  TensorId data = b.Input("data", DType::kF32, {1, 16, 16, 3});
  TensorId w0 = b.ConstantF32("w0", {4, 3, 3, 3}, std::vector<float>(108, 0.1f));
  TensorId b0 = b.ConstantF32("b0", {4}, {1, 2, 3, 4});
  TensorId conv0 = b.Op(OpKind::kConv2D, "conv0", {data, w0});
  TensorId bias0 = b.Op(OpKind::kAdd, "bias0", {conv0, b0});
  TensorId relu0 = b.Op(OpKind::kRelu, "relu0", {bias0});
  TensorId pool =
      b.Op(OpKind::kMaxPool2D, "pool", {relu0},
           Attrs({{"filter", Ints({3, 3})}, {"strides", Ints({2, 2})}, {"padding", Str("same")}}));
  TensorId w1 = b.ConstantF32("w1", {5, 3, 3, 4}, std::vector<float>(180, 0.1f));
  TensorId b1 = b.ConstantF32("b1", {5}, {1, 2, 3, 4, 5});
  TensorId conv1 = b.Op(OpKind::kConv2D, "conv1", {pool, w1});
  TensorId bias1 = b.Op(OpKind::kAdd, "bias1", {conv1, b1});
  b.Output(b.Op(OpKind::kRelu, "relu1", {bias1}));
  return Build(std::move(b));
}

TEST_CASE("seed 001: conv2d + bias add + relu fuse, max_pool2d stays alone") {
  Graph g = Seed001();
  Partitioned p = PartitionIr(g);
  CHECK(OpGroups(g, p) == Lines{"conv0,bias0,relu0", "pool", "conv1,bias1,relu1"});
  // relu0's group took conv0's anchor; its post-dominator, the pool, is not elemwise.
  CHECK(ReasonOf(g, p, "relu0") ==
        "not fused: the way to the post-dominator node 3 'pool' (max_pool2d) is"
        " out_ewise_fusable (phase 0)");
  CHECK(ReasonOf(g, p, "pool") ==
        "not fused: the way to the post-dominator node 4 'conv1' (conv2d) is"
        " out_ewise_fusable (phase 0)");
  CheckPartitionInvariants(p.forward, p.partition);

  REQUIRE(FuseOps(g, FuseOptions{}).ok());
  REQUIRE(Verify(g).ok());
  REQUIRE(g.nodes.size() == 3);
  // %5 = fn (%p05: data, %p12: weight, %p22: bias) in the seed.
  std::vector<std::string> args;
  for (TensorId in : g.nodes[0].inputs) args.push_back(g.tensor(in).name);
  CHECK(args == std::vector<std::string>{"data", "w0", "b0"});
  CHECK(g.nodes[1].op == OpKind::kMaxPool2D);
  CHECK(g.nodes[2].op == OpKind::kFused);
}

}  // namespace
}  // namespace opuc
