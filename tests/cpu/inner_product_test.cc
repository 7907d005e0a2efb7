//===- tests/cpu/inner_product_test.cc - GEMM kernels against the reference -===//
//
// The CPU executor's conv2d, depthwise_conv2d, transpose_conv2d and fully_connected on random
// one-op graphs (random_inner_product.h) against the reference executor:
// quantized results equal bit for bit, float results within the tolerance
// docs/cpu-executor.md states (a different summation order). Then the edges
// a random draw rarely reaches: exactness where float partial sums would
// round, an accumulator overflow, and the int32 bound of depthwise sums.
//
//===----------------------------------------------------------------------===//
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "opuc/cpu/executor.h"
#include "random_inner_product.h"
#include "within_range.h"

namespace opuc::testing {
namespace {

constexpr OpKind kOps[] = {OpKind::kConv2D, OpKind::kDepthwiseConv2D, OpKind::kTransposeConv2D,
                           OpKind::kFullyConnected};

std::vector<int64_t> Ints(const HostTensor& t) {
  std::vector<int64_t> v;
  for (int64_t i = 0; i < t.elements(); ++i) v.push_back(static_cast<int64_t>(t.ValueAt(i)));
  return v;
}

TEST_CASE("random quantized inner products equal the integer reference bit for bit") {
  InnerProductDraw draw(20261126);
  int compared = 0;
  for (OpKind op : kOps)
    for (DType format : {DType::kI8, DType::kU8, DType::kI16})
      for (int i = 0; i < 25; ++i) {
        RandomCase c = draw.Make(op, format);
        INFO(c.description);
        Expected<std::vector<HostTensor>> want = RunReference(c.graph, c.inputs);
        Expected<std::vector<HostTensor>> got = RunCpu(c.graph, c.inputs);
        REQUIRE(want.ok() == got.ok());
        if (!want.ok()) {
          CHECK(got.status().ToString() == want.status().ToString());
          continue;
        }
        CHECK(Ints(got->front()) == Ints(want->front()));
        ++compared;
      }
  CHECK(compared >= 270);  // the draw is not mostly errors
}

TEST_CASE("random float inner products are within 1e-5 of the output's range of the reference") {
  InnerProductDraw draw(7);
  for (OpKind op : kOps)
    for (int i = 0; i < 40; ++i) {
      RandomCase c = draw.Make(op, DType::kF32);
      INFO(c.description);
      Expected<std::vector<HostTensor>> want = RunReference(c.graph, c.inputs);
      Expected<std::vector<HostTensor>> got = RunCpu(c.graph, c.inputs);
      REQUIRE(want.ok());
      REQUIRE(got.ok());
      CheckWithinRange(got->front(), want->front(), 1e-5);
    }
}

/// One quantized conv2d (1 × 1 × K weights) over a 1 × 1 × 1 × K i8 input.
Graph DotGraph(const std::vector<int8_t>& w, int32_t bias, DType out_format) {
  GraphBuilder b("dot");
  const int64_t k = static_cast<int64_t>(w.size());
  const TensorId x = b.Input("x", DType::kI8, {1, 1, 1, k});
  const TensorId wt =
      b.Constant("w", DType::kI8, {1, 1, 1, k}, ConstantData::Copy(w.data(), w.size()));
  const TensorId bt = b.Constant("b", DType::kI32, {1}, ConstantData::Copy(&bias, sizeof bias));
  const TensorId y = b.Op(OpKind::kConv2D, "conv", {x, wt, bt});
  b.Output(y);
  Graph g = std::move(b).Finish().value();
  g.tensor(x).fixed_point = FixedPoint{{0}, -1};
  g.tensor(wt).fixed_point = FixedPoint{{0}, 0};
  g.tensor(y).fixed_point = FixedPoint{{0}, -1};
  g.tensor(y).dtype = out_format;
  return g;
}

TEST_CASE("a sum beyond float's 24 bits is exact") {
  // 4095 taps of -128 · -128 = 2^14 and one of -127 · -127 = 16129: the sum
  // 2^26 - 255 is odd and past 2^24, where float sums of integers lose units
  // (one GEMM over all 4096 taps gives a multiple of 8 there). The bias
  // -(2^26) + 300 leaves 45, which an i8 output shows only if none was lost.
  std::vector<int8_t> w(4096, -128);
  w[77] = -127;
  const Graph g = DotGraph(w, -(int32_t{1} << 26) + 300, DType::kI8);
  HostTensor x = HostTensor::Zeros(DType::kI8, {1, 1, 1, 4096}).value();
  std::fill(x.data<int8_t>(), x.data<int8_t>() + 4096, int8_t{-128});
  x.data<int8_t>()[77] = -127;
  Expected<std::vector<HostTensor>> got = RunCpu(g, {x});
  REQUIRE(got.ok());
  CHECK(got->front().data<int8_t>()[0] == 45);
}

TEST_CASE("an accumulator leaving int32 is the reference's error") {
  const Graph g = DotGraph({127, 127}, INT32_MAX - 100, DType::kI8);
  HostTensor x = HostTensor::Zeros(DType::kI8, {1, 1, 1, 2}).value();
  x.data<int8_t>()[0] = x.data<int8_t>()[1] = 1;  // 254 more than INT32_MAX - 100
  Expected<std::vector<HostTensor>> want = RunReference(g, {x});
  Expected<std::vector<HostTensor>> got = RunCpu(g, {x});
  REQUIRE_FALSE(want.ok());
  REQUIRE_FALSE(got.ok());
  CHECK(got.status().ToString() == want.status().ToString());
  CHECK(got.status().message().find("leaves int32") != std::string::npos);
}

TEST_CASE("an i16 depthwise whose sums leave int32 is still exact") {
  // A 23 × 23 window of weights 127 over i16 inputs: |x| · Σ|w| can reach
  // 32768 · 529 · 127 > 2^31 - 1, so int32 sums are not safe for any input.
  // All 32767: 2201385361, shifted by S = 16 + 0 - 0: 33590.47 → saturates
  // at 32767.
  GraphBuilder b("wide");
  const TensorId x = b.Input("x", DType::kI16, {1, 23, 23, 1});
  const std::vector<int8_t> w(529, 127);
  const TensorId wt =
      b.Constant("w", DType::kI8, {1, 23, 23, 1}, ConstantData::Copy(w.data(), w.size()));
  const TensorId y = b.Op(OpKind::kDepthwiseConv2D, "dw", {x, wt});
  b.Output(y);
  Graph g = std::move(b).Finish().value();
  g.tensor(x).fixed_point = FixedPoint{{16}, -1};
  g.tensor(wt).fixed_point = FixedPoint{{0}, 3};
  g.tensor(y).fixed_point = FixedPoint{{0}, -1};
  g.tensor(y).dtype = DType::kI16;
  HostTensor in = HostTensor::Zeros(DType::kI16, {1, 23, 23, 1}).value();
  std::fill(in.data<int16_t>(), in.data<int16_t>() + 529, int16_t{32767});
  Expected<std::vector<HostTensor>> want = RunReference(g, {in});
  Expected<std::vector<HostTensor>> got = RunCpu(g, {in});
  REQUIRE(want.ok());
  REQUIRE(got.ok());
  CHECK(got->front().data<int16_t>()[0] == 32767);
  // 265 taps of -30000 and 264 of 32767: 127 · 700488 = 88961976, / 2^16 =
  // 1357.45 → 1357.
  for (int i = 0; i < 529; ++i)
    in.data<int16_t>()[i] = static_cast<int16_t>(i % 2 ? 32767 : -30000);
  got = RunCpu(g, {in});
  REQUIRE(got.ok());
  CHECK(got->front().data<int16_t>()[0] == 1357);
}

TEST_CASE("a float depthwise with an infinite weight reads no padding") {
  // The kernel writes the width's padding out as zeros only when every
  // weight is finite: 0 · inf would be NaN where the reference, which skips
  // padded taps, has a finite sum. A 3 x 3 SAME window of ones but for +inf
  // at tap (0, 0), over a 3 x 3 map of ones: pixels whose tap (0, 0) is
  // inside the map are +inf; the others sum their taps inside the map.
  GraphBuilder b("inf");
  const TensorId x = b.Input("x", DType::kF32, {1, 3, 3, 1});
  std::vector<float> w(9, 1.0f);
  w[0] = std::numeric_limits<float>::infinity();
  const TensorId wt = b.Constant("w", DType::kF32, {1, 3, 3, 1},
                                 ConstantData::Copy(w.data(), w.size() * sizeof(float)));
  Attributes attrs;
  attrs.Set("padding", AttrValue(std::string("same")));
  const TensorId y = b.Op(OpKind::kDepthwiseConv2D, "dw", {x, wt}, attrs);
  b.Output(y);
  const Graph g = std::move(b).Finish().value();
  HostTensor in = HostTensor::Zeros(DType::kF32, {1, 3, 3, 1}).value();
  std::fill(in.data<float>(), in.data<float>() + 9, 1.0f);
  Expected<std::vector<HostTensor>> got = RunCpu(g, {in});
  REQUIRE(got.ok());
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> want = {4, 6, 4, 6, inf, inf, 4, inf, inf};
  CHECK(std::vector<float>(got->front().data<float>(), got->front().data<float>() + 9) == want);
}

}  // namespace
}  // namespace opuc::testing
