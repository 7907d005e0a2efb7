// The forward graph built from the IR: the order, node kinds and patterns,
// constants on first use (one-element ones elemwise), a concat's tuple,
// edge patterns (a broadcast from a same-shaped input is elemwise), graph
// outputs as extern_ref, and the errors for graphs it cannot read.
#include "fusion/fusion_test_util.h"
#include "opuc/fusion/fuse_mutator.h"

namespace opuc {
namespace {

using namespace testing;
using Kind = IndexedForwardGraph::NodeKind;

TEST_CASE("a concat gets a tuple node between its inputs and itself") {
  GraphBuilder b("cat");
  TensorId x = b.Input("x", DType::kF32, {1, 2});
  TensorId y = b.Input("y", DType::kF32, {1, 2});
  TensorId r = b.Op(OpKind::kRelu, "r", {x});
  b.Output(b.Op(OpKind::kConcat, "c", {r, y, r}, Attrs({{"axis", int64_t{1}}})));
  Graph g = Build(std::move(b));
  Expected<IndexedForwardGraph> f = BuildIndexedForwardGraph(g);
  REQUIRE(f.ok());
  // x 0, y 1, r 2, tuple 3, c 4.
  REQUIRE(f->size() == 5);
  CHECK(f->node(3).kind == Kind::kTuple);
  CHECK(f->node(3).pattern == OpPatternKind::kTuple);
  CHECK(f->node(3).ref == 1);  // the concat's IR node
  CHECK(f->node_of_op == std::vector<int32_t>{2, 4});
  // r feeds the tuple twice; every field edge is injective, as TVM's.
  CHECK(f->outputs(2).size() == 2);
  for (const auto& edge : f->outputs(2)) {
    CHECK(edge.node == 3);
    CHECK(edge.pattern == OpPatternKind::kInjective);
  }
  CHECK(f->inputs(3).size() == 3);
  REQUIRE(f->outputs(3).size() == 1);
  CHECK(f->outputs(3).begin()->node == 4);
  CHECK(f->outputs(3).begin()->pattern == OpPatternKind::kInjective);
  CHECK(f->node(4).extern_ref);
  CHECK_FALSE(f->node(2).extern_ref);
}

TEST_CASE("constants join on first use, only one-element dense ones are simple") {
  GraphBuilder b("constants");
  TensorId x = b.Input("x", DType::kF32, {2, 2});
  TensorId big = b.ConstantF32("big", {2, 2}, {1, 2, 3, 4});
  TensorId one = b.ConstantF32("one", {1}, {2});
  TensorId scalar = b.ConstantF32("scalar", {}, {3});
  b.ConstantF32("unused", {1}, {4});
  TensorId a = b.Op(OpKind::kMul, "a", {x, scalar});
  TensorId c = b.Op(OpKind::kAdd, "c", {a, big});
  b.Output(b.Op(OpKind::kSub, "d", {c, one}));
  Graph g = Build(std::move(b));
  Expected<IndexedForwardGraph> f = BuildIndexedForwardGraph(g);
  REQUIRE(f.ok());
  // x 0, scalar 1, a 2, big 3, c 4, one 5, d 6; "unused" gets no node.
  REQUIRE(f->size() == 7);
  CHECK(f->node(1).kind == Kind::kConstant);
  CHECK(f->IsSimpleConstant(1));
  CHECK_FALSE(f->IsSimpleConstant(3));
  CHECK(f->node(3).pattern == OpPatternKind::kOpaque);
  CHECK(f->IsSimpleConstant(5));
  CHECK(f->node_of_tensor[4] == -1);  // "unused"
  // mul's edges: x has the output's shape (elemwise), the scalar broadcasts.
  CHECK(f->outputs(0).begin()->pattern == OpPatternKind::kElemWise);
  CHECK(f->outputs(1).begin()->pattern == OpPatternKind::kBroadcast);
  CHECK(f->outputs(3).begin()->pattern == OpPatternKind::kElemWise);  // big is [2,2] too
}

TEST_CASE("graph outputs are extern_ref, also when they feed other nodes") {
  GraphBuilder b("outs");
  TensorId x = b.Input("x", DType::kF32, {4});
  TensorId r = b.Op(OpKind::kRelu, "r", {x});
  b.Output(r);
  b.Output(b.Op(OpKind::kTanh, "t", {r}));
  b.Output(x);
  Graph g = Build(std::move(b));
  Expected<IndexedForwardGraph> f = BuildIndexedForwardGraph(g);
  REQUIRE(f.ok());
  CHECK(f->node(0).extern_ref);
  CHECK(f->node(1).extern_ref);
  CHECK(f->node(2).extern_ref);
}

TEST_CASE("graphs that cannot be read are errors naming the node") {
  GraphBuilder b("bad");
  TensorId x = b.Input("x", DType::kF32, {4});
  TensorId r = b.Op(OpKind::kRelu, "r", {x});
  b.Output(b.Op(OpKind::kTanh, "t", {r}));
  Graph good = Build(std::move(b));

  Graph swapped = good;  // t before r: not in topological order
  std::swap(swapped.nodes[0], swapped.nodes[1]);
  CHECK(BuildIndexedForwardGraph(swapped).status().ToString() ==
        "invalid argument: node 0 't' (tanh) reads tensor 1 'r', which is neither a graph input,"
        " a constant nor the output of an earlier node (nodes must be in topological order)");

  Graph missing = good;
  missing.nodes[1].inputs[0] = 7;
  CHECK(BuildIndexedForwardGraph(missing).status().ToString() ==
        "invalid argument: node 1 't' (tanh) reads tensor 7, which does not exist");

  Graph bad_output = good;
  bad_output.outputs.push_back(-3);
  CHECK(BuildIndexedForwardGraph(bad_output).status().code() == StatusCode::kInvalidArgument);
}

TEST_CASE("a partition of another graph is refused and the graph left alone") {
  GraphBuilder b("g");
  TensorId x = b.Input("x", DType::kF32, {4});
  b.Output(b.Op(OpKind::kTanh, "t", {b.Op(OpKind::kRelu, "r", {x})}));
  Graph g = Build(std::move(b));
  Partitioned p = PartitionIr(g);
  Graph other = g;
  other.nodes.pop_back();
  other.outputs = {other.nodes[0].outputs[0]};
  const std::string before = PrintGraph(other);
  CHECK(ApplyPartition(other, p.forward, p.partition).status().ToString() ==
        "invalid argument: the forward graph and partition are not of this graph");
  CHECK(PrintGraph(other) == before);
}

}  // namespace
}  // namespace opuc
