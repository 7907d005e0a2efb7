//===- tests/frontend/tflite_test_util.h - Importing test buffers -*- C++ -*-===//
#ifndef OPUC_TESTS_FRONTEND_TFLITE_TEST_UTIL_H
#define OPUC_TESTS_FRONTEND_TFLITE_TEST_UTIL_H

#include <doctest/doctest.h>

#include <string>

#include "frontend/tflite_builder.h"
#include "opuc/frontend/tflite.h"

namespace opuc::test {

using Act = tfl::ActivationFunctionType;
using Op = tfl::BuiltinOperator;

/// x [1,2] → RELU → r; r + constant c [1,2] (ADD) → y. Returns the finished bytes.
inline std::vector<uint8_t> ReluAddModel(TfliteBuilder& b) {
  const int32_t x = b.Input("x", {1, 2});
  const int32_t c = b.Float("c", {1, 2}, {1.0f, 2.0f});
  const int32_t r = b.Tensor("r", {1, 2});
  const int32_t y = b.Tensor("y", {1, 2});
  b.Op(Op::RELU, {x}, {r});
  b.Op(Op::ADD, {r, c}, {y});
  b.Output(y);
  return b.Finish();
}

/// Imports the builder's model; the test stops unless that succeeds.
inline TfliteImport ImportOk(TfliteBuilder& b) {
  Expected<TfliteImport> result = ReadTflite(b.Finish(), "t.tflite");
  REQUIRE_MESSAGE(result.ok(), result.status().ToString());
  return std::move(result).value();
}

/// Reads `bytes` as t.tflite, which must fail; returns the message.
inline std::string ReadError(const std::vector<uint8_t>& bytes) {
  Expected<TfliteImport> result = ReadTflite(bytes, "t.tflite");
  REQUIRE_FALSE(result.ok());
  return result.status().message();
}

/// Imports the builder's model, which must fail; returns the message.
inline std::string ImportError(TfliteBuilder& b) {
  Expected<TfliteImport> result = ReadTflite(b.Finish(), "t.tflite");
  REQUIRE_FALSE(result.ok());
  return result.status().message();
}

/// The IR tensor called `name`; the test stops when there is none.
inline TensorId TensorNamed(const Graph& g, const std::string& name) {
  for (size_t i = 0; i < g.tensors.size(); ++i)
    if (g.tensors[i].name == name) return static_cast<TensorId>(i);
  FAIL("no tensor named '", name, "'");
  return kNoTensor;
}

/// The graph's single node; the test stops unless there is exactly one.
inline const Node& OnlyNode(const TfliteImport& import) {
  REQUIRE(import.graph.nodes.size() == 1);
  return import.graph.nodes[0];
}

}  // namespace opuc::test

#endif  // OPUC_TESTS_FRONTEND_TFLITE_TEST_UTIL_H
