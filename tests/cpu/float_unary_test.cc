//===- tests/cpu/float_unary_test.cc - Float activations in vector lanes -===//
//
// FastExp within 2 ulp of std::exp over its whole range (every 97th float
// bit pattern of [-87.3, 88.3]); the CPU executor's float sigmoid within
// 4e-7 of the reference's everywhere (outputs lie in [0, 1]), across the
// rule's two cut-offs, at ±inf, and NaN for NaN; its hard swish the
// reference's bits, at the kinks, ±inf and NaN included; its tanh within 3
// ulp of std::tanh over [-12, 12], ±1 at ±inf, NaN for NaN; its softmax
// within 2e-7 of the reference's (outputs in [0, 1]).
//
//===----------------------------------------------------------------------===//
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "fast_exp.h"
#include "opuc/cpu/executor.h"
#include "opuc/cpu_reference/reference.h"
#include "opuc/ir/graph_builder.h"
#include "opuc/tensor_io/random_input.h"
#include "same_as_reference.h"

namespace opuc {
namespace {

int64_t Ordered(float f) {  // floats in the order of their values, one per ulp
  int32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  return bits < 0 ? -int64_t{bits & 0x7fffffff} : int64_t{bits};
}

TEST_CASE("FastExp is within 2 ulp of std::exp over its range") {
  int64_t worst = 0;
  float worst_at = 0;
  for (int64_t o = Ordered(-87.3f); o <= Ordered(88.3f); o += 97) {
    const int32_t bits = o < 0 ? static_cast<int32_t>(-o) | INT32_MIN : static_cast<int32_t>(o);
    float x;
    std::memcpy(&x, &bits, sizeof x);
    const int64_t ulps = std::abs(Ordered(cpu::FastExp(x)) - Ordered(std::exp(x)));
    if (ulps > worst) worst = ulps, worst_at = x;
  }
  CAPTURE(worst_at);
  CHECK(worst <= 2);
}

TEST_CASE("the float sigmoid stays within 4e-7 of the reference's, NaN for NaN") {
  GraphBuilder b("sigmoid");
  const TensorId x = b.Input("x", DType::kF32, {1, 64, 64, 4});
  b.Output(b.Op(OpKind::kSigmoid, "s", {x}));
  const Graph g = std::move(b).Finish().value();
  HostTensor in = RandomTensor(DType::kF32, {1, 64, 64, 4}, 3).value();
  float* v = in.data<float>();
  for (int64_t i = 0; i < in.elements(); ++i) v[i] *= 24.0f;  // across both cut-offs
  const float special[] = {-9.0f,
                           std::nextafter(-9.0f, 0.0f),
                           std::nextafter(-9.0f, -10.0f),
                           16.619047164916992188f,
                           std::nextafter(16.619047164916992188f, 20.0f),
                           0.0f,
                           -0.0f,
                           -100.0f,
                           100.0f,
                           1e30f,
                           -1e30f,
                           std::numeric_limits<float>::infinity(),
                           -std::numeric_limits<float>::infinity(),
                           std::numeric_limits<float>::quiet_NaN()};
  for (size_t i = 0; i < std::size(special); ++i) v[i * 37] = special[i];
  const HostTensor want = RunReference(g, {in}).value().front();
  const HostTensor got = RunCpu(g, {in}).value().front();
  for (int64_t i = 0; i < in.elements(); ++i) {
    CAPTURE(v[i]);
    const float a = got.data<float>()[i], e = want.data<float>()[i];
    if (std::isnan(e)) {
      CHECK(std::isnan(a));
      continue;
    }
    CHECK(std::abs(a - e) <= 4e-7f);
  }
}

TEST_CASE("the float hard swish gives the reference's bits") {
  GraphBuilder b("hard_swish");
  const TensorId x = b.Input("x", DType::kF32, {1, 16, 16, 8});
  b.Output(b.Op(OpKind::kHardSwish, "h", {x}));
  const Graph g = std::move(b).Finish().value();
  HostTensor in = RandomTensor(DType::kF32, {1, 16, 16, 8}, 4).value();
  float* v = in.data<float>();
  for (int64_t i = 0; i < in.elements(); ++i) v[i] *= 8.0f;  // across both kinks
  const float special[] = {-3.0f,
                           3.0f,
                           std::nextafter(-3.0f, 0.0f),
                           -0.0f,
                           std::numeric_limits<float>::infinity(),
                           -std::numeric_limits<float>::infinity(),
                           std::numeric_limits<float>::quiet_NaN()};
  for (size_t i = 0; i < std::size(special); ++i) v[i * 41] = special[i];
  CHECK(testing::SameAsReference(g, {in}));
}

TEST_CASE("the float tanh is within 3 ulp of std::tanh, +-1 at +-inf, NaN for NaN") {
  // Every 31st float bit pattern of [-12, 12] (both forms, the switch at 0.625, the saturation)
  // through the executor, against std::tanh (the reference's rule).
  std::vector<float> values;
  for (int64_t o = Ordered(-12.0f); o <= Ordered(12.0f); o += 31) {
    const int32_t bits = o < 0 ? static_cast<int32_t>(-o) | INT32_MIN : static_cast<int32_t>(o);
    float x;
    std::memcpy(&x, &bits, sizeof x);
    values.push_back(x);
  }
  const float special[] = {0.625f,
                           std::nextafter(0.625f, 0.0f),
                           -0.0f,
                           1e30f,
                           std::numeric_limits<float>::infinity(),
                           -std::numeric_limits<float>::infinity(),
                           std::numeric_limits<float>::quiet_NaN()};
  values.insert(values.end(), std::begin(special), std::end(special));
  const auto n = static_cast<int64_t>(values.size());
  GraphBuilder b("tanh");
  const TensorId x = b.Input("x", DType::kF32, {n});
  b.Output(b.Op(OpKind::kTanh, "t", {x}));
  const Graph g = std::move(b).Finish().value();
  HostTensor in = HostTensor::Zeros(DType::kF32, {n}).value();
  std::copy(values.begin(), values.end(), in.data<float>());
  const HostTensor got = RunCpu(g, {in}).value().front();
  int64_t worst = 0;
  float worst_at = 0;
  for (int64_t i = 0; i < n; ++i) {
    const float want = std::tanh(values[static_cast<size_t>(i)]);
    const float a = got.data<float>()[i];
    if (std::isnan(want)) {
      CHECK(std::isnan(a));
      continue;
    }
    const int64_t ulps = std::abs(Ordered(a) - Ordered(want));
    if (ulps > worst) worst = ulps, worst_at = values[static_cast<size_t>(i)];
  }
  CAPTURE(worst_at);
  CHECK(worst <= 3);
  MESSAGE("tanh: worst ", worst, " ulp at ", worst_at);
}

TEST_CASE("the float softmax stays within 2e-7 of the reference's") {
  for (const double beta : {1.0, 0.5, 2.5}) {
    CAPTURE(beta);
    GraphBuilder b("softmax");
    const TensorId x = b.Input("x", DType::kF32, {37, 19});
    Attributes attrs;
    attrs.Set("beta", AttrValue(beta));
    b.Output(b.Op(OpKind::kSoftmax, "s", {x}, attrs));
    const Graph g = std::move(b).Finish().value();
    HostTensor in = RandomTensor(DType::kF32, {37, 19}, 5).value();
    for (int64_t i = 0; i < in.elements(); ++i) in.data<float>()[i] *= 12.0f;  // rows far apart
    const HostTensor want = RunReference(g, {in}).value().front();
    const HostTensor got = RunCpu(g, {in}).value().front();
    for (int64_t i = 0; i < in.elements(); ++i)
      CHECK(std::abs(got.data<float>()[i] - want.data<float>()[i]) <= 2e-7f);
  }
}

}  // namespace
}  // namespace opuc
