//===- tests/cpu_reference/integer_test_util.h - Run one integer op -*- C++ -*-===//
//
// RunQ builds a one-node quantized graph (GraphBuilder, then the fixed
// points set on its tensors), verifies it and runs it with RunReference:
//
//   QRun r = RunQ(OpKind::kAdd, {Q({1}, {100}, 6), Q({1}, {-37}, 4)}, 5);
//   CHECK(r.values == std::vector<int64_t>{-24});
//
// Expected integers come from docs/numerics.md's examples or from hand
// derivations written next to them.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_TESTS_CPU_REFERENCE_INTEGER_TEST_UTIL_H
#define OPUC_TESTS_CPU_REFERENCE_INTEGER_TEST_UTIL_H

#include <doctest/doctest.h>

#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "opuc/cpu_reference/reference.h"
#include "opuc/ir/graph_builder.h"
#include "opuc/ir/verifier.h"
#include "reference_test_util.h"

namespace opuc::testing {

struct QOperand {
  DType dtype = DType::kI8;
  Shape shape;
  std::vector<int64_t> values;
  FixedPoint fixed_point;  ///< Empty: none.
  bool constant = false;
  bool absent = false;
};

/// An i8 graph input at fraction length f.
inline QOperand Q(Shape shape, std::vector<int64_t> values, int f) {
  return {DType::kI8, std::move(shape), std::move(values), {{f}, -1}, false, false};
}
/// An i8 constant at fraction length f.
inline QOperand QC(Shape shape, std::vector<int64_t> values, int f) {
  return {DType::kI8, std::move(shape), std::move(values), {{f}, -1}, true, false};
}
/// i8 weights with one fraction length per index of `axis`.
inline QOperand QW(Shape shape, std::vector<int64_t> values, std::vector<int32_t> fractions,
                   int axis) {
  return {DType::kI8, std::move(shape), std::move(values), {std::move(fractions), axis}, true,
          false};
}
/// An i32 constant (a bias, a softmax exp table).
inline QOperand I32C(Shape shape, std::vector<int64_t> values) {
  return {DType::kI32, std::move(shape), std::move(values), {}, true, false};
}
/// An i8[256] constant without a fixed point (a lookup table).
inline QOperand Table(std::vector<int64_t> values) {
  return {DType::kI8, {256}, std::move(values), {}, true, false};
}
/// The same operand in another quantized format (u8, i16).
inline QOperand As(DType dtype, QOperand operand) {
  operand.dtype = dtype;
  return operand;
}
inline QOperand NoOperand() { return {DType::kI8, {}, {}, {}, false, true}; }

inline HostTensor ToHostQ(const QOperand& o) {
  HostTensor t = HostTensor::Zeros(o.dtype, o.shape).value();
  REQUIRE(static_cast<size_t>(t.elements()) == o.values.size());
  for (size_t i = 0; i < o.values.size(); ++i) {
    if (o.dtype == DType::kI8) t.data<int8_t>()[i] = static_cast<int8_t>(o.values[i]);
    if (o.dtype == DType::kU8) t.data<uint8_t>()[i] = static_cast<uint8_t>(o.values[i]);
    if (o.dtype == DType::kI16) t.data<int16_t>()[i] = static_cast<int16_t>(o.values[i]);
    if (o.dtype == DType::kI32) t.data<int32_t>()[i] = static_cast<int32_t>(o.values[i]);
  }
  return t;
}

struct QRun {
  Status verified;  ///< Verify() of the quantized graph.
  Status status;    ///< Of building or running it.
  Shape shape;
  std::vector<int64_t> values;
  /// The message of the first failure (verify or run), "" if none.
  std::string error() const {
    if (!status.ok()) return status.message();
    return verified.ok() ? std::string() : verified.message();
  }
};

/// The elements of an integer tensor.
inline std::vector<int64_t> IntValues(const HostTensor& y) {
  std::vector<int64_t> values;
  for (int64_t i = 0; i < y.elements(); ++i) {
    switch (y.dtype()) {
      case DType::kI8: values.push_back(y.data<int8_t>()[i]); break;
      case DType::kU8: values.push_back(y.data<uint8_t>()[i]); break;
      case DType::kI16: values.push_back(y.data<int16_t>()[i]); break;
      case DType::kI32: values.push_back(y.data<int32_t>()[i]); break;
      default: values.push_back(0); break;
    }
  }
  return values;
}

/// One `op` node over `operands`; its output gets `output_fp` (a per-tensor
/// f, or the given FixedPoint, or none) and, when given, the quantized
/// format `output_dtype` (else what inference gives).
inline QRun RunQFixed(OpKind op, const std::vector<QOperand>& operands, FixedPoint output_fp,
                      Attributes attrs = {}, std::optional<DType> output_dtype = std::nullopt) {
  GraphBuilder b("one_op");
  std::vector<TensorId> ids;
  std::vector<HostTensor> inputs;
  for (size_t i = 0; i < operands.size(); ++i) {
    const QOperand& o = operands[i];
    const std::string name = "in" + std::to_string(i);
    if (o.absent) {
      ids.push_back(kNoTensor);
    } else if (o.constant) {
      const HostTensor host = ToHostQ(o);
      ids.push_back(
          b.Constant(name, o.dtype, o.shape, ConstantData::Copy(host.raw(), host.bytes())));
    } else {
      ids.push_back(b.Input(name, o.dtype, o.shape));
      inputs.push_back(ToHostQ(o));
    }
  }
  const TensorId out = b.Op(op, "op", ids, std::move(attrs));
  b.Output(out);
  QRun run;
  Expected<Graph> graph = std::move(b).Finish();
  if (!graph.ok()) {
    run.status = graph.status();
    return run;
  }
  for (size_t i = 0; i < operands.size(); ++i)
    if (ids[i] != kNoTensor) graph->tensor(ids[i]).fixed_point = operands[i].fixed_point;
  graph->tensor(out).fixed_point = std::move(output_fp);
  if (output_dtype) graph->tensor(out).dtype = *output_dtype;
  run.verified = Verify(*graph);
  Expected<std::vector<HostTensor>> outputs = RunReference(*graph, inputs);
  if (!outputs.ok()) {
    run.status = outputs.status();
    return run;
  }
  REQUIRE(outputs->size() == 1);
  const HostTensor& y = outputs->front();
  run.shape = y.shape();
  run.values = IntValues(y);
  return run;
}

inline QRun RunQ(OpKind op, const std::vector<QOperand>& operands, int f_out,
                 Attributes attrs = {}) {
  return RunQFixed(op, operands, FixedPoint{{f_out}, -1}, std::move(attrs));
}
/// The same with an output in `format` (i8, u8, i16).
inline QRun RunQAs(DType format, OpKind op, const std::vector<QOperand>& operands, int f_out,
                   Attributes attrs = {}) {
  return RunQFixed(op, operands, FixedPoint{{f_out}, -1}, std::move(attrs), format);
}

/// CHECKs that the run verified and succeeded, and returns its values.
inline std::vector<int64_t> Ok(const QRun& run) {
  INFO(run.error());
  CHECK(run.verified.ok());
  CHECK(run.status.ok());
  return run.values;
}

using Q8 = std::vector<int64_t>;

}  // namespace opuc::testing

#endif  // OPUC_TESTS_CPU_REFERENCE_INTEGER_TEST_UTIL_H
