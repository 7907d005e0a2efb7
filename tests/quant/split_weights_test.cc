// 16-bit weights as two 8-bit inner products (src/quant/split_weights.h,
// docs/numerics.md §1c) and the headroom of i16 activations (formats.h):
// the split worked out by hand, the graph it makes, and what it buys; and
// the ranges the quantizer gives i16 tensors (formats.h).
#include <doctest/doctest.h>

#include <cmath>
#include <random>

#include "formats.h"
#include "opuc/cpu_reference/reference.h"
#include "opuc/ir/graph_builder.h"
#include "opuc/quant/accuracy.h"
#include "opuc/quant/quantize.h"
#include "pass/pass_test_util.h"
#include "split_weights.h"

namespace opuc {
namespace {

using namespace testing;

/// x[1,1,1,2] → conv (1×1, 2 channels, bias, relu) → y.
Graph Conv() {
  GraphBuilder b("conv");
  const TensorId x = b.Input("x", DType::kF32, {1, 1, 1, 2});
  const TensorId w = b.ConstantF32("w", {2, 1, 1, 2}, {0.3f, -0.7f, 0.01f, 0.0f});
  const TensorId bias = b.ConstantF32("b", {2}, {0.5f, -0.25f});
  b.Output(b.Op(OpKind::kConv2D, "y", {x, w, bias}, Attrs({{"activation", Str("relu")}})));
  return Build(std::move(b));
}

TEST_CASE("split weights: the high byte at each channel's no-clip length, the rest below") {
  Graph g = Conv();
  Expected<std::vector<quant::SplitLayer>> split = quant::SplitWeights(g);
  REQUIRE_MESSAGE(split.ok(), split.status().ToString());
  REQUIRE(split->size() == 1);
  CHECK(NodeSignatures(g) == std::vector<std::string>{"conv2d(x,w/high,b)->y/high",
                                                      "conv2d(x,w/low)->y/low",
                                                      "add(y/high,y/low)->y"});
  CHECK(g.nodes[0].attrs.GetString("activation") == "none");
  CHECK(g.nodes[1].attrs.GetString("activation") == "none");
  CHECK(g.nodes[2].attrs.GetString("activation") == "relu");  // after the sum, as before
  CHECK((*split)[0].high == 0);
  CHECK((*split)[0].low == 1);
  // Channel 0: |w| ≤ 0.7, and 0.7·2^7 = 89.6 fits int8 where 0.7·2^8 does
  // not: f = 7. 0.3·128 = 38.4 → 38, −0.7·128 = −89.6 → −90 (half up).
  // Channel 1: 0.01·2^13 = 81.92 → 82 fits, 163.84 at 2^14 does not: f = 13.
  const std::vector<float> high = ConstantF32(g, "w/high"), low = ConstantF32(g, "w/low");
  REQUIRE(high.size() == 4);
  REQUIRE(low.size() == 4);
  CHECK(high[0] == 38.0f / 128);
  CHECK(high[1] == -90.0f / 128);
  CHECK(high[2] == 82.0f / 8192);
  CHECK(high[3] == 0.0f);
  CHECK(low[0] == doctest::Approx(0.003125).epsilon(1e-5));
  CHECK(low[1] == doctest::Approx(0.003125).epsilon(1e-5));
  CHECK(low[2] == doctest::Approx(0.01 - 82.0 / 8192).epsilon(1e-4));  // −9.77e-6
  CHECK(low[3] == 0.0f);
  // The same function: relu(0.5 + 0.3·1 − 0.7·0.5) = 0.45, relu(−0.25 + 0.01) = 0.
  const Expected<std::vector<HostTensor>> out =
      RunReference(g, {F32Tensor({1, 1, 1, 2}, {1.0f, 0.5f})});
  REQUIRE(out.ok());
  CHECK(out->at(0).data<float>()[0] == doctest::Approx(0.45).epsilon(1e-6));
  CHECK(out->at(0).data<float>()[1] == 0.0f);
}

/// x[1,4,4,8] → conv 3×3 (8 → 8, same) → y, with weights spread over three
/// decades, so that 8 bits resolve the small ones poorly.
Graph WideConv(std::mt19937& rng) {
  GraphBuilder b("wide");
  const TensorId x = b.Input("x", DType::kF32, {1, 4, 4, 8});
  std::uniform_real_distribution<float> mantissa(-1.0f, 1.0f), decade(-3.0f, 0.0f);
  std::vector<float> w(8 * 3 * 3 * 8);
  for (float& v : w) v = mantissa(rng) * std::pow(10.0f, decade(rng));
  const TensorId weights = b.ConstantF32("w", {8, 3, 3, 8}, w);
  b.Output(b.Op(OpKind::kConv2D, "y", {x, weights}, Attrs({{"padding", Str("same")}})));
  return Build(std::move(b));
}

TEST_CASE("quantize with 16-bit weights: refused in int8, far closer to float in int16") {
  std::mt19937 rng(7);
  const Graph g = WideConv(rng);
  std::normal_distribution<float> normal;
  std::vector<std::vector<HostTensor>> samples;
  for (int s = 0; s < 4; ++s) {
    std::vector<float> x(4 * 4 * 8);
    for (float& v : x) v = normal(rng);
    samples.push_back({F32Tensor({1, 4, 4, 8}, x)});
  }
  QuantizeOptions options;
  options.wide_weights = true;
  const Expected<QuantizedGraph> refused = Quantize(g, samples, options);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.status().message().find("precision mixed or int16") != std::string::npos);

