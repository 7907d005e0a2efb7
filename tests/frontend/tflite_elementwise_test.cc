//===- tests/frontend/tflite_elementwise_test.cc - Elementwise operators --===//
#include <doctest/doctest.h>

#include "frontend/tflite_test_util.h"
#include "opuc/ir/sparsity.h"
#include "opuc/opug/opug.h"

namespace opuc::test {
namespace {

TEST_CASE("ADD, SUB, MUL: every fused activation becomes the IR attribute") {
  const std::pair<Act, const char*> kActivations[] = {{Act::NONE, "none"},
                                                      {Act::RELU, "relu"},
                                                      {Act::RELU_N1_TO_1, "relu_n1_to_1"},
                                                      {Act::RELU6, "relu6"},
                                                      {Act::TANH, "tanh"}};
  for (const auto& [act, name] : kActivations) {
    INFO("activation ", name);
    TfliteBuilder b;
    const int32_t x = b.Input("x", {1, 2, 2, 3});
    const int32_t c = b.Float("c", {3}, {1.0f, 2.0f, 3.0f});  // broadcasts along C
    const int32_t s = b.Tensor("s", {1, 2, 2, 3});
    const int32_t d = b.Tensor("d", {1, 2, 2, 3});
    const int32_t p = b.Tensor("p", {1, 2, 2, 3});
    b.Op(Op::ADD, {x, c}, {s}, b.Add(act));
    b.Op(Op::SUB, {s, x}, {d}, b.Sub(act));
    b.Op(Op::MUL, {d, c}, {p}, b.Mul(act));
    b.Output(p);
    const TfliteImport m = ImportOk(b);
    REQUIRE(m.graph.nodes.size() == 3);
    CHECK(m.graph.nodes[0].op == OpKind::kAdd);
    CHECK(m.graph.nodes[1].op == OpKind::kSub);
    CHECK(m.graph.nodes[2].op == OpKind::kMul);
    for (const Node& node : m.graph.nodes) CHECK(node.attrs.GetString("activation") == name);
  }
}

TEST_CASE("ADD without options has no activation, with SIGN_BIT it is an error") {
  TfliteBuilder b;
  const int32_t x = b.Input("x", {2});
  const int32_t y = b.Tensor("y", {2});
  b.Op(Op::ADD, {x, x}, {y});
  b.Output(y);
  CHECK(OnlyNode(ImportOk(b)).attrs.GetString("activation") == "none");

  TfliteBuilder c;
  const int32_t x2 = c.Input("x", {2});
  const int32_t y2 = c.Tensor("y", {2});
  c.Op(Op::MUL, {x2, x2}, {y2}, c.Mul(Act::SIGN_BIT));
  c.Output(y2);
  CHECK(ImportError(c) ==
        "t.tflite: operator 0 (MUL): builtin_options.fused_activation_function"
        " is SIGN_BIT; opuc supports NONE, RELU, RELU_N1_TO_1, RELU6 and TANH");
}

TEST_CASE("Unary activations map one to one, LOGISTIC is sigmoid") {
  const std::pair<Op, OpKind> kUnary[] = {{Op::RELU, OpKind::kRelu},
                                          {Op::RELU6, OpKind::kRelu6},
                                          {Op::RELU_N1_TO_1, OpKind::kReluN1To1},
                                          {Op::LOGISTIC, OpKind::kSigmoid},
                                          {Op::TANH, OpKind::kTanh},
                                          {Op::HARD_SWISH, OpKind::kHardSwish}};
  for (const auto& [op, kind] : kUnary) {
    INFO(tfl::EnumNameBuiltinOperator(op));
    TfliteBuilder b;
    const int32_t x = b.Input("x", {1, 3});
    const int32_t y = b.Tensor("y", {1, 3});
    b.Op(op, {x}, {y});
    b.Output(y);
    const TfliteImport m = ImportOk(b);
    CHECK(OnlyNode(m).op == kind);
    CHECK(m.source_operators.at(tfl::EnumNameBuiltinOperator(op)) == 1);
  }
}

TEST_CASE("PRELU and LEAKY_RELU") {
  TfliteBuilder b;
  const int32_t x = b.Input("x", {1, 2, 2, 3});
  const int32_t alpha = b.Float("alpha", {1, 1, 3}, {0.1f, 0.2f, 0.3f});
  const int32_t p = b.Tensor("p", {1, 2, 2, 3});
  const int32_t l = b.Tensor("l", {1, 2, 2, 3});
  b.Op(Op::PRELU, {x, alpha}, {p});
  b.Op(Op::LEAKY_RELU, {p}, {l}, b.LeakyRelu(0.25f));
  b.Output(l);
  const TfliteImport m = ImportOk(b);
  REQUIRE(m.graph.nodes.size() == 2);
  CHECK(m.graph.nodes[0].op == OpKind::kPRelu);
  CHECK(m.graph.nodes[0].inputs[1] == TensorNamed(m.graph, "alpha"));
  CHECK(m.graph.nodes[1].op == OpKind::kLeakyRelu);
  CHECK(m.graph.nodes[1].attrs.GetFloat("alpha") == 0.25);

  TfliteBuilder c;
  const int32_t x2 = c.Input("x", {2});
  const int32_t y2 = c.Tensor("y", {2});
  c.Op(Op::LEAKY_RELU, {x2}, {y2});
  c.Output(y2);
  CHECK(ImportError(c) ==
        "t.tflite: operator 0 (LEAKY_RELU): builtin_options is missing;"
        " expected LeakyReluOptions");
}

TEST_CASE("DEQUANTIZE of a FLOAT16 constant is an IR dequantize of an f16 constant") {
  TfliteBuilder b;
  const int32_t x = b.Input("x", {1, 2});
  const int32_t h = b.Half("w_f16", {1, 2}, {HalfBits(0.5f), HalfBits(-2.0f)});
  const int32_t w = b.Tensor("w", {1, 2});
  const int32_t y = b.Tensor("y", {1, 2});
  b.Op(Op::DEQUANTIZE, {h}, {w});
  b.Op(Op::ADD, {x, w}, {y});
  b.Output(y);
  const TfliteImport m = ImportOk(b);
  REQUIRE(m.graph.nodes.size() == 2);
  const Node& deq = m.graph.nodes[0];
  CHECK(deq.op == OpKind::kDequantize);
  const Tensor& half = m.graph.tensor(deq.inputs[0]);
  CHECK(half.dtype == DType::kF16);
  REQUIRE(half.constant);
  CHECK(half.constant->size() == 4);
  CHECK(half.constant->As<uint16_t>()[0] == 0x3800);  // 0.5 in binary16
  CHECK(half.constant->As<uint16_t>()[1] == 0xc000);  // -2.0
  CHECK(m.graph.tensor(deq.outputs[0]).dtype == DType::kF32);
}

TEST_CASE("DEQUANTIZE of a quantized tensor is an error naming the tensor") {
  TfliteBuilder b;
  const int32_t q = b.Constant("q", {2}, tfl::TensorType::INT8, {1, 2});
  b.SetQuantization(q, {0.5f}, {0});
  const int32_t y = b.Tensor("y", {2});
  b.Op(Op::DEQUANTIZE, {q}, {y});
  b.Output(y);
  CHECK(ImportError(b) ==
        "t.tflite: operator 0 (DEQUANTIZE): input 0 (input): tensor 0 'q': type INT8 is not"
        " supported (opuc imports FLOAT32, FLOAT16 and INT32 tensors)");
}

TEST_CASE("DENSIFY of a sparse FLOAT16 constant keeps the sparse constant") {
  // [[1,0,2],[0,0,3]] as CSR rows: segments [0,2,3], indices [0,2,2].
  TfliteBuilder b;
  TfliteSparsity csr;
  csr.traversal_order = {0, 1};
  csr.dims = {{true, 2, {}, {}},
              {false, 0, {0, 2, 3}, {0, 2, 2}, tfl::SparseIndexVector::Uint8Vector}};
  const int32_t s =
      b.SparseHalf("w_sparse", {2, 3}, {HalfBits(1.0f), HalfBits(2.0f), HalfBits(3.0f)}, csr);
  const int32_t d = b.Tensor("w_dense", {2, 3}, tfl::TensorType::FLOAT16);
  const int32_t y = b.Tensor("y", {2, 3});
  b.Op(Op::DENSIFY, {s}, {d});
  b.Op(Op::DEQUANTIZE, {d}, {y});
  b.Output(y);
  const TfliteImport m = ImportOk(b);
  REQUIRE(m.graph.nodes.size() == 2);
  CHECK(m.graph.nodes[0].op == OpKind::kDensify);
  const Tensor& sparse = m.graph.tensor(m.graph.nodes[0].inputs[0]);
  REQUIRE(sparse.sparsity);
  CHECK(sparse.shape == Shape{2, 3});
  CHECK(sparse.constant->size() == 6);  // three stored f16 values
  CHECK(sparse.sparsity->dimensions[1].indices == std::vector<int32_t>{0, 2, 2});
  Expected<ConstantData> dense = DensifyConstant(sparse);
  REQUIRE(dense.ok());
  const uint16_t* v = dense->As<uint16_t>();
  CHECK(std::vector<uint16_t>(v, v + 6) ==
        std::vector<uint16_t>{HalfBits(1.0f), 0, HalfBits(2.0f), 0, 0, HalfBits(3.0f)});
  CHECK(m.source_operators == std::map<std::string, int>{{"DENSIFY", 1}, {"DEQUANTIZE", 1}});
  // .opug has no place for the encoding yet, so both writers refuse.
  const std::string refusal =
      "tensor 0 'w_sparse': .opug cannot hold sparse constants yet; densify them first (the"
      " Densify pass)";
  CHECK(WriteOpug(m.graph).status().code() == StatusCode::kUnsupported);
  CHECK(WriteOpug(m.graph).status().message() == refusal);
  CHECK(OpugToJson(m.graph).status().message() == refusal);
}

TEST_CASE("DENSIFY errors: a dense input, a sparse input to another operator, bad sparsity") {
  TfliteBuilder b;
  const int32_t h = b.Half("h", {2}, {0, 0});
  const int32_t d = b.Tensor("d", {2}, tfl::TensorType::FLOAT16);
  b.Op(Op::DENSIFY, {h}, {d});
  b.Output(d);
  CHECK(ImportError(b) ==
        "t.tflite: operator 0 (DENSIFY): input 0 (input) tensor 'h' is not a"
        " sparse constant; DENSIFY needs one");

  TfliteSparsity csr;
  csr.traversal_order = {0};
  csr.dims = {{false, 0, {0, 1}, {1}}};
  TfliteBuilder c;
  const int32_t s = c.SparseHalf("s", {2}, {HalfBits(1.0f)}, csr);
  const int32_t y = c.Tensor("y", {2});
  c.Op(Op::DEQUANTIZE, {s}, {y});
  c.Output(y);
  CHECK(ImportError(c) ==
        "t.tflite: operator 0 (DEQUANTIZE): input 0 tensor 's' is a sparse"
        " constant; only DENSIFY reads those");

  csr.dims = {{false, 0, {0, 1}, {2}}};  // index 2 in a dimension of 2
  TfliteBuilder e;
  const int32_t s2 = e.SparseHalf("s", {2}, {HalfBits(1.0f)}, csr);
  const int32_t d2 = e.Tensor("d", {2}, tfl::TensorType::FLOAT16);
  e.Op(Op::DENSIFY, {s2}, {d2});
  e.Output(d2);
  CHECK(ImportError(e) ==
        "t.tflite: operator 0 (DENSIFY): input 0 (input): tensor 0 's':"
        " sparsity dimensions[0].indices[0] is 2; expected 0..1");
}

}  // namespace
}  // namespace opuc::test
