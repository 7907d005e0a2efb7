// Quantize end to end on small graphs: the structure of the quantized
// graph, its fixed points, and its integer results — every number worked
// out by hand in the comments from docs/numerics.md.
#include <doctest/doctest.h>

#include <cstring>
#include <limits>
#include <random>

#include "opuc/cpu_reference/reference.h"
#include "opuc/ir/graph_builder.h"
#include "opuc/quant/accuracy.h"
#include "opuc/quant/quantize.h"
#include "pass/pass_test_util.h"

namespace opuc {
namespace {

using namespace testing;

template <typename T>
std::vector<T> Values(const Tensor& t) {
  std::vector<T> v(t.constant->size() / sizeof(T));
  std::memcpy(v.data(), t.constant->data(), t.constant->size());
  return v;
}

/// x[1,1,1,2] → conv2d 1×1 (w = [[1,1],[1,−1]], b = [0.1, 0]) → relu → y.
Graph ConvRelu() {
  GraphBuilder b("net");
  TensorId x = b.Input("x", DType::kF32, {1, 1, 1, 2});
  TensorId w = b.ConstantF32("w", {2, 1, 1, 2}, {1, 1, 1, -1});
  TensorId bias = b.ConstantF32("b", {2}, {0.1f, 0.0f});
  TensorId conv = b.Op(OpKind::kConv2D, "conv", {x, w, bias});
  b.Output(b.Op(OpKind::kRelu, "y", {conv}));
  return Build(std::move(b));
}

TEST_CASE("quantize: conv + relu becomes quantize, int8 conv, relu, dequantize") {
  const Graph g = ConvRelu();
  std::vector<std::vector<HostTensor>> calibration;
  calibration.push_back({});
  calibration[0].push_back(F32Tensor({1, 1, 1, 2}, {0.3f, -0.6f}));
  Expected<QuantizedGraph> q = Quantize(g, calibration);
  REQUIRE(q.ok());
  CHECK(NodeSignatures(q->graph) == Lines{"quantize(x)->x/int8",
                                          "conv2d(x/int8,w/int8,b/int32)->conv",
                                          "relu(conv)->y/int8", "dequantize(y/int8)->y"});
  // x = [0.3, −0.6]: f = 7 holds −76.8 (f = 8 would clip −153.6).
  CHECK(Named(q->graph, "x/int8").fixed_point == FixedPoint{{7}, -1});
  // relu's output [0, 0.9]: 0.9·128 = 115.2 fits, ·256 clips: f = 7; the
  // conv output, read only by the relu, takes the relu's length.
  CHECK(Named(q->graph, "y/int8").fixed_point == FixedPoint{{7}, -1});
  CHECK(Named(q->graph, "conv").fixed_point == FixedPoint{{7}, -1});
  // Both weight channels: 1·2^7 = 128 clips, so f_w = 6 (64, exact).
  const Tensor& w = Named(q->graph, "w/int8");
  CHECK(w.dtype == DType::kI8);
  CHECK(w.fixed_point == FixedPoint{{6, 6}, 0});
  CHECK(Values<int8_t>(w) == std::vector<int8_t>{64, 64, 64, -64});
  // Bias at f_in + f_w = 13: float32(0.1)·8192 = 819.2 → 819.
  const Tensor& bias = Named(q->graph, "b/int32");
  CHECK(bias.dtype == DType::kI32);
  CHECK(Values<int32_t>(bias) == std::vector<int32_t>{819, 0});
  CHECK(q->report.calibration_samples == 1);
  CHECK(q->report.weights == 4);
  CHECK(q->report.saturated_weights == 0);

  // Integer run on the calibration input: q_x = [38, −77] (38.4, −76.8).
  // acc0 = 64·38 + 64·(−77) + 819 = −1677; S = 7 + 6 − 7 = 6:
  //   (−1677 + 32) >> 6 = −26 → relu → 0.
  // acc1 = 64·38 − 64·(−77) = 7360; (7360 + 32) >> 6 = 115 → 115/128.
  Expected<std::vector<HostTensor>> out = RunReference(q->graph, calibration[0]);
  REQUIRE(out.ok());
  REQUIRE(out->size() == 1);
  CHECK((*out)[0].dtype() == DType::kF32);
  CHECK((*out)[0].data<float>()[0] == 0.0f);
  CHECK((*out)[0].data<float>()[1] == 0.8984375f);
}

/// conv2d 3×3 (6 → 16 channels, same padding) → relu → depthwise 3×3 →
/// conv2d 1×1 (16 → 4), random weights: enough layers and channels for
/// the rounding factors, the Gram matrices and the weights to be shared
/// among threads.
Graph RandomConvStack(std::mt19937& random) {
  std::normal_distribution<float> normal(0.0f, 0.5f);
  const auto values = [&](size_t n) {
    std::vector<float> v(n);
    for (float& x : v) x = normal(random);
    return v;
  };
  GraphBuilder b("net");
  TensorId x = b.Input("x", DType::kF32, {1, 8, 8, 6});
  const Attributes same = Attrs({{"padding", AttrValue(std::string("same"))}});
  TensorId c1 = b.Op(OpKind::kConv2D, "c1",
                     {x, b.ConstantF32("c1/w", {16, 3, 3, 6}, values(16 * 9 * 6)),
                      b.ConstantF32("c1/b", {16}, values(16))},
                     same);
  TensorId r = b.Op(OpKind::kRelu, "r", {c1});
  TensorId dw = b.Op(OpKind::kDepthwiseConv2D, "dw",
                     {r, b.ConstantF32("dw/w", {1, 3, 3, 16}, values(9 * 16))}, same);
  b.Output(b.Op(OpKind::kConv2D, "c2", {dw, b.ConstantF32("c2/w", {4, 1, 1, 16}, values(64))}));
  return Build(std::move(b));
}

TEST_CASE("quantize: the same graph on one thread or several") {
  std::mt19937 random(11);
  const Graph g = RandomConvStack(random);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  std::vector<std::vector<HostTensor>> samples(2);
  for (auto& sample : samples) {
    std::vector<float> v(8 * 8 * 6);
    for (float& x : v) x = uniform(random);
    sample.push_back(F32Tensor({1, 8, 8, 6}, v));
  }
  for (Precision precision : {Precision::kInt8, Precision::kMixed}) {
    QuantizeOptions one, four;
    one.precision = four.precision = precision;
    one.threads = 1;
    four.threads = 4;
    Expected<QuantizedGraph> a = Quantize(g, samples, one);
    Expected<QuantizedGraph> b = Quantize(g, samples, four);
    REQUIRE(a.ok());
    REQUIRE(b.ok());
    REQUIRE(a->graph.tensors.size() == b->graph.tensors.size());
    CHECK(a->report.compensated_channels > 0);  // the factors were used
    for (size_t t = 0; t < a->graph.tensors.size(); ++t) {
      const Tensor& x = a->graph.tensors[t];
      const Tensor& y = b->graph.tensors[t];
      CAPTURE(x.name);
      CHECK(x.dtype == y.dtype);
      CHECK(x.fixed_point.fraction_bits == y.fixed_point.fraction_bits);
      REQUIRE(x.is_constant() == y.is_constant());
      if (!x.is_constant()) continue;
      REQUIRE(x.constant->size() == y.constant->size());
      CHECK(std::memcmp(x.constant->data(), y.constant->data(), x.constant->size()) == 0);
    }
  }
}

TEST_CASE("quantize: the accuracy report compares with the float graph") {
  const Graph g = ConvRelu();
  std::vector<std::vector<HostTensor>> samples(1);
  samples[0].push_back(F32Tensor({1, 1, 1, 2}, {0.3f, -0.6f}));
  Expected<QuantizedGraph> q = Quantize(g, samples);
  REQUIRE(q.ok());
  Expected<std::vector<OutputAccuracy>> acc = CompareWithFloat(g, q->graph, samples);
  REQUIRE(acc.ok());
  REQUIRE(acc->size() == 1);
  // Float y = [0, 0.9]; quantized [0, 0.8984375]: error 0.0015625.
  const OutputAccuracy& a = (*acc)[0];
  CHECK(a.name == "y");
  CHECK(a.max_abs_error == doctest::Approx(0.0015625).epsilon(1e-5));
  // SQNR = 10·log10(0.81 / 0.0015625²) = 55.208 dB; cosine 1 (same direction).
  CHECK(a.sqnr_db == doctest::Approx(55.2084).epsilon(1e-4));
  CHECK(a.cosine == doctest::Approx(1.0));
}

TEST_CASE("quantize: refine_lengths trades a length for the output's error") {
  // y = x · [100, 0] on x = [0.28, 5.0], y = [28, 0]. Least error: x at f = 2
  // (0.28 → 1/4; f = 2, 3 and 4 all give 0.25 and hold 5.0: the widest wins)
  // and y, exact from f = 2 down to f = −2, at −2 (step 4). The integer graph
  // gives y = 0.25·100 = 25 → 24 at step 4, an error of 4. Refined: y one
  // step finer (f = −1, step 2) gives 25 → 26, error 2; x's neighbours are
  // no better (f = 3: 0.25 again; f = 1: 0.5).
  GraphBuilder b("net");
  TensorId x = b.Input("x", DType::kF32, {1, 2});
  b.Output(b.Op(OpKind::kMul, "y", {x, b.ConstantF32("c", {2}, {100.0f, 0.0f})}));
  const Graph g = Build(std::move(b));
  std::vector<std::vector<HostTensor>> samples(1);
  samples[0].push_back(F32Tensor({1, 2}, {0.28f, 5.0f}));
  Expected<QuantizedGraph> plain = Quantize(g, samples);
  QuantizeOptions options;
  options.refine_lengths = true;
  Expected<QuantizedGraph> refined = Quantize(g, samples, options);
  REQUIRE(plain.ok());
  REQUIRE(refined.ok());
  CHECK(plain->report.refined_groups == 0);
  CHECK(refined->report.refined_groups == 1);
  CHECK(Named(plain->graph, "x/int8").fixed_point == FixedPoint{{2}, -1});
  CHECK(Named(refined->graph, "x/int8").fixed_point == FixedPoint{{2}, -1});
  CHECK(Named(plain->graph, "y/int8").fixed_point == FixedPoint{{-2}, -1});
  CHECK(Named(refined->graph, "y/int8").fixed_point == FixedPoint{{-1}, -1});
  CHECK(CompareWithFloat(g, plain->graph, samples)->at(0).max_abs_error == doctest::Approx(4.0));
  CHECK(CompareWithFloat(g, refined->graph, samples)->at(0).max_abs_error == doctest::Approx(2.0));
}

TEST_CASE("quantize: sigmoid becomes a lookup table, errors name what is wrong") {
  GraphBuilder b("net");
  TensorId x = b.Input("x", DType::kF32, {1, 4});
  b.Output(b.Op(OpKind::kSigmoid, "s", {x}));
  const Graph g = Build(std::move(b));
  std::vector<std::vector<HostTensor>> samples(1);
  // x: −2.4 at f = 5 is −76.8 → −77 (error 0.2/32; f = 6 clips −153.6,
  // f = 4 errs 0.4/16): f_in = 5. Output in (0.08, 0.92): 0.917·128 = 117
  // fits, ·256 clips: f_out = 7.
  samples[0].push_back(F32Tensor({1, 4}, {-2.4f, -1.0f, 1.0f, 2.4f}));
  Expected<QuantizedGraph> q = Quantize(g, samples);
  REQUIRE(q.ok());
  CHECK(NodeSignatures(q->graph) == Lines{"quantize(x)->x/int8",
                                          "lookup_table(x/int8,s/table)->s/int8",
                                          "dequantize(s/int8)->s"});
  const std::vector<int8_t> table = Values<int8_t>(Named(q->graph, "s/table"));
  REQUIRE(table.size() == 256);
  CHECK(table[128 + 32] == 94);  // x = 32/32 = 1: sigmoid 0.731 · 128 = 93.6
  CHECK(table[128] == 64);       // sigmoid(0) = 0.5 → 64
  CHECK(q->report.tables == 1);

  CHECK_FALSE(Quantize(g, {}).ok());
  const Status no_samples = Quantize(g, {}).status();
  CHECK(no_samples.message() == "quantization needs at least one calibration sample");
}

}  // namespace
}  // namespace opuc