  options.precision = Precision::kInt16;
  const Expected<QuantizedGraph> wide = Quantize(g, samples, options);
  REQUIRE_MESSAGE(wide.ok(), wide.status().ToString());
  options.wide_weights = false;
  const Expected<QuantizedGraph> narrow = Quantize(g, samples, options);
  REQUIRE(narrow.ok());
  CHECK(wide->report.wide_weight_layers == 1);
  CHECK(narrow->report.wide_weight_layers == 0);
  // Over the model's MACs M: the low half is M more, 100%; x is i16, read
  // whole by the array. An array that takes an i16 in two passes: a
  // second pass of both halves (2M) more, 300%; without the split, x's
  // second pass, 100%.
  CHECK(wide->report.extra_mac_passes_percent == 100.0);
  CHECK(narrow->report.extra_mac_passes_percent == 0.0);
  options.i16_in_one_pass = false;
  CHECK(Quantize(g, samples, options)->report.extra_mac_passes_percent == 100.0);
  options.wide_weights = true;
  CHECK(Quantize(g, samples, options)->report.extra_mac_passes_percent == 300.0);
  // Against the float graph on the samples: int8 weights leave the small
  // ones a step of up to 2^-8 of their channel's largest, the split 2^-16.
  const auto sqnr = [&](const Graph& q) {
    return CompareWithFloat(g, q, samples).value().at(0).sqnr_db;
  };
  CHECK(sqnr(narrow->graph) < 50.0);
  CHECK(sqnr(wide->graph) > sqnr(narrow->graph) + 20.0);
}

/// x[1,1,1,1] → conv (w = 1) → c → `tail` → y.
Graph Chain(OpKind tail) {
  GraphBuilder b("chain");
  const TensorId x = b.Input("x", DType::kF32, {1, 1, 1, 1});
  const TensorId c = b.Op(OpKind::kConv2D, "c", {x, b.ConstantF32("w", {1, 1, 1, 1}, {1.0f})});
  const Attributes pool = Attrs({{"filter", Ints({1, 1})}});
  b.Output(b.Op(tail, "y", {c}, tail == OpKind::kMaxPool2D ? pool : Attributes()));
  return Build(std::move(b));
}

TEST_CASE("i16 activations keep one bit of headroom, except where a table reads them") {
  // c peaks at 3.0: 3·2^13 = 24576 fits i16 and 3·2^14 does not, so the
  // no-clip length is 13; with kWideHeadroomBits = 1, 12 (range ±8).
  const std::vector<std::vector<HostTensor>> samples = {{F32Tensor({1, 1, 1, 1}, {3.0f})}};
  QuantizeOptions options;
  options.precision = Precision::kInt16;
  const Expected<QuantizedGraph> pooled = Quantize(Chain(OpKind::kMaxPool2D), samples, options);
  REQUIRE_MESSAGE(pooled.ok(), pooled.status().ToString());
  CHECK(Named(pooled->graph, "c").dtype == DType::kI16);
  CHECK(Named(pooled->graph, "c").fixed_point.fraction_bits == std::vector<int32_t>{12});
  // A sigmoid's table spreads its 257 knots over c's range: no headroom.
  const Expected<QuantizedGraph> table = Quantize(Chain(OpKind::kSigmoid), samples, options);
  REQUIRE_MESSAGE(table.ok(), table.status().ToString());
  CHECK(Named(table->graph, "c").dtype == DType::kI16);
  CHECK(Named(table->graph, "c").fixed_point.fraction_bits == std::vector<int32_t>{13});
}

TEST_CASE("an i16 tensor only a sigmoid or tanh reads keeps ±16 of its range at most") {
  // c peaks at 100: all of it would be length 8 (100·2^8 = 25600; 2^9 clips);
  // capped at kSaturatedTableInput = 16: 16·2^10 = 16384 fits, 16·2^11 =
  // 32768 does not, so 10. hard_swish does not saturate, and curves between
  // its knots: the whole range less kCurvedTableFinerBits = 1, 9 (±64).
  const std::vector<std::vector<HostTensor>> samples = {{F32Tensor({1, 1, 1, 1}, {100.0f})}};
  QuantizeOptions options;
  options.precision = Precision::kInt16;
  const Expected<QuantizedGraph> sigmoid = Quantize(Chain(OpKind::kSigmoid), samples, options);
  REQUIRE_MESSAGE(sigmoid.ok(), sigmoid.status().ToString());
  CHECK(Named(sigmoid->graph, "c").fixed_point.fraction_bits == std::vector<int32_t>{10});
  const Expected<QuantizedGraph> tanh = Quantize(Chain(OpKind::kTanh), samples, options);
  REQUIRE(tanh.ok());
  CHECK(Named(tanh->graph, "c").fixed_point.fraction_bits == std::vector<int32_t>{10});
  const Expected<QuantizedGraph> hard_swish = Quantize(Chain(OpKind::kHardSwish), samples, options);
  REQUIRE(hard_swish.ok());
  CHECK(Named(hard_swish->graph, "c").fixed_point.fraction_bits == std::vector<int32_t>{9});
}

/// x[1,1,1,1] → conv (w = 2) → c → `tail` (or c is the output).
Graph ConvThen(bool relu6) {
  GraphBuilder b("split_then");
  const TensorId x = b.Input("x", DType::kF32, {1, 1, 1, 1});
  const TensorId c = b.Op(OpKind::kConv2D, "c", {x, b.ConstantF32("w", {1, 1, 1, 1}, {2.0f})});
  b.Output(relu6 ? b.Op(OpKind::kRelu6, "y", {c}) : c);
  return Build(std::move(b));
}

TEST_CASE("a split layer's partial sums take a clamp's length where the sum feeds one") {
  // x = 10: c = 20. Before a relu6 the group's only voter is its output
  // (at most 6: 6·2^12 = 24576 fits i16, 2^13 does not, 12, less the
  // headroom bit: 11), as c had it unsplit; the partial sums may clip
  // where the clamp would. Alone, they keep their own range (20·2^10 fits,
  // 2^11 does not: 10, less one: 9): a sum may be small where they are not.
  const std::vector<std::vector<HostTensor>> samples = {{F32Tensor({1, 1, 1, 1}, {10.0f})}};
  QuantizeOptions options;
  options.precision = Precision::kInt16;
  options.wide_weights = true;
  const Expected<QuantizedGraph> clamped = Quantize(ConvThen(true), samples, options);
  REQUIRE_MESSAGE(clamped.ok(), clamped.status().ToString());
  CHECK(Named(clamped->graph, "c/high").fixed_point.fraction_bits == std::vector<int32_t>{11});
  CHECK(Named(clamped->graph, "c/low").fixed_point.fraction_bits == std::vector<int32_t>{11});
  const Expected<QuantizedGraph> alone = Quantize(ConvThen(false), samples, options);
  REQUIRE_MESSAGE(alone.ok(), alone.status().ToString());
  CHECK(Named(alone->graph, "c/high").fixed_point.fraction_bits == std::vector<int32_t>{9});
  CHECK(Named(alone->graph, "c/low").fixed_point.fraction_bits == std::vector<int32_t>{9});
}

}  // namespace
}  // namespace opuc
