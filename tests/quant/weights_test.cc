// Per-channel weight quantization (docs/numerics.md §1, §2); the fraction
// lengths, integers and bounds below are worked out by hand in comments.
#include <doctest/doctest.h>

#include "compensated_rounding.h"
#include "input_gram.h"
#include "opuc/ir/graph_builder.h"
#include "pass/pass_test_util.h"
#include "weights.h"

namespace opuc::quant {
namespace {

using testing::Build;

TEST_CASE("weights: each output channel gets its own fraction length, bias at f_in + f_w") {
  GraphBuilder b("net");
  TensorId x = b.Input("x", DType::kF32, {1, 1, 1, 2});
  TensorId w = b.ConstantF32("w", {2, 1, 1, 2}, {0.5f, -0.25f, 0.3f, 0.1f});
  TensorId bias = b.ConstantF32("b", {2}, {1.0f, -0.5f});
  b.Output(b.Op(OpKind::kConv2D, "conv", {x, w, bias}));
  Graph g = Build(std::move(b));
  Expected<QuantizedWeights> q = QuantizeInnerProduct(g, 0, /*input_bits=*/4);
  REQUIRE(q.ok());
  // Channel 0: 0.5·2^7 = 64 fits, 0.5·2^8 = 128 clips, and f = 7 is exact.
  // Channel 1: 0.3·2^8 = 76.8 fits, 0.3·2^9 = 153.6 clips; at f = 8 the
  // errors are 0.2 and 0.4 LSB, at 9 the clip costs 0.052: f = 8.
  CHECK(q->bits == std::vector<int32_t>{7, 8});
  CHECK(q->axis == 0);
  CHECK(q->weights == std::vector<int8_t>{64, -32, 77, 26});  // 76.8 → 77, 25.6 → 26
  CHECK(q->bias == std::vector<int32_t>{2048, -2048});        // 1·2^11, −0.5·2^12
  CHECK(q->saturated == 0);
  CHECK(q->lowered == 0);
}

TEST_CASE("weights: depthwise channels are the last axis") {
  GraphBuilder b("net");
  TensorId x = b.Input("x", DType::kF32, {1, 2, 2, 2});
  // [1,1,2,2]: taps (0,0) and (0,1) for channels 0 and 1.
  TensorId w = b.ConstantF32("w", {1, 1, 2, 2}, {1.0f, 0.01f, -1.0f, 0.02f});
  b.Output(b.Op(OpKind::kDepthwiseConv2D, "dw", {x, w}));
  Graph g = Build(std::move(b));
  Expected<QuantizedWeights> q = QuantizeInnerProduct(g, 0, 4);
  REQUIRE(q.ok());
  CHECK(q->axis == 3);
  // Channel 0: |1.0|·2^6 = 64, ·2^7 = 128 clips: f = 6 (exact).
  // Channel 1: 0.02·2^12 = 81.92 fits, ·2^13 = 163.8 clips. At f = 12:
  // 0.01·4096 = 40.96 → 41, 81.92 → 82, errors 0.04 and 0.08 LSB; f = 13
  // clips 0.02 to 127/8192 = 0.0155: worse. f = 12.
  CHECK(q->bits == std::vector<int32_t>{6, 12});
  CHECK(q->weights == std::vector<int8_t>{64, 41, -64, 82});
  CHECK(q->bias.empty());
}

Graph WideFullyConnected(float weight, float bias_value) {
  constexpr int64_t kInputs = 32768;  // 2^15
  GraphBuilder b("net");
  TensorId x = b.Input("x", DType::kF32, {1, kInputs});
  TensorId w = b.ConstantF32("w", {1, kInputs}, std::vector<float>(kInputs, weight));
  TensorId bias = b.ConstantF32("b", {1}, {bias_value});
  b.Output(b.Op(OpKind::kFullyConnected, "fc", {x, w, bias}));
  return Build(std::move(b));
}

TEST_CASE("weights: the length is lowered until bias and accumulation bound fit int32") {
  // 1.0 at f = 6 is 64; bias 1000 at 15 + 6 = 21 is 2 097 152 000; the bound
  // 2^15 · 128 · 64 = 2^28 = 268 435 456 on top exceeds 2^31 − 1. At f = 5:
  // 1 048 576 000 + 2^27 = 1 182 793 728 fits.
  Graph g = WideFullyConnected(1.0f, 1000.0f);
  Expected<QuantizedWeights> q = QuantizeInnerProduct(g, 0, 15);
  REQUIRE(q.ok());
  CHECK(q->bits == std::vector<int32_t>{5});
  CHECK(q->bias == std::vector<int32_t>{1048576000});
  CHECK(q->weights[0] == 32);
  CHECK(q->lowered == 1);
}

TEST_CASE("weights: a bias that fits at no length is an error naming the channel") {
  // 1e9 · 2^(15 − 8) = 1.28e11 > 2^31 − 1 even at the lowest length.
  Graph g = WideFullyConnected(1.0f, 1e9f);
  Expected<QuantizedWeights> q = QuantizeInnerProduct(g, 0, 15);
  REQUIRE_FALSE(q.ok());
  CHECK(q.status().message().find("output channel 0: accumulation bound") != std::string::npos);
  CHECK(q.status().message().find("even at weight fraction length -8") != std::string::npos);
}

/// Two inputs that always agree: G = [[1, 1], [1, 1]] (compensated_rounding_test.cc).
InputGram AgreeingPair() { return InputGram{2, 1, {1, 1, 1, 1}, {}, {}, 0}; }

/// fully_connected of x [1,2] with weights 76.4/256 twice (f_w = 8: 76.4
/// each; 152.8 at 9 clips), and a bias (0.5 unless given) when `with_bias`.
Graph TwoInputFc(bool with_bias, float bias = 0.5f) {
  GraphBuilder b("net");
  TensorId x = b.Input("x", DType::kF32, {1, 2});
  std::vector<TensorId> inputs = {x, b.ConstantF32("w", {1, 2}, {76.4f / 256, 76.4f / 256})};
  if (with_bias) inputs.push_back(b.ConstantF32("b", {1}, {bias}));
  b.Output(b.Op(OpKind::kFullyConnected, "fc", inputs));
  return Build(std::move(b));
}

TEST_CASE("weights: with the Gram matrix a channel is rounded with compensation") {
  // 76.4/256 at f = 8 (152.8 at 9 clips) is 76.4: nearest gives 76 twice,
  // an output error of 0.8 LSB·x when both inputs are x. Compensated, the
  // second becomes 76.4 + 0.4/1.01 = 76.796 → 77 (error 0.2 LSB·x).
  Graph g = TwoInputFc(false);
  const InputGram gram = AgreeingPair();
  Expected<QuantizedWeights> q = QuantizeInnerProduct(g, 0, 4, &gram);
  REQUIRE(q.ok());
  CHECK(q->bits == std::vector<int32_t>{8});
  CHECK(q->weights == std::vector<int8_t>{76, 77});
  CHECK(q->compensated == 1);
  Expected<QuantizedWeights> nearest = QuantizeInnerProduct(g, 0, 4);
  REQUIRE(nearest.ok());
  CHECK(nearest->weights == std::vector<int8_t>{76, 76});
  CHECK(nearest->compensated == 0);
}

TEST_CASE("weights: a compensated channel that breaks the bound is rounded to nearest") {
  // As above, with a bias of 16 777 063·2^-5 at f_in + f_w = 4 + 8: 2 147 464 064.
  // Nearest (76 + 76) keeps the bound at 2 147 464 064 + 128·152 =
  // 2 147 483 520 ≤ 2^31 − 1, so f_w stays 8; compensated (76 + 77) would
  // reach 2 147 483 648 = 2^31, so the channel falls back to nearest.
  Graph g = TwoInputFc(true, 16777063.0f / 32);
  const InputGram gram = AgreeingPair();
  Expected<QuantizedWeights> q = QuantizeInnerProduct(g, 0, 4, &gram);
  REQUIRE(q.ok());
  CHECK(q->bits == std::vector<int32_t>{8});
  CHECK(q->bias == std::vector<int32_t>{2147464064});
  CHECK(q->weights == std::vector<int8_t>{76, 76});
  CHECK(q->compensated == 0);
}

TEST_CASE("weights: WithRoundedWeights puts in the values the integers stand for") {
  // As above: 76.4/256 twice, compensated to 76 and 77 at f_w = 8; bias 0.5
  // at f_in + f_w = 4 + 8 is 2048, which stands for 0.5 exactly.
  Graph g = TwoInputFc(true);
  std::vector<int> bits(g.tensors.size(), 0);
  bits[static_cast<size_t>(g.inputs[0])] = 4;
  const std::map<NodeId, InputGram> grams = {{0, AgreeingPair()}};
  Expected<Graph> rounded = WithRoundedWeights(g, bits, grams);
  REQUIRE(rounded.ok());
  const Node& fc = rounded->nodes[0];
  const HostTensor weights = HostTensor::FromConstant(rounded->tensor(fc.inputs[1])).value();
  CHECK(weights.data<float>()[0] == 76.0f / 256);
  CHECK(weights.data<float>()[1] == 77.0f / 256);
  CHECK(HostTensor::FromConstant(rounded->tensor(fc.inputs[2]))->data<float>()[0] == 0.5f);
  CHECK(rounded->tensor(fc.inputs[0]).name == "x");  // activations keep their ids
}

TEST_CASE("weights: a Gram matrix of another size is ignored") {
  Graph g = TwoInputFc(false);
  const InputGram three{3, 1, std::vector<double>(9, 1.0), {}, {}, 0};
  Expected<QuantizedWeights> q = QuantizeInnerProduct(g, 0, 4, &three);
  REQUIRE(q.ok());
  CHECK(q->weights == std::vector<int8_t>{76, 76});  // nearest, as without
  CHECK(q->compensated == 0);
}

/// depthwise [1,1,2,2]: taps 0 and 1 of channels 0 and 1, all 76.4/256.
Graph TwoTapDepthwise() {
  GraphBuilder b("net");
  TensorId x = b.Input("x", DType::kF32, {1, 1, 2, 2});
  TensorId w = b.ConstantF32("w", {1, 1, 2, 2}, std::vector<float>(4, 76.4f / 256));
  b.Output(b.Op(OpKind::kDepthwiseConv2D, "dw", {x, w}));
  return Build(std::move(b));
}

TEST_CASE("weights: a depthwise channel is compensated with its own input channel's Gram matrix") {
  // f = 8 for both channels. Channel 0's input has agreeing taps (as above:
  // 76, 77); channel 1's taps are independent, so both round to nearest.
  const Graph g = TwoTapDepthwise();
  const InputGram gram{2, 2, {1, 1, 1, 1, /*channel 1*/ 1, 0, 0, 1}, {}, {}, 0};
  Expected<QuantizedWeights> q = QuantizeInnerProduct(g, 0, 4, &gram);
  REQUIRE(q.ok());
  CHECK(q->bits == std::vector<int32_t>{8, 8});
  CHECK(q->weights == std::vector<int8_t>{76, 76, 77, 76});  // [tap][channel]
  CHECK(q->compensated == 2);
}

TEST_CASE("weights: Gram matrices factored ahead, on any number of threads, round the same") {
  // The depthwise case above with its two matrices replaced by their
  // factors once (as the quantizer does before lowering).
  const Graph g = TwoTapDepthwise();
  for (int threads : {1, 3}) {
    CAPTURE(threads);
    std::map<NodeId, InputGram> grams = {{0, {2, 2, {1, 1, 1, 1, 1, 0, 0, 1}, {}, {}, 0}},
                                         {1, AgreeingPair()}};
    const RoundingFactor agreeing = grams.at(1).Factor(0);
    const RoundingFactor independent = grams.at(0).Factor(1);
    FactorGrams(grams, threads);
    CHECK(grams.at(0).values.empty());  // released
    REQUIRE(grams.at(0).factors.size() == 2);
    REQUIRE(grams.at(1).factors.size() == 1);
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 2; ++j) {
        CHECK(grams.at(0).factors[0](i, j) == agreeing(i, j));
        CHECK(grams.at(0).factors[1](i, j) == independent(i, j));
        CHECK(grams.at(1).factors[0](i, j) == agreeing(i, j));
      }
    Expected<QuantizedWeights> q = QuantizeInnerProduct(g, 0, 4, &grams.at(0));
    REQUIRE(q.ok());
    CHECK(q->weights == std::vector<int8_t>{76, 76, 77, 76});
  }
}

TEST_CASE("weights: NoClipBits is the largest length that rounds every value into int8") {
  const float v[] = {0.5f, -1.0f, 0.25f};
  // −1.0 · 2^7 = −128 fits; 0.5 · 2^8 = 128 does not, so 7.
  CHECK(NoClipBits(v, 3, 1, -8, 23) == 7);
  // Stride 2 sees 0.5 and 0.25: 0.5 · 2^7 = 64 fits, · 2^8 = 128 clips.
  CHECK(NoClipBits(v, 2, 2, -8, 23) == 7);
  const float big[] = {30000.0f};
  CHECK(NoClipBits(big, 1, 1, -8, 23) == -8);  // 30000/256 = 117.2
  const float zero[] = {0.0f};
  CHECK(NoClipBits(zero, 1, 1, -8, 23) == 23);
}

}  // namespace
}  // namespace opuc::quant
