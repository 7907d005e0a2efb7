// Activation formats (docs/numerics.md §1b, docs/quantization.md "Mixed
// precision"): which tensors the quantizer may make u8, and what each
// Precision gives on a small graph, derived by hand.
#include <doctest/doctest.h>

#include "activation_bits.h"
#include "formats.h"
#include "opuc/cpu_reference/reference.h"
#include "opuc/ir/graph_builder.h"
#include "opuc/quant/accuracy.h"
#include "opuc/quant/quantize.h"
#include "pass/pass_test_util.h"

namespace opuc {
namespace {

using namespace testing;

/// x[1,1,2,2] → conv (1×1, 2 channels) → relu → r; r → max_pool → p; p + x → s; s → softmax.
Graph Net() {
  GraphBuilder b("net");
  const TensorId x = b.Input("x", DType::kF32, {1, 1, 2, 2});
  const TensorId w = b.ConstantF32("w", {2, 1, 1, 2}, {2.0f, 0.5f, -1.0f, 1.5f});
  const TensorId conv = b.Op(OpKind::kConv2D, "conv", {x, w});
  const TensorId r = b.Op(OpKind::kRelu, "r", {conv});
  const TensorId p = b.Op(OpKind::kMaxPool2D, "p", {r}, Attrs({{"filter", Ints({1, 1})}}));
  const TensorId s = b.Op(OpKind::kAdd, "s", {p, x});
  b.Output(b.Op(OpKind::kSoftmax, "y", {s}));
  return Build(std::move(b));
}

std::vector<std::vector<HostTensor>> Samples() {
  return {{F32Tensor({1, 1, 2, 2}, {0.3f, -0.77f, 1.13f, -1.01f})},
          {F32Tensor({1, 1, 2, 2}, {0.71f, 0.129f, -0.53f, 0.27f})}};
}

TEST_CASE("ProveNonNegative: relu, pools of it, sums of such, not the inputs or a conv") {
  const Graph g = Net();
  const std::vector<bool> proved = quant::ProveNonNegative(g);
  const auto of = [&](const std::string& name) {
    for (size_t t = 0; t < g.tensors.size(); ++t)
      if (g.tensors[t].name == name) return static_cast<bool>(proved[t]);
    FAIL("no tensor " << name);
    return false;
  };
  CHECK_FALSE(of("x"));
  CHECK_FALSE(of("conv"));
  CHECK(of("r"));
  CHECK(of("p"));
  CHECK_FALSE(of("s"));  // p + x: x may be negative
  CHECK(of("y"));        // softmax
  CHECK_FALSE(of("w"));  // a constant with a negative value
}

TEST_CASE("precision int8 keeps every activation i8, int16 widens all but softmax's input") {
  const Graph g = Net();
  QuantizeOptions options;
  options.precision = Precision::kInt8;
  Expected<QuantizedGraph> q8 = Quantize(g, Samples(), options);
  REQUIRE(q8.ok());
  CHECK(q8->report.i8_tensors == q8->report.activations);
  CHECK(q8->report.u8_tensors + q8->report.i16_tensors == 0);
  CHECK(q8->report.extra_mac_passes_percent == 0.0);

  options.precision = Precision::kInt16;
  Expected<QuantizedGraph> q16 = Quantize(g, Samples(), options);
  REQUIRE(q16.ok());
  // s feeds the softmax, which reads 8-bit inputs only: it stays i8.
  CHECK(Named(q16->graph, "s").dtype == DType::kI8);
  CHECK(Named(q16->graph, "conv").dtype == DType::kI16);
  CHECK(Named(q16->graph, "r").dtype == DType::kI16);
  CHECK(Named(q16->graph, "y/int8").dtype == DType::kI16);  // softmax writes any format
  // The only inner product, a conv, reads x, which is i16: read whole, no
  // extra pass; an array that takes an i16 in two passes, one over all MACs.
  CHECK(q16->report.extra_mac_passes_percent == 0.0);
  options.i16_in_one_pass = false;
  Expected<QuantizedGraph> two_passes = Quantize(g, Samples(), options);
  REQUIRE(two_passes.ok());
  CHECK(two_passes->report.extra_mac_passes_percent == 100.0);
  // Both graphs run, and 16 bits are at least as close to float as 8.
  const auto sqnr = [&](const Graph& quantized) {
    return CompareWithFloat(g, quantized, Samples()).value().at(0).sqnr_db;
  };
  CHECK(sqnr(q16->graph) >= sqnr(q8->graph));
}

TEST_CASE("a u8 group of relu6 outputs takes the finest length that holds 6") {
  // x → conv a → relu6 → a6; x → conv b → relu → br. Every 8-bit length
  // chosen as 4 (i8: 127/16 = 7.9); u8 keeps 4 (255/16 = 15.9) where the
  // value is unbounded, and goes to 5 (255/32 = 7.97 >= 6) after the relu6.
  GraphBuilder b("relu6");
  const TensorId x = b.Input("x", DType::kF32, {1, 1, 1, 2});
  const TensorId w = b.ConstantF32("w", {1, 1, 1, 2}, {1.0f, 0.5f});
  const TensorId a = b.Op(OpKind::kConv2D, "a", {x, w});
  const TensorId c = b.Op(OpKind::kConv2D, "c", {x, w});
  b.Output(b.Op(OpKind::kRelu6, "a6", {a}));
  b.Output(b.Op(OpKind::kRelu, "cr", {c}));
  const Graph g = Build(std::move(b));
  const auto plan_with = [&](int bits, bool allow_unsigned) {
    std::vector<int> bits8(g.tensors.size(), quant::kNoBits);
    for (size_t t = 0; t < g.tensors.size(); ++t)
      if (!g.tensors[t].is_constant()) bits8[t] = bits;
    const std::vector<quant::TensorStats> stats(g.tensors.size());
    const quant::FormatPlanner planner(g, stats, bits8, allow_unsigned, true);
    return planner.Plan(std::vector<bool>(planner.groups().size(), false));
  };
  const auto id = [&](const std::string& name) {
    for (size_t t = 0; t < g.tensors.size(); ++t)
      if (g.tensors[t].name == name) return t;
    FAIL("no tensor " << name);
    return size_t{0};
  };
  const quant::ActivationFormats coarse = plan_with(4, true);
  CHECK(coarse.format[id("a6")] == DType::kU8);
  CHECK(coarse.bits[id("a6")] == 5);
  CHECK(coarse.bits[id("a")] == 5);  // the relu6's only input: its group
  CHECK(coarse.format[id("cr")] == DType::kU8);
  CHECK(coarse.bits[id("cr")] == 4);
  CHECK(coarse.bits[id("x")] == 4);
  // A finer length chosen by least error stays; i8 (int8) keeps its length.
  CHECK(plan_with(6, true).bits[id("a6")] == 6);
  CHECK(plan_with(4, false).bits[id("a6")] == 4);
}

TEST_CASE("an i16 input costs a second pass only in depthwise convs wider than 4 taps") {
  // x (4x8, 2 channels) → 1x1 conv to 3 channels: 32 pixels x 2 x 3 = 192
  // MACs; → 1x1 depthwise conv: 32 x 2 = 64; → 1x5 depthwise conv (no
  // padding: 4x4 outputs): 16 x 2 x 5 = 160, the one whose window cannot
  // keep the low bytes 4 taps on.
  GraphBuilder b("passes");
  const TensorId x = b.Input("x", DType::kF32, {1, 4, 8, 2});
  const TensorId w = b.ConstantF32("w", {3, 1, 1, 2}, {1, 2, 3, 4, 5, 6});
  const TensorId w1 = b.ConstantF32("w1", {1, 1, 1, 2}, {1, 2});
  const TensorId w5 = b.ConstantF32("w5", {1, 1, 5, 2}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
  b.Output(b.Op(OpKind::kConv2D, "c", {x, w}));
  b.Output(b.Op(OpKind::kDepthwiseConv2D, "d1", {x, w1}));
  b.Output(b.Op(OpKind::kDepthwiseConv2D, "d5", {x, w5}));
  const Graph g = Build(std::move(b));
  std::vector<int> bits8(g.tensors.size(), quant::kNoBits);
  for (size_t t = 0; t < g.tensors.size(); ++t)
    if (!g.tensors[t].is_constant()) bits8[t] = 4;
  const std::vector<quant::TensorStats> stats(g.tensors.size());
  for (const bool one_pass : {true, false}) {
    const quant::FormatPlanner planner(g, stats, bits8, true, one_pass);
    int64_t extra = -1;
    for (const quant::FormatGroup& group : planner.groups())
      for (TensorId t : group.members)
        if (t == x) extra = group.extra_macs;
    CHECK(extra == (one_pass ? 160 : 192 + 64 + 160));
    CHECK(planner.total_macs() == 192 + 64 + 160);
  }
}

TEST_CASE("precision mixed: a reachable target widens nothing, an unreachable one measures") {
  const Graph g = Net();
  QuantizeOptions options;
  options.precision = Precision::kMixed;
  options.target_sqnr_db = 0.0;
  Expected<QuantizedGraph> easy = Quantize(g, Samples(), options);
  REQUIRE(easy.ok());
  CHECK(easy->report.i16_tensors == 0);
  CHECK(easy->report.precision_rounds == 1);
  CHECK(easy->report.calibration_sqnr_db >= 0.0);
  // The measured SQNR is the least over the outputs on the calibration samples.
  CHECK(easy->report.calibration_sqnr_db ==
        doctest::Approx(CompareWithFloat(g, easy->graph, Samples()).value().at(0).sqnr_db));

  options.target_sqnr_db = 199.0;
  Expected<QuantizedGraph> hard = Quantize(g, Samples(), options);
  REQUIRE(hard.ok());
  CHECK(hard->report.precision_rounds >= 2);
  CHECK(hard->report.i16_tensors > 0);
  CHECK(hard->report.calibration_sqnr_db >= easy->report.calibration_sqnr_db);
  CHECK(hard->report.u8_tensors + hard->report.i8_tensors + hard->report.i16_tensors ==
        hard->report.activations);
}

}  // namespace
}  // namespace opuc
