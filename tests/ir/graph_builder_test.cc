// GraphBuilder (graph_builder.h): inferred output types, sticky errors, and
// Finish() verifying the result.
#include "opuc/ir/graph_builder.h"

#include <doctest/doctest.h>

#include <vector>

#include "op_test_util.h"

namespace opuc {
namespace {

using namespace testing;

TEST_CASE("a built graph has inferred types, defaults and the builder's names") {
  GraphBuilder b("tiny");
  const TensorId x = b.Input("x", DType::kF32, {1, 4, 4, 2});
  const TensorId w = b.ConstantF32("w", {3, 3, 3, 2}, std::vector<float>(3 * 3 * 3 * 2, 0.1f));
  const TensorId bias = b.ConstantF32("b", {3}, {0.0f, 1.0f, 2.0f});
  // SAME, stride 2: ceil(4/2) = 2.
  const TensorId c = b.Op(OpKind::kConv2D, "conv", {x, w, bias},
                          A({{"strides", Ints({2, 2})}, {"padding", Str("same")}}));
  const TensorId r = b.Op(OpKind::kRelu, "relu", {c});
  // Optional bias absent: 3x3 VALID on 4: 4 - 3 + 1 = 2.
  const TensorId d = b.Op(OpKind::kConv2D, "nobias", {x, w, kNoTensor});
  b.Output(r);
  b.Output(d);
  b.Metadata("source", "test");
  CHECK(b.status().ok());
  Expected<Graph> built = std::move(b).Finish();
  REQUIRE(built.ok());
  const Graph& g = *built;
  CHECK(g.name == "tiny");
  CHECK(g.tensors.size() == 6);
  CHECK(g.nodes.size() == 3);
  CHECK(g.tensor(c).name == "conv");
  CHECK(g.tensor(c).type() == TensorType{DType::kF32, {1, 2, 2, 3}});
  CHECK(g.tensor(r).type() == TensorType{DType::kF32, {1, 2, 2, 3}});
  CHECK(g.tensor(d).type() == TensorType{DType::kF32, {1, 2, 2, 3}});
  CHECK(g.node(0).name == "conv");
  CHECK(g.node(0).outputs == std::vector<TensorId>{c});
  CHECK(g.node(0).attrs.GetInts("dilations") == std::vector<int64_t>{1, 1});
  CHECK(g.node(2).inputs == std::vector<TensorId>{x, w, kNoTensor});
  CHECK(g.inputs == std::vector<TensorId>{x});
  CHECK(g.outputs == std::vector<TensorId>{r, d});
  CHECK(g.metadata.size() == 1);
  CHECK(g.ConstantBytes() == (54 + 3) * 4);
}

TEST_CASE("the first error sticks: later calls return kNoTensor and Finish reports it") {
  GraphBuilder b("sticky");
  const TensorId x = b.Input("x", DType::kF32, {1, 4, 4, 2});
  CHECK(b.Op(OpKind::kConv2D, "first", {x}) == kNoTensor);  // weights missing
  const std::string first = "node 'first' (conv2d): conv2d: has 1 inputs; expected 2 to 3";
  CHECK(b.status().message() == first);
  // Everything after is a no-op, even calls that would be fine or fail differently.
  CHECK(b.Input("y", DType::kF32, {2}) == kNoTensor);
  CHECK(b.ConstantF32("k", {1}, {1.0f}) == kNoTensor);
  CHECK(b.Op(OpKind::kRelu, "second", {x}) == kNoTensor);
  CHECK(b.Op(OpKind::kReshape, "third", {x}) == kNoTensor);  // would miss new_shape
  b.Output(x);
  CHECK(b.status().message() == first);
  Expected<Graph> g = std::move(b).Finish();
  REQUIRE_FALSE(g.ok());
  CHECK(g.status().message() == first);
}

TEST_CASE("Op reports bad attributes, bad input ids and inference errors, naming the node") {
  {
    GraphBuilder b("attrs");
    const TensorId x = b.Input("x", DType::kF32, {1, 4});
    CHECK(b.Op(OpKind::kSoftmax, "sm", {x}, A({{"beta", Str("one")}})) == kNoTensor);
    CHECK(b.status().message() ==
          "node 'sm' (softmax): attribute 'beta' is string \"one\";"
          " expected float");
  }
  {
    GraphBuilder b("ids");
    b.Input("x", DType::kF32, {1, 4});
    CHECK(b.Op(OpKind::kRelu, "r", {42}) == kNoTensor);
    CHECK(b.status().message() == "node 'r' (relu): input tensor 42 does not exist");
  }
  {
    GraphBuilder b("infer");
    const TensorId x = b.Input("x", DType::kF32, {2, 3});
    const TensorId y = b.Input("y", DType::kF32, {4, 3});
    CHECK(b.Op(OpKind::kAdd, "sum", {x, y}) == kNoTensor);
    CHECK(b.status().message() ==
          "node 'sum' (add): add: shapes [2,3] and [4,3] do not"
          " broadcast (dimension 0: 2 vs 4)");
  }
}

TEST_CASE("Finish verifies what the builder does not check itself") {
  {
    GraphBuilder b("names");
    const TensorId x = b.Input("x", DType::kF32, {2});
    b.Op(OpKind::kRelu, "x", {x});  // the output takes the node's name: a duplicate
    CHECK(b.status().ok());
    CHECK(std::move(b).Finish().status().message() ==
          "tensor 1 'x': name is used by an earlier tensor");
  }
  {
    GraphBuilder b("outputs");
    b.Input("x", DType::kF32, {2});
    b.Output(99);
    CHECK(std::move(b).Finish().status().message() ==
          "graph output 0 is tensor 99, which does not exist (1 tensors)");
  }
  {
    GraphBuilder b("bytes");
    b.ConstantF32("w", {2, 2}, {1.0f, 2.0f, 3.0f});  // 3 values for 4 elements
    CHECK(std::move(b).Finish().status().message() ==
          "tensor 0 'w': constant holds 12 bytes; shape [2,2] f32 needs 16");
  }
}

}  // namespace
}  // namespace opuc
