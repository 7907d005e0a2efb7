// RunReference and EvaluateNode: whole graphs, input checks, errors that name
// the node, and constants used in place.
#include "reference_test_util.h"

namespace opuc {
namespace {

using namespace testing;

/// x [1,2,2,1] -> conv 1x1 (w 2, b -1) -> relu -> add(., x) -> max_pool 2x2.
/// Outputs: the pool and the add.
Graph ResidualGraph() {
  GraphBuilder b("residual");
  const TensorId x = b.Input("x", DType::kF32, {1, 2, 2, 1});
  const TensorId w = b.ConstantF32("w", {1, 1, 1, 1}, {2});
  const TensorId bias = b.ConstantF32("b", {1}, {-1});
  const TensorId conv = b.Op(OpKind::kConv2D, "conv", {x, w, bias});
  const TensorId relu = b.Op(OpKind::kRelu, "relu", {conv});
  const TensorId sum = b.Op(OpKind::kAdd, "sum", {relu, x});
  const TensorId pool = b.Op(OpKind::kMaxPool2D, "pool", {sum}, A({{"filter", IntList({2, 2})}}));
  b.Output(pool);
  b.Output(sum);
  Expected<Graph> graph = std::move(b).Finish();
  REQUIRE(graph.ok());
  return std::move(graph).value();
}

TEST_CASE("RunReference runs a small graph end to end") {
  // x = [1,-2,3,-4]; conv 2x - 1 = [1,-5,5,-9]; relu [1,0,5,0];
  // sum = relu + x = [2,-2,8,-4]; 2x2 max pool = 8.
  const Graph graph = ResidualGraph();
  auto outputs = RunReference(graph, {ToHost(F({1, 2, 2, 1}, {1, -2, 3, -4}))});
  REQUIRE(outputs.ok());
  REQUIRE(outputs->size() == 2);
  CHECK((*outputs)[0].shape() == Shape{1, 1, 1, 1});
  CHECK(ToFloats((*outputs)[0]) == std::vector<float>{8});
  CHECK(ToFloats((*outputs)[1]) == std::vector<float>{2, -2, 8, -4});
}

TEST_CASE("RunReference checks the inputs against the graph") {
  const Graph graph = ResidualGraph();
  SUBCASE("count") {
    auto r = RunReference(graph, {});
    REQUIRE_FALSE(r.ok());
    CHECK(r.status().code() == StatusCode::kInvalidArgument);
    CHECK(r.status().message() == "graph 'residual' has 1 inputs; given 0");
  }
  SUBCASE("shape") {
    auto r = RunReference(graph, {HostTensor::Zeros(DType::kF32, {1, 2, 3, 1}).value()});
    REQUIRE_FALSE(r.ok());
    CHECK(r.status().message() == "input 0 'x' is f32[1,2,3,1]; the graph declares f32[1,2,2,1]");
  }
  SUBCASE("dtype") {
    auto r = RunReference(graph, {HostTensor::Zeros(DType::kI8, {1, 2, 2, 1}).value()});
    REQUIRE_FALSE(r.ok());
    CHECK(Contains(r.status().message(), "'x' is i8[1,2,2,1]"));
  }
}

TEST_CASE("an op or dtype without a kernel is Unsupported, naming the node and op") {
  // i32 add is valid IR, but neither the float nor the integer reference has it.
  GraphBuilder b("int32");
  const TensorId x = b.Input("x", DType::kI32, {1, 2, 2, 1});
  b.Output(b.Op(OpKind::kAdd, "iadd", {x, x}));
  Expected<Graph> graph = std::move(b).Finish();
  REQUIRE(graph.ok());
  auto r = RunReference(*graph, {HostTensor::Zeros(DType::kI32, {1, 2, 2, 1}).value()});
  REQUIRE_FALSE(r.ok());
  CHECK(r.status().code() == StatusCode::kUnsupported);
  CHECK(r.status().message() ==
        "node 0 'iadd' (add): input 'lhs' has dtype i32; the float reference implements "
        "add on f32 only");
}

TEST_CASE("EvaluateNode evaluates one node of a graph") {
  const Graph graph = ResidualGraph();
  const HostTensor relu = ToHost(F({1, 2, 2, 1}, {1, 0, 5, 0}));
  const HostTensor x = ToHost(F({1, 2, 2, 1}, {1, -2, 3, -4}));
  std::vector<HostTensor> out;
  REQUIRE(EvaluateNode(graph, 2, {&relu, &x}, &out).ok());  // node 2 is the add
  REQUIRE(out.size() == 1);
  CHECK(ToFloats(out[0]) == std::vector<float>{2, -2, 8, -4});
}

TEST_CASE("EvaluateNode names the node for bad arguments") {
  const Graph graph = ResidualGraph();
  const HostTensor x = ToHost(F({1, 2, 2, 1}, {1, -2, 3, -4}));
  const HostTensor wrong = HostTensor::Zeros(DType::kF32, {4}).value();
  std::vector<HostTensor> out;
  Status s = EvaluateNode(graph, 2, {&x}, &out);
  CHECK(s.message() == "node 2 'sum' (add): given 1 input values; the node has 2 inputs");
  s = EvaluateNode(graph, 2, {&x, nullptr}, &out);
  CHECK(s.message() == "node 2 'sum' (add): input 1 (tensor 0 'x') has no value");
  s = EvaluateNode(graph, 2, {&x, &wrong}, &out);
  CHECK(s.message() ==
        "node 2 'sum' (add): input 1 (tensor 0 'x') is f32[4]; the graph declares f32[1,2,2,1]");
  s = EvaluateNode(graph, 9, {}, &out);
  CHECK(s.message() == "node 9 does not exist (the graph has 4 nodes)");
}

TEST_CASE("EvaluateNode recomputes the output type instead of trusting the graph") {
  Graph graph = ResidualGraph();
  const TensorId relu_out = graph.nodes[1].outputs[0];
  graph.tensor(relu_out).shape = {1, 4, 4, 1};  // a broken, unverified graph
  const HostTensor conv = ToHost(F({1, 2, 2, 1}, {1, -5, 5, -9}));
  std::vector<HostTensor> out;
  Status s = EvaluateNode(graph, 1, {&conv}, &out);
  CHECK(s.code() == StatusCode::kInvalidArgument);
  CHECK(s.message() ==
        "node 1 'relu' (relu): output 0 (tensor 4 'relu') is declared "
        "f32[1,4,4,1]; inference gives f32[1,2,2,1]");
}

TEST_CASE("a graph output may be a graph input or a constant") {
  GraphBuilder b("passthrough");
  const TensorId x = b.Input("x", DType::kF32, {2});
  const TensorId k = b.ConstantF32("k", {2}, {7, 8});
  b.Output(x);
  b.Output(k);
  Expected<Graph> graph = std::move(b).Finish();
  REQUIRE(graph.ok());
  const HostTensor input = ToHost(F({2}, {1, 2}));
  auto r = RunReference(*graph, {input});
  REQUIRE(r.ok());
  CHECK(ToFloats((*r)[0]) == std::vector<float>{1, 2});
  CHECK(ToFloats((*r)[1]) == std::vector<float>{7, 8});
  // The constant comes back as a view of the graph's bytes, not a copy.
  CHECK((*r)[1].is_view());
  CHECK((*r)[1].raw() == graph->tensor(k).constant->data());
}

}  // namespace
}  // namespace opuc
