// What one candidate's 8 bits cost the outputs (src/quant/output_sensitivity.h):
// a layer reading other weights, and an input rounded to i8, on a 1×1 conv
// whose outputs are worked out by hand.
#include <doctest/doctest.h>

#include "opuc/ir/graph_builder.h"
#include "output_sensitivity.h"
#include "pass/pass_test_util.h"

namespace opuc {
namespace {

using namespace testing;

/// x[1,1,1,2] → conv (1×1, one channel, w = [0.5, 0.25]) → y; and, read by
/// nothing, the constant `other` = [0.5, 0.5] of the same shape.
Graph ConvWithOther() {
  GraphBuilder b("conv");
  const TensorId x = b.Input("x", DType::kF32, {1, 1, 1, 2});
  const TensorId w = b.ConstantF32("w", {1, 1, 1, 2}, {0.5f, 0.25f});
  b.ConstantF32("other", {1, 1, 1, 2}, {0.5f, 0.5f});
  b.Output(b.Op(OpKind::kConv2D, "y", {x, w}));
  return Build(std::move(b));
}

std::vector<std::vector<HostTensor>> TwoSamples() {
  return {{F32Tensor({1, 1, 1, 2}, {0.6f, 2.0f})}, {F32Tensor({1, 1, 1, 2}, {2.0f, 0.0f})}};
}

TEST_CASE("output sensitivity: a layer on other weights, an input rounded to i8") {
  const Graph g = ConvWithOther();
  TensorId x = kNoTensor, other = kNoTensor;
  for (size_t t = 0; t < g.tensors.size(); ++t) {
    if (g.tensors[t].name == "x") x = static_cast<TensorId>(t);
    if (g.tensors[t].name == "other") other = static_cast<TensorId>(t);
  }
  REQUIRE(x != kNoTensor);
  REQUIRE(other != kNoTensor);
  std::vector<quant::EightBitCandidate> candidates(3);
  candidates[0].inputs[0] = {x, other};
  candidates[1].rounded.push_back({x, DType::kI8, 0});
  candidates[2].rounded.push_back({x, DType::kI8, 7});
  Expected<std::vector<std::vector<double>>> ratios =
      quant::OutputNoiseRatios(g, candidates, TwoSamples());
  REQUIRE_MESSAGE(ratios.ok(), ratios.status().ToString());
  REQUIRE(ratios->size() == 3);
  // Float: y = 0.5·0.6 + 0.25·2 = 0.8 and 0.5·2 = 1.0; Σy² = 1.64.
  // Other weights: 0.3 + 1.0 = 1.3 (error 0.5) and 1.0 (none): 0.25 / 1.64.
  REQUIRE((*ratios)[0].size() == 1);
  CHECK((*ratios)[0][0] == doctest::Approx(0.25 / 1.64).epsilon(1e-6));
  // x at f = 0: [0.6, 2] → [1, 2], y = 1.0 (error 0.2); [2, 0] exact.
  REQUIRE((*ratios)[1].size() == 1);
  CHECK((*ratios)[1][0] == doctest::Approx(0.04 / 1.64).epsilon(1e-5));
  // x at f = 7: 0.6·128 = 76.8 → 77, 2·128 = 256 saturates to 127, so
  // y = (0.5·77 + 0.25·127) / 128 = 0.548828125 (error 0.251171875) and
  // 0.5·127/128 = 0.49609375 (error 0.50390625).
  const double noise = 0.251171875 * 0.251171875 + 0.50390625 * 0.50390625;
  REQUIRE((*ratios)[2].size() == 1);
  CHECK((*ratios)[2][0] == doctest::Approx(noise / 1.64).epsilon(1e-5));
}

TEST_CASE("output sensitivity: sums over separate samples pool into one ratio") {
  const Graph g = ConvWithOther();
  TensorId x = kNoTensor;
  for (size_t t = 0; t < g.tensors.size(); ++t)
    if (g.tensors[t].name == "x") x = static_cast<TensorId>(t);
  REQUIRE(x != kNoTensor);
  std::vector<quant::EightBitCandidate> candidates(1);
  candidates[0].rounded.push_back({x, DType::kI8, 0});
  const std::vector<std::vector<HostTensor>> both = TwoSamples();
  // x at f = 0: the first sample's y = 0.8 becomes 1.0 (noise 0.04, signal
  // 0.64); the second's y = 1.0 is exact (noise 0, signal 1).
  Expected<std::vector<std::vector<quant::OutputNoise>>> first =
      quant::OutputNoiseSums(g, candidates, {both[0]});
  Expected<std::vector<std::vector<quant::OutputNoise>>> second =
      quant::OutputNoiseSums(g, candidates, {both[1]});
  REQUIRE(first.ok());
  REQUIRE(second.ok());
  CHECK((*first)[0][0].noise == doctest::Approx(0.04).epsilon(1e-5));
  CHECK((*first)[0][0].signal == doctest::Approx(0.64).epsilon(1e-6));
  CHECK((*second)[0][0].noise == 0.0);
  CHECK((*second)[0][0].signal == doctest::Approx(1.0).epsilon(1e-6));
  // Pooled: 0.04 / 1.64, the ratio over both samples at once.
  const double pooled = ((*first)[0][0].noise + (*second)[0][0].noise) /
                        ((*first)[0][0].signal + (*second)[0][0].signal);
  CHECK(pooled == doctest::Approx(0.04 / 1.64).epsilon(1e-5));
}

}  // namespace
}  // namespace opuc