namespace opuc {
namespace {

using namespace testing;

TEST_CASE("quantize: what it cannot take is an error naming the tensor or node") {
  std::vector<std::vector<HostTensor>> samples(1);
  {
    GraphBuilder b("net");
    TensorId x = b.Input("x", DType::kI8, {1, 4});
    b.Output(b.Op(OpKind::kRelu, "r", {x}));
    const Graph g = Build(std::move(b));
    samples[0] = {HostTensor::Zeros(DType::kI8, {1, 4}).value()};
    const Status s = Quantize(g, samples).status();
    CHECK(s.message().find("'x'") != std::string::npos);
    CHECK(s.message().find("is i8; the quantizer takes a float graph") != std::string::npos);
  }
  {
    // A fused tanh has no integer form: CanonicalizeActivation splits it first.
    GraphBuilder b("net");
    TensorId x = b.Input("x", DType::kF32, {1, 2});
    TensorId w = b.ConstantF32("w", {2, 2}, {1, 0, 0, 1});
    b.Output(b.Op(OpKind::kFullyConnected, "fc", {x, w}, Attrs({{"activation", Str("tanh")}})));
    const Graph g = Build(std::move(b));
    samples[0] = {HostTensor::Zeros(DType::kF32, {1, 2}).value()};
    const Status s = Quantize(g, samples).status();
    CHECK(s.message().find("'fc'") != std::string::npos);
    CHECK(s.message().find("fused activation 'tanh' has no integer form") != std::string::npos);
  }
}

TEST_CASE("accuracy refuses outputs that are not finite, naming the element") {
  const std::vector<float> finite = {1.0f, 2.0f, 3.0f};
  std::vector<float> bad = finite;
  bad[2] = std::numeric_limits<float>::quiet_NaN();
  const auto tensor = [](const std::vector<float>& v) {
    return HostTensor::Copy(DType::kF32, {3}, v.data(), v.size() * sizeof(float)).value();
  };
  AccuracyMeter meter;
  CHECK(meter.Add(tensor(bad), tensor(finite)).message() ==
        "the float graph computes nan at element 2; accuracy is measured on finite outputs only");
  bad[2] = std::numeric_limits<float>::infinity();
  CHECK(meter.Add(tensor(finite), tensor(bad)).message() ==
        "the quantized graph computes inf at element 2");
  // Nothing was added: equal outputs give +inf dB, not NaN.
  REQUIRE(meter.Add(tensor(finite), tensor(finite)).ok());
  CHECK(meter.Finish("y").sqnr_db == std::numeric_limits<double>::infinity());
}

}  // namespace
}  // namespace opuc
