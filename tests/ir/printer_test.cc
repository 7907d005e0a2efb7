// The printer's text form (printer.h) against goldens written by hand. Constant
// hashes are the published FNV-1a 32 test vectors: "" -> 811c9dc5,
// "a" -> e40c292c, "foobar" -> bf9cf968.
#include "opuc/ir/printer.h"

#include <doctest/doctest.h>

#include <string>
#include <string_view>

#include "op_test_util.h"
#include "opuc/ir/verifier.h"

namespace opuc {
namespace {

using namespace testing;

ConstantData Bytes(std::string_view text) { return ConstantData::Copy(text.data(), text.size()); }

Tensor Quantized(DType dtype, Shape shape, std::string name, FixedPoint fp) {
  Tensor t = T(dtype, std::move(shape), std::move(name));
  t.fixed_point = std::move(fp);
  return t;
}

TEST_CASE("Fnv1a32 matches the published test vectors") {
  const auto hash = [](std::string_view s) {
    return Fnv1a32(reinterpret_cast<const uint8_t*>(s.data()), s.size());
  };
  CHECK(hash("") == 0x811c9dc5u);
  CHECK(hash("a") == 0xe40c292cu);
  CHECK(hash("foobar") == 0xbf9cf968u);
}

TEST_CASE("PrintTensorType: dtype, shape and fixed point") {
  CHECK(PrintTensorType(F32({1, 32, 32, 3})) == "f32[1,32,32,3]");
  CHECK(PrintTensorType(F32({})) == "f32[]");
  CHECK(PrintTensorType(Quantized(DType::kI8, {1, 8}, "q", {{7}, -1})) == "i8[1,8]<f7>");
  CHECK(PrintTensorType(Quantized(DType::kI8, {1, 8}, "q", {{-2}, -1})) == "i8[1,8]<f-2>");
  CHECK(PrintTensorType(Quantized(DType::kI8, {4, 3}, "q", {{7, 6, 7, 5}, 0})) ==
        "i8[4,3]<f[7,6,7,5]@0>");
  CHECK(PrintTensorType(Quantized(DType::kI32, {3}, "q", {{9, 9, 9}, 0})) == "i32[3]<f[9,9,9]@0>");
}

// x --conv2d(no bias)--> "conv out" --add(a)--> block/sum:0 --leaky_relu--> y
Graph GoldenGraph() {
  Graph g;
  g.name = "golden";
  g.metadata = {{"source", "hand \"written\""}, {"version", "0.1"}};
  const TensorId x = g.AddTensor(Quantized(DType::kI8, {1, 2, 2, 3}, "x", {{5}, -1}));
  g.inputs = {x};
  const TensorId w = g.AddConstant("w", DType::kI8, {2, 1, 1, 3}, Bytes("foobar"));
  g.tensor(w).fixed_point = {{7, 6}, 0};
  const TensorId conv_out = g.AddTensor(Quantized(DType::kI8, {1, 2, 2, 2}, "conv out", {{4}, -1}));
  const TensorId a = g.AddConstant("a", DType::kI8, {1}, Bytes("a"));
  const TensorId sum = g.AddTensor(Quantized(DType::kI8, {1, 2, 2, 2}, "block/sum:0", {{4}, -1}));
  g.AddConstant("e", DType::kF32, {0}, Bytes(""));
  const TensorId y = g.AddTensor(Quantized(DType::kI8, {1, 2, 2, 2}, "y", {{6}, -1}));

  Node conv;  // 1x1 kernel, SAME, stride 1: [1,2,2,3] -> [1,2,2,Co=2]
  conv.name = "conv";
  conv.op = OpKind::kConv2D;
  conv.inputs = {x, w, kNoTensor};
  conv.outputs = {conv_out};
  conv.attrs = A({{"padding", Str("same")}});
  g.AddNode(conv);
  Node add;
  add.name = "block/sum:0";
  add.op = OpKind::kAdd;
  add.inputs = {conv_out, a};
  add.outputs = {sum};
  add.attrs = A({{"activation", Str("relu")}});
  g.AddNode(add);
  Node leaky;
  leaky.name = "y";
  leaky.op = OpKind::kLeakyRelu;
  leaky.inputs = {sum};
  leaky.outputs = {y};
  leaky.attrs = A({{"alpha", 0.1}});
  g.AddNode(leaky);
  g.outputs = {y};
  return g;
}

TEST_CASE("PrintGraph: golden text of a small quantized graph") {
  const Graph g = GoldenGraph();
  REQUIRE(Verify(g).ok());
  const std::string expected =
      "graph \"golden\" {\n"
      "  meta \"source\" = \"hand \\\"written\\\"\"\n"
      "  meta \"version\" = \"0.1\"\n"
      "  input %x: i8[1,2,2,3]<f5>\n"
      "  %w: i8[2,1,1,3]<f[7,6]@0> = const 6 bytes fnv1a:bf9cf968\n"
      "  %a: i8[1] = const 1 bytes fnv1a:e40c292c\n"
      "  %e: f32[0] = const 0 bytes fnv1a:811c9dc5\n"
      "  %\"conv out\": i8[1,2,2,2]<f4> = conv2d(%x, %w, _) {activation=\"none\", "
      "dilations=[1,1], padding=\"same\", strides=[1,1]}  // \"conv\"\n"
      "  %block/sum:0: i8[1,2,2,2]<f4> = add(%\"conv out\", %a) {activation=\"relu\"}\n"
      "  %y: i8[1,2,2,2]<f6> = leaky_relu(%block/sum:0) {alpha=0.1}\n"
      "  output %y\n"
      "}\n";
  CHECK(PrintGraph(g) == expected);
}

TEST_CASE("PrintGraph: an empty graph, and a node without attributes or name") {
  Graph empty;
  CHECK(PrintGraph(empty) == "graph \"\" {\n}\n");

  Graph g;
  g.name = "r";
  g.inputs = {g.AddTensor(F32({2}, "in"))};
  g.AddTensor(F32({2}, "out"));
  Node relu;
  relu.op = OpKind::kRelu;
  relu.inputs = {0};
  relu.outputs = {1};
  g.AddNode(relu);
  g.outputs = {1};
  CHECK(PrintGraph(g) ==
        "graph \"r\" {\n"
        "  input %in: f32[2]\n"
        "  %out: f32[2] = relu(%in)\n"
        "  output %out\n"
        "}\n");
}

TEST_CASE("PrintGraph: a graph Verify rejects still prints, bad ids marked") {
  Graph g;
  g.name = "bad";
  g.AddTensor(T(static_cast<DType>(9), {2}, "t"));
  g.inputs = {50, 0};
  Node node;
  node.name = "n";
  node.op = static_cast<OpKind>(999);
  node.inputs = {42, kNoTensor, 0};
  node.outputs = {43, 0};
  g.nodes.push_back(node);  // not AddNode: an unknown op has no defaults
  g.outputs = {-7};
  CHECK_FALSE(Verify(g).ok());
  CHECK(PrintGraph(g) ==
        "graph \"bad\" {\n"
        "  input %<bad 50>\n"
        "  input %t: <bad dtype>[2]\n"
        "  %<bad 43>, %t: <bad dtype>[2] = <bad op>(%<bad 42>, _, %t)  // \"n\"\n"
        "  output %<bad -7>\n"
        "}\n");
}

}  // namespace
}  // namespace opuc
