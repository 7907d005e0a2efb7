//===- tests/frontend/opug_quantized_test.cc - A quantized graph round trip ===//
//
// A small hand-built quantized graph (docs/ir.md, "Quantized graphs") with the
// ops of quantized graphs — quantize, lookup_table, an i8 softmax with its
// exp_table — survives .opug, JSON and the printer, fixed points included.
//
//===----------------------------------------------------------------------===//
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "frontend/test_graphs.h"
#include "opuc/ir/graph_builder.h"
#include "opuc/ir/printer.h"
#include "opuc/ir/verifier.h"
#include "opuc/opug/opug.h"

namespace opuc {
namespace {

// x f32[1,2,2,2] -> quantize <f5> -> conv2d(w <f[7,6]@0>, b i32) <f4> -> lookup_table(lut) <f7>
//   -> reshape [1,8] -> softmax(exp) <f7> -> dequantize -> y f32[1,8]
Graph QuantizedGraph() {
  GraphBuilder b("quantized");
  const TensorId x = b.Input("x", DType::kF32, {1, 2, 2, 2});
  const TensorId q = b.Op(OpKind::kQuantize, "q", {x});
  const int8_t w[4] = {1, -2, 3, -4};
  const TensorId wt = b.Constant("w", DType::kI8, {2, 1, 1, 2}, ConstantData::Copy(w, 4));
  const int32_t bias[2] = {100, -100};
  const TensorId bt = b.Constant("b", DType::kI32, {2}, ConstantData::Copy(bias, 8));
  const TensorId c = b.Op(OpKind::kConv2D, "c", {q, wt, bt});
  std::vector<int8_t> lut(256);
  for (size_t i = 0; i < lut.size(); ++i) lut[i] = static_cast<int8_t>(255 - i);
  const TensorId lt = b.Constant("lut", DType::kI8, {256}, ConstantData::Copy(lut.data(), 256));
  const TensorId s = b.Op(OpKind::kLookupTable, "s", {c, lt});
  Attributes shape;
  shape.Set("new_shape", std::vector<int64_t>{1, 8});
  const TensorId r = b.Op(OpKind::kReshape, "r", {s}, shape);
  std::vector<int32_t> exp(256, 0);
  exp[0] = 32768;
  const TensorId et = b.Constant("exp", DType::kI32, {256}, ConstantData::Copy(exp.data(), 1024));
  const TensorId p = b.Op(OpKind::kSoftmax, "p", {r, et});
  b.Output(b.Op(OpKind::kDequantize, "y", {p}));
  Expected<Graph> g = std::move(b).Finish();
  REQUIRE(g.ok());
  g->tensor(q).fixed_point = {{5}, -1};
  g->tensor(wt).fixed_point = {{7, 6}, 0};
  g->tensor(c).fixed_point = {{4}, -1};
  g->tensor(s).fixed_point = {{7}, -1};
  g->tensor(r).fixed_point = {{7}, -1};
  g->tensor(p).fixed_point = {{7}, -1};
  return std::move(*g);
}

TEST_CASE("a quantized graph verifies and prints its fixed points and new ops") {
  const Graph g = QuantizedGraph();
  REQUIRE(Verify(g).ok());
  const std::string text = PrintGraph(g);
  CHECK(text.find("%q: i8[1,2,2,2]<f5> = quantize(%x)") != std::string::npos);
  CHECK(text.find("%w: i8[2,1,1,2]<f[7,6]@0> = const 4 bytes") != std::string::npos);
  CHECK(text.find("%s: i8[1,2,2,2]<f7> = lookup_table(%c, %lut)") != std::string::npos);
  CHECK(text.find("%p: i8[1,8]<f7> = softmax(%r, %exp) {beta=1.0}") != std::string::npos);
}

TEST_CASE("a quantized graph round-trips through .opug") {
  const Graph g = QuantizedGraph();
  Expected<std::vector<uint8_t>> bytes = WriteOpug(g);
  REQUIRE_MESSAGE(bytes.ok(), bytes.status().ToString());
  Expected<Graph> back = ReadOpug(*bytes, "quantized.opug");
  REQUIRE_MESSAGE(back.ok(), back.status().ToString());
  test::CheckSameGraph(g, *back);
  CHECK(Verify(*back).ok());
  CHECK(PrintGraph(*back) == PrintGraph(g));
}

TEST_CASE("a quantized graph round-trips through JSON" * test::NeedsJsonReader()) {
  const Graph g = QuantizedGraph();
  Expected<std::string> json = OpugToJson(g);
  REQUIRE_MESSAGE(json.ok(), json.status().ToString());
  CHECK(json->find("\"lookup_table\"") != std::string::npos);
  CHECK(json->find("\"quantize\"") != std::string::npos);
  Expected<Graph> back = ReadOpugJson(*json, "quantized.json");
  REQUIRE_MESSAGE(back.ok(), back.status().ToString());
  test::CheckSameGraph(g, *back);
  CHECK(PrintGraph(*back) == PrintGraph(g));
}

}  // namespace
}  // namespace opuc
