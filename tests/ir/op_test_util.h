//===- tests/ir/op_test_util.h - Helpers for the per-op tests ---*- C++ -*-===//
//
// The per-op tests call the registry exactly as the verifier does: defaults
// filled, attributes validated, then InferOutputTypes. Infer() returns either
// the single output type or the error message, so a test reads
//
//   CHECK(Infer(OpKind::kRelu, {&x}).type == TensorType{DType::kF32, {2, 3}});
//   CHECK(Contains(Infer(OpKind::kConcat, {&a, &b}, attrs).error, "axis"));
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_TESTS_IR_OP_TEST_UTIL_H
#define OPUC_TESTS_IR_OP_TEST_UTIL_H

#include <doctest/doctest.h>

#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "opuc/ir/graph.h"
#include "opuc/ir/op_registry.h"
#include "opuc/ir/shape.h"
#include "opuc/ir/verifier.h"

namespace opuc {

// So that doctest prints the operands of a failed CHECK.
inline std::ostream& operator<<(std::ostream& os, const TensorType& t) {
  return os << DTypeName(t.dtype) << ShapeToString(t.shape);
}

namespace testing {

inline Tensor T(DType dtype, Shape shape, std::string name = "t") {
  Tensor t;
  t.name = std::move(name);
  t.dtype = dtype;
  t.shape = std::move(shape);
  return t;
}
inline Tensor F32(Shape shape, std::string name = "t") {
  return T(DType::kF32, std::move(shape), std::move(name));
}

struct InferResult {
  bool ok = false;
  TensorType type;    ///< The single output type when ok.
  std::string error;  ///< The message when not ok.
};

/// `declared`: the node's declared output, as a verifier or executor passes it.
inline InferResult Infer(OpKind op, std::vector<const Tensor*> inputs, Attributes attrs = {},
                         const Tensor* declared = nullptr) {
  FillDefaultAttributes(op, &attrs);
  InferResult result;
  if (Status s = ValidateAttributes(op, attrs); !s.ok()) {
    result.error = s.message();
    return result;
  }
  InferContext ctx;
  ctx.inputs = std::move(inputs);
  ctx.attrs = &attrs;
  if (declared) ctx.outputs = {declared};
  Expected<std::vector<TensorType>> types = InferOutputTypes(op, ctx);
  if (!types.ok()) {
    result.error = types.status().message();
    return result;
  }
  REQUIRE(types->size() == 1);
  result.ok = true;
  result.type = types->front();
  return result;
}

inline bool Contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

/// Shorthands for attribute values: AttrValue("same") would be a bool and
/// AttrValue(2) is ambiguous, so values say their type.
inline AttrValue I64(int64_t v) { return v; }
inline AttrValue Ints(std::vector<int64_t> v) { return v; }
inline AttrValue Str(std::string s) { return s; }

/// A({{"strides", Ints({2, 2})}, {"padding", Str("same")}}).
inline Attributes A(std::vector<std::pair<std::string, AttrValue>> entries) {
  Attributes attrs;
  for (auto& [name, value] : entries) attrs.Set(name, value);
  return attrs;
}

/// `bytes` zero bytes as constant data.
inline ConstantData Zeros(size_t bytes) {
  const std::vector<uint8_t> zeros(bytes, 0);
  return ConstantData::Copy(zeros.data(), bytes);
}

inline Node MakeNode(std::string name, OpKind op, std::vector<TensorId> in,
                     std::vector<TensorId> out) {
  Node node;
  node.name = std::move(name);
  node.op = op;
  node.inputs = std::move(in);
  node.outputs = std::move(out);
  return node;
}

/// What Verify says of an invalid graph; the test fails unless it refuses it.
inline std::string VerifyMessage(const Graph& g) {
  Status s = Verify(g);
  CHECK(s.code() == StatusCode::kInvalidArgument);
  return s.message();
}

}  // namespace testing
}  // namespace opuc

#endif  // OPUC_TESTS_IR_OP_TEST_UTIL_H
