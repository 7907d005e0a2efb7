// The partitioner's rules on small IR graphs, each grouping derived by hand
// from TVM's phases: injective chains (phase 1), reductions, tuples before a
// concat (phase 2), diamonds, the broadcast-edge rule, and the recorded
// reasons.
#include "fusion/fusion_test_util.h"

namespace opuc {
namespace {

using namespace testing;

TensorId Reshape(GraphBuilder& b, const char* name, TensorId in, std::vector<int64_t> shape) {
  return b.Op(OpKind::kReshape, name, {in}, Attrs({{"new_shape", Ints(std::move(shape))}}));
}

TEST_CASE("an injective chain fuses in phase 1, after an elemwise op joined it in phase 0") {
  // relu -> reshape -> pad -> reshape -> sigmoid: phase 0 puts relu with the
  // first reshape; phase 1 carries every injective op into the next.
  GraphBuilder b("chain");
  TensorId x = b.Input("x", DType::kF32, {1, 4, 4, 2});
  TensorId r = b.Op(OpKind::kRelu, "r", {x});
  TensorId flat = Reshape(b, "flat", r, {1, 32});
  TensorId padded = b.Op(OpKind::kPad, "padded", {flat}, Attrs({{"pads", Ints({0, 0, 1, 1})}}));
  TensorId back = Reshape(b, "back", padded, {2, 17});
  b.Output(b.Op(OpKind::kSigmoid, "s", {back}));
  Graph g = Build(std::move(b));
  Partitioned p = PartitionIr(g);
  CHECK(OpGroups(g, p) == Lines{"r,flat,padded,back,s"});
  CHECK(ReasonOf(g, p, "r") == "fused into its post-dominator node 1 'flat' (reshape) (phase 0)");
  CHECK(ReasonOf(g, p, "flat") == "fused into its post-dominator node 2 'padded' (pad) (phase 1)");
  CheckPartitionInvariants(p.forward, p.partition);
}

TEST_CASE("reductions take elemwise producers, not injective ones, and fuse into nothing") {
  GraphBuilder b("reduce");
  TensorId x = b.Input("x", DType::kF32, {1, 4, 4, 2});
  TensorId r = b.Op(OpKind::kRelu, "r", {x});
  TensorId m = b.Op(OpKind::kMean, "m", {r}, Attrs({{"axes", Ints({1, 2})}, {"keep_dims", true}}));
  b.Output(b.Op(OpKind::kSigmoid, "s", {m}));
  TensorId t = Reshape(b, "t", x, {1, 16, 2});
  b.Output(b.Op(OpKind::kMean, "m2", {t}, Attrs({{"axes", Ints({1})}})));
  Graph g = Build(std::move(b));
  Partitioned p = PartitionIr(g);
  CHECK(OpGroups(g, p) == Lines{"r,m", "s", "t", "m2"});
  CHECK(ReasonOf(g, p, "m") ==
        "not fused: a reduction takes its producers but does not fuse into a consumer");
  CHECK(ReasonOf(g, p, "t") ==
        "not fused: the path to the post-dominator node 4 'm2' (mean) goes through node 4 'm2'"
        " (mean), whose group is comm_reduce (phase 1)");
  CheckPartitionInvariants(p.forward, p.partition);
}

/// a = relu(x), b = sigmoid(x), cat = concat(a, b), then `after` of cat.
Graph ConcatGraph(OpKind after) {
  GraphBuilder b("concat");
  TensorId x = b.Input("x", DType::kF32, {1, 4, 4, 2});
  TensorId a = b.Op(OpKind::kRelu, "a", {x});
  TensorId s = b.Op(OpKind::kSigmoid, "b", {x});
  TensorId cat = b.Op(OpKind::kConcat, "cat", {a, s}, Attrs({{"axis", int64_t{-1}}}));
  Attributes attrs;
  if (after == OpKind::kMean) attrs = Attrs({{"axes", Ints({1, 2})}});
  b.Output(b.Op(after, "out", {cat}, attrs));
  return Build(std::move(b));
}

TEST_CASE("tuple fields wait for phase 2, then join the tuple that fused onward") {
  Graph g = ConcatGraph(OpKind::kRelu);
  Partitioned p = PartitionIr(g);
  // The forward graph has the virtual tuple right before the concat.
  const int32_t cat = p.forward.node_of_op[2];
  REQUIRE(p.forward.IsTuple(cat - 1));
  // Phase 1: tuple -> concat -> relu. Phase 2: a and b join the tuple.
  CHECK(OpGroups(g, p) == Lines{"a,b,cat,out"});
  CHECK(ReasonOf(g, p, "a") ==
        "fused into its post-dominator the tuple of node 2 'cat' (concat) (phase 2)");
  CheckPartitionInvariants(p.forward, p.partition);

  // Without phase 2 (it only ever fuses into a tuple), the fields stay out:
  // a tuple post-dominator is refused in phases 0 and 1.
  Graph m = ConcatGraph(OpKind::kMean);
  Partitioned q = PartitionIr(m);
  CHECK(OpGroups(m, q) == Lines{"a,b,cat", "out"});  // concat does not enter the reduction
}

TEST_CASE("a diamond fuses whole, an opaque branch stops the fork") {
  GraphBuilder b("diamond");
  TensorId x = b.Input("x", DType::kF32, {1, 4, 4, 2});
  TensorId w = b.ConstantF32("w", {2, 1, 1, 2}, {1, 0, 0, 1});
  TensorId c = b.Op(OpKind::kConv2D, "c", {x, w});
  TensorId r = b.Op(OpKind::kRelu, "r", {c});
  TensorId s = b.Op(OpKind::kSigmoid, "s", {c});
  b.Output(b.Op(OpKind::kAdd, "j", {r, s}));
  Graph g = Build(std::move(b));
  Partitioned p = PartitionIr(g);
  CHECK(OpGroups(g, p) == Lines{"c,r,s,j"});

  GraphBuilder o("opaque branch");
  x = o.Input("x", DType::kF32, {1, 4, 4, 2});
  w = o.ConstantF32("w", {2, 1, 1, 2}, {1, 0, 0, 1});
  c = o.Op(OpKind::kConv2D, "c", {x, w});
  r = o.Op(OpKind::kRelu, "r", {c});
  TensorId sm = o.Op(OpKind::kSoftmax, "sm", {c});
  o.Output(o.Op(OpKind::kAdd, "j", {r, sm}));
  Graph h = Build(std::move(o));
  Partitioned q = PartitionIr(h);
  CHECK(OpGroups(h, q) == Lines{"c", "sm", "r,j"});
  // The edge c -> sm has the softmax's pattern, so the combined pattern on
  // the way to j is opaque: refused before any path is walked.
  CHECK(ReasonOf(h, q, "c") ==
        "not fused: the way to the post-dominator node 3 'j' (add) is opaque (phase 0)");
  CHECK(ReasonOf(h, q, "sm") == "not fused: the node is opaque");
  CheckPartitionInvariants(q.forward, q.partition);
}

TEST_CASE("a conv fuses into an add only where its output is not broadcast") {
  for (bool broadcast : {false, true}) {
    CAPTURE(broadcast);
    GraphBuilder b("edge");
    // conv output [1,4,4,2] (same as the add's) or [1,1,1,2] (broadcast by the add).
    const int64_t side = broadcast ? 1 : 4;
    TensorId x = b.Input("x", DType::kF32, {1, side, side, 2});
    TensorId y = b.Input("y", DType::kF32, {1, 4, 4, 2});
    TensorId w = b.ConstantF32("w", {2, 1, 1, 2}, {1, 0, 0, 1});
    TensorId c = b.Op(OpKind::kConv2D, "c", {x, w});
    b.Output(b.Op(OpKind::kAdd, "sum", {c, y}));
    Graph g = Build(std::move(b));
    Partitioned p = PartitionIr(g);
    CHECK(OpGroups(g, p) == (broadcast ? Lines{"c", "sum"} : Lines{"c,sum"}));
    if (broadcast)
      CHECK(ReasonOf(g, p, "c") ==
            "not fused: the way to the post-dominator node 1 'sum' (add) is broadcast (phase 0)");
  }
}

TEST_CASE("conv2d finishes fusing in phase 0 before injective ops move in phase 1") {
  GraphBuilder b("phases");
  TensorId x = b.Input("x", DType::kF32, {1, 4, 4, 2});
  TensorId w = b.ConstantF32("w", {2, 1, 1, 2}, {1, 0, 0, 1});
  TensorId c = b.Op(OpKind::kConv2D, "c", {x, w});
  TensorId r = b.Op(OpKind::kRelu, "r", {c});
  TensorId t = Reshape(b, "t", r, {1, 32});
  b.Output(b.Op(OpKind::kTanh, "u", {t}));
  Graph g = Build(std::move(b));
  Partitioned p = PartitionIr(g);
  // r's group took the conv (out_ewise_fusable); the reshape edge is injective.
  CHECK(OpGroups(g, p) == Lines{"c,r", "t,u"});
  CHECK(ReasonOf(g, p, "r") ==
        "not fused: the way to the post-dominator node 2 't' (reshape) is injective (phase 0)");
}

TEST_CASE("a graph output in the middle of a chain ends its group") {
  GraphBuilder b("outputs");
  TensorId x = b.Input("x", DType::kF32, {1, 4});
  TensorId a = b.Op(OpKind::kRelu, "a", {x});
  b.Output(a);
  b.Output(b.Op(OpKind::kSigmoid, "b", {a}));
  Graph g = Build(std::move(b));
  Partitioned p = PartitionIr(g);
  CHECK(OpGroups(g, p) == Lines{"a", "b"});
  CHECK(ReasonOf(g, p, "a") ==
        "not fused: no post-dominator (a graph output, or its consumers never meet again)");
}

}  // namespace
}  // namespace opuc
