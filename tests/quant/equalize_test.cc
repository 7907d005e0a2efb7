// Cross-layer equalization (src/quant/equalize.h): the scales follow the
// rules by hand, and the graph computes what it did.
#include <doctest/doctest.h>

#include "equalize.h"
#include "opuc/cpu_reference/reference.h"
#include "opuc/ir/graph_builder.h"
#include "pass/pass_test_util.h"

namespace opuc::quant {
namespace {

using namespace testing;

std::vector<std::vector<HostTensor>> OneSample(Shape shape, std::vector<float> values) {
  std::vector<std::vector<HostTensor>> samples(1);
  samples[0].push_back(F32Tensor(std::move(shape), values));
  return samples;
}

TEST_CASE("equalize: depthwise into conv2d meets at sqrt(r_a · r_w), the widest channel kept") {
  GraphBuilder b("net");
  TensorId x = b.Input("x", DType::kF32, {1, 1, 1, 2});
  TensorId dw = b.Op(
      OpKind::kDepthwiseConv2D, "dw",
      {x, b.ConstantF32("dw/w", {1, 1, 1, 2}, {10, 0.1f}), b.ConstantF32("dw/b", {2}, {1, 0.01f})});
  b.Output(b.Op(OpKind::kConv2D, "pw", {dw, b.ConstantF32("pw/w", {1, 1, 1, 2}, {0.5f, 2})}));
  Graph g = Build(std::move(b));
  const auto samples = OneSample({1, 1, 1, 2}, {1, 1});
  const HostTensor before = RunReference(g, samples[0]).value()[0];
  // dw output ranges r_a = [11, 0.11]; pw weight ranges r_w = [0.5, 2].
  // s ∝ sqrt(r_a / r_w) = [4.690, 0.2345], giving ranges [2.345, 0.469];
  // scaled so the widest keeps 11: s = [1, 0.05].
  Expected<int> pairs = EqualizeChannels(g, samples);
  REQUIRE(pairs.ok());
  CHECK(*pairs == 1);
  const std::vector<float> w = ConstantF32(g, "dw/w/equalized");
  REQUIRE(w.size() == 2);
  CHECK(w[0] == doctest::Approx(10));
  CHECK(w[1] == doctest::Approx(2));  // 0.1 / 0.05
  CHECK(ConstantF32(g, "dw/b/equalized")[1] == doctest::Approx(0.2));
  CHECK(ConstantF32(g, "pw/w/equalized")[1] == doctest::Approx(0.1));  // 2 · 0.05
  // 11·0.5 + 0.11·2 = 5.72 before; 11·0.5 + 2.2·0.1 after.
  const HostTensor after = RunReference(g, samples[0]).value()[0];
  CHECK(before.data<float>()[0] == doctest::Approx(5.72));
  CHECK(after.data<float>()[0] == doctest::Approx(5.72));
}

TEST_CASE("equalize: through a relu into a depthwise conv every channel reaches the widest range") {
  GraphBuilder b("net");
  TensorId x = b.Input("x", DType::kF32, {1, 1, 1, 1});
  TensorId conv =
      b.Op(OpKind::kConv2D, "conv", {x, b.ConstantF32("conv/w", {2, 1, 1, 1}, {4, 0.5f})});
  TensorId r = b.Op(OpKind::kRelu, "r", {conv});
  b.Output(b.Op(OpKind::kDepthwiseConv2D, "dw", {r, b.ConstantF32("dw/w", {1, 1, 1, 2}, {1, 3})}));
  Graph g = Build(std::move(b));
  // Ranges [4, 0.5]: s = r_a / 4 = [1, 0.125].
  REQUIRE(EqualizeChannels(g, OneSample({1, 1, 1, 1}, {1})).value() == 1);
  CHECK(ConstantF32(g, "conv/w/equalized") == std::vector<float>{4, 4});
  CHECK(ConstantF32(g, "dw/w/equalized") == std::vector<float>{1, 0.375f});
}

TEST_CASE("equalize: a producer read twice, or through relu6, is left alone") {
  GraphBuilder b("net");
  TensorId x = b.Input("x", DType::kF32, {1, 1, 1, 1});
  TensorId conv =
      b.Op(OpKind::kConv2D, "conv", {x, b.ConstantF32("conv/w", {2, 1, 1, 1}, {4, 0.5f})});
  TensorId r = b.Op(OpKind::kRelu6, "r", {conv});  // 6 is not scale-free
  b.Output(b.Op(OpKind::kDepthwiseConv2D, "dw", {r, b.ConstantF32("dw/w", {1, 1, 1, 2}, {1, 3})}));
  b.Output(conv);
  Graph g = Build(std::move(b));
  CHECK(EqualizeChannels(g, OneSample({1, 1, 1, 1}, {1})).value() == 0);
}

}  // namespace
}  // namespace opuc::quant
