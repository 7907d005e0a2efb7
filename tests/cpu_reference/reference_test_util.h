//===- tests/cpu_reference/reference_test_util.h - Run one op ---*- C++ -*-===//
//
// RunOp builds a one-node graph with GraphBuilder (each operand a graph input,
// or a constant), runs it with RunReference and returns the output as floats:
//
//   OpRun r = RunOp(OpKind::kRelu, {F({3}, {-1, 0, 2})});
//   CHECK(r.values == std::vector<float>{0, 0, 2});
//
// Expected values in the tests are derived by hand in comments next to them.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_TESTS_CPU_REFERENCE_REFERENCE_TEST_UTIL_H
#define OPUC_TESTS_CPU_REFERENCE_REFERENCE_TEST_UTIL_H

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "opuc/cpu_reference/reference.h"
#include "opuc/ir/graph_builder.h"

namespace opuc::testing {

struct Operand {
  DType dtype = DType::kF32;
  Shape shape;
  std::vector<float> values;     ///< f32, or integers for i8/i16/i32.
  std::vector<uint16_t> halves;  ///< f16 bits.
  bool constant = false;
  bool absent = false;
};

/// An f32 graph input, an f32 constant, an absent optional input.
inline Operand F(Shape shape, std::vector<float> values) {
  return {DType::kF32, std::move(shape), std::move(values), {}, false, false};
}
inline Operand C(Shape shape, std::vector<float> values) {
  return {DType::kF32, std::move(shape), std::move(values), {}, true, false};
}
inline Operand Absent() { return {DType::kF32, {}, {}, {}, false, true}; }
/// An integer graph input of `dtype`.
inline Operand Ints(DType dtype, Shape shape, std::vector<float> values) {
  return {dtype, std::move(shape), std::move(values), {}, false, false};
}
inline Operand Halves(Shape shape, std::vector<uint16_t> bits) {
  return {DType::kF16, std::move(shape), {}, std::move(bits), false, false};
}

/// The bytes of an operand's values in its dtype.
inline HostTensor ToHost(const Operand& o) {
  HostTensor t = HostTensor::Zeros(o.dtype, o.shape).value();
  REQUIRE(static_cast<size_t>(t.elements()) ==
          (o.dtype == DType::kF16 ? o.halves.size() : o.values.size()));
  for (size_t i = 0; i < static_cast<size_t>(t.elements()); ++i) {
    switch (o.dtype) {
      case DType::kF32: t.data<float>()[i] = o.values[i]; break;
      case DType::kF16: t.data<uint16_t>()[i] = o.halves[i]; break;
      case DType::kI8: t.data<int8_t>()[i] = static_cast<int8_t>(o.values[i]); break;
      case DType::kI16: t.data<int16_t>()[i] = static_cast<int16_t>(o.values[i]); break;
      case DType::kI32: t.data<int32_t>()[i] = static_cast<int32_t>(o.values[i]); break;
      case DType::kU8: t.data<uint8_t>()[i] = static_cast<uint8_t>(o.values[i]); break;
    }
  }
  return t;
}

/// The elements of a tensor as floats (integers convert exactly up to 2^24).
inline std::vector<float> ToFloats(const HostTensor& t) {
  std::vector<float> out(static_cast<size_t>(t.elements()));
  for (size_t i = 0; i < out.size(); ++i) {
    switch (t.dtype()) {
      case DType::kF32: out[i] = t.data<float>()[i]; break;
      case DType::kF16: out[i] = static_cast<float>(t.data<uint16_t>()[i]); break;
      case DType::kI8: out[i] = t.data<int8_t>()[i]; break;
      case DType::kI16: out[i] = t.data<int16_t>()[i]; break;
      case DType::kI32: out[i] = static_cast<float>(t.data<int32_t>()[i]); break;
      case DType::kU8: out[i] = t.data<uint8_t>()[i]; break;
    }
  }
  return out;
}

struct OpRun {
  Status status;  ///< Of building or running the graph.
  DType dtype = DType::kF32;
  Shape shape;
  std::vector<float> values;
};

inline OpRun RunOp(OpKind op, const std::vector<Operand>& operands, Attributes attrs = {}) {
  GraphBuilder b("one_op");
  std::vector<TensorId> ids;
  std::vector<HostTensor> inputs;
  for (size_t i = 0; i < operands.size(); ++i) {
    const Operand& o = operands[i];
    const std::string name = "in" + std::to_string(i);
    if (o.absent) {
      ids.push_back(kNoTensor);
    } else if (o.constant) {
      ids.push_back(b.ConstantF32(name, o.shape, o.values));
    } else {
      ids.push_back(b.Input(name, o.dtype, o.shape));
      inputs.push_back(ToHost(o));
    }
  }
  b.Output(b.Op(op, "op", ids, std::move(attrs)));
  OpRun run;
  Expected<Graph> graph = std::move(b).Finish();
  if (!graph.ok()) {
    run.status = graph.status();
    return run;
  }
  Expected<std::vector<HostTensor>> outputs = RunReference(*graph, inputs);
  if (!outputs.ok()) {
    run.status = outputs.status();
    return run;
  }
  REQUIRE(outputs->size() == 1);
  run.dtype = outputs->front().dtype();
  run.shape = outputs->front().shape();
  run.values = ToFloats(outputs->front());
  return run;
}

/// Shorthands for attribute values (AttrValue(2) would be ambiguous).
inline AttrValue I64(int64_t v) { return v; }
inline AttrValue IntList(std::vector<int64_t> v) { return v; }
inline AttrValue Str(std::string s) { return s; }
inline AttrValue Real(double v) { return v; }
inline AttrValue Flag(bool v) { return v; }
inline Attributes A(std::vector<std::pair<std::string, AttrValue>> entries) {
  Attributes attrs;
  for (auto& [name, value] : entries) attrs.Set(name, value);
  return attrs;
}
/// A fused activation attribute ("relu", "relu6", ...).
inline Attributes Act(const std::string& activation) {
  return A({{"activation", Str(activation)}});
}

/// Element-wise closeness, relative to the expected value (exact for 0),
/// for results of exp, tanh and divisions.
inline void CheckClose(const std::vector<float>& actual, const std::vector<double>& expected,
                       double relative = 1e-6) {
  REQUIRE(actual.size() == expected.size());
  for (size_t i = 0; i < actual.size(); ++i) {
    INFO("element " << i << ": " << actual[i] << " vs " << expected[i]);
    if (expected[i] == 0) {
      CHECK(actual[i] == 0.0f);
      continue;
    }
    CHECK(std::fabs(actual[i] - expected[i]) <= relative * std::fabs(expected[i]));
  }
}

inline bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace opuc::testing

#endif  // OPUC_TESTS_CPU_REFERENCE_REFERENCE_TEST_UTIL_H
