//===- tests/program/physical_bound_test.cc - The hardware's limit by hand ===//
//
// The physical bound (opuc/program/physical_bound.h) of four layers worked
// out by hand on a 64 x 16 array (1,024 MACs a cycle) with 64 DRAM bytes a
// cycle (12.8 GB/s at 200 MHz): a 3-channel first layer, a depthwise layer,
// a 1x1 conv with a residual add and an i16 layer; and a step's bound the
// same however its layers are grouped.
//
//===----------------------------------------------------------------------===//
#include <doctest/doctest.h>

#include <limits>
#include <vector>

#include "opuc/ir/graph_builder.h"
#include "opuc/opu/hw_config.h"
#include "opuc/program/physical_bound.h"

namespace opuc {
namespace {

HwConfig Array64x16() {
  HwConfig hw = HwConfigPreset("opu1024").value();
  hw.array.input_channels = 64;
  hw.array.output_channels = 16;
  hw.array.clock_mhz = 200.0;
  hw.dram.bandwidth_gb_per_s = 12.8;
  return hw;
}

TensorId Weights(GraphBuilder& b, const std::string& name, Shape shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  const std::vector<int8_t> w(static_cast<size_t>(n), 1);
  return b.Constant(name, DType::kI8, std::move(shape), ConstantData::Copy(w.data(), w.size()));
}

TensorId Bias(GraphBuilder& b, const std::string& name, int64_t channels) {
  const std::vector<int32_t> v(static_cast<size_t>(channels), 0);
  return b.Constant(name, DType::kI32, {channels}, ConstantData::Copy(v.data(), v.size() * 4));
}

Attributes Conv(int64_t stride, const char* padding) {
  Attributes a;
  a.Set("strides", std::vector<int64_t>{stride, stride});
  a.Set("padding", std::string(padding));
  return a;
}

std::vector<NodeId> Nodes(std::initializer_list<NodeId> ids) { return ids; }

TEST_CASE("a 3-channel first layer is bounded by its MACs") {
  // 5x5 stride 2 conv, 3 -> 24 channels, 128x128 -> 64x64, then a relu:
  // MACs 64·64·24·5·5·3 = 7,372,800, /1024 = 7,200 cycles; bytes: input
  // 128·128·3 = 49,152, weights 24·75 = 1,800, bias 24·4 = 96, output
  // 64·64·24 = 98,304 (the conv's own output stays inside) = 149,352, /64 =
  // 2,333.6 -> 2,334 cycles.
  GraphBuilder b("first");
  const TensorId image = b.Input("image", DType::kI8, {1, 128, 128, 3});
  const TensorId c =
      b.Op(OpKind::kConv2D, "conv", {image, Weights(b, "w", {24, 5, 5, 3}), Bias(b, "b", 24)},
           Conv(2, "same"));
  b.Output(b.Op(OpKind::kRelu, "relu", {c}));
  const Graph g = std::move(b).Finish().value();
  const PhysicalLimit limit(g, Array64x16());
  LayerClass cls = LayerClass::kOther;
  const PhysicalBound bound = limit.Bound(Nodes({0, 1}), &cls);
  CHECK(cls == LayerClass::kFirst);
  CHECK(bound.macs == 7'372'800);
  CHECK(bound.compute_cycles == 7'200);
  CHECK(bound.dram_bytes == 149'352);
  CHECK(bound.dram_cycles == 2'334);
  CHECK(bound.cycles == 7'200);
  CHECK(limit.Layers(Nodes({0, 1})).size() == 1);
}

TEST_CASE("a depthwise layer is bounded by its DRAM bytes") {
  // A 1x1 conv first (so the depthwise comes after an inner product), then
  // the depthwise 3x3, 24 channels, 64x64 same: MACs 64·64·24·9 = 884,736,
  // /1024 = 864 cycles; bytes: input 98,304, weights 216, bias 96, output
  // 98,304 = 196,920, /64 = 3,076.9 -> 3,077 cycles.
  GraphBuilder b("depthwise");
  const TensorId x = b.Input("x", DType::kI8, {1, 64, 64, 8});
  const TensorId c =
      b.Op(OpKind::kConv2D, "conv", {x, Weights(b, "cw", {24, 1, 1, 8})}, Conv(1, "same"));
  b.Output(b.Op(OpKind::kDepthwiseConv2D, "dw",
                {c, Weights(b, "w", {1, 3, 3, 24}), Bias(b, "b", 24)}, Conv(1, "same")));
  const Graph g = std::move(b).Finish().value();
  LayerClass cls = LayerClass::kOther;
  const PhysicalBound bound = PhysicalLimit(g, Array64x16()).Bound(Nodes({1}), &cls);
  CHECK(cls == LayerClass::kDepthwise);
  CHECK(bound.compute_cycles == 864);
  CHECK(bound.dram_bytes == 196'920);
  CHECK(bound.dram_cycles == 3'077);
  CHECK(bound.cycles == 3'077);
}

TEST_CASE("a 1x1 conv with a residual add reads the residual once, and grouping does not matter") {
  // conv a (1x1, 64 -> 64 on 16x16) in one step; conv b (1x1) + add(b, x)
  // in another. Layer b: MACs 256·64·64 = 1,048,576, /1024 = 1,024 cycles;
  // bytes: a's output 16,384, weights 4,096, bias 256, the residual x
  // 16,384, the sum 16,384 = 53,504, /64 = 836 cycles. Layer a: the same
  // MACs; bytes x 16,384 + 4,096 + 256 + a's output 16,384 = 37,120 -> 580.
  GraphBuilder b("residual");
  const TensorId x = b.Input("x", DType::kI8, {1, 16, 16, 64});
  const TensorId a =
      b.Op(OpKind::kConv2D, "a", {x, Weights(b, "wa", {64, 1, 1, 64}), Bias(b, "ba", 64)});
  const TensorId c =
      b.Op(OpKind::kConv2D, "b", {a, Weights(b, "wb", {64, 1, 1, 64}), Bias(b, "bb", 64)});
  b.Output(b.Op(OpKind::kAdd, "add", {c, x}));
  const Graph g = std::move(b).Finish().value();
  const PhysicalLimit limit(g, Array64x16());
  LayerClass cls = LayerClass::kOther;
  const PhysicalBound second = limit.Bound(Nodes({1, 2}), &cls);
  CHECK(cls == LayerClass::kDense);
  CHECK(second.compute_cycles == 1'024);
  CHECK(second.dram_bytes == 53'504);
  CHECK(second.dram_cycles == 836);
  CHECK(second.cycles == 1'024);
  const PhysicalBound first = limit.Bound(Nodes({0}), &cls);
  CHECK(cls == LayerClass::kFirst);
  CHECK(first.dram_bytes == 37'120);
  CHECK(first.cycles == 1'024);
  // All three in one step: two layers, the same sum.
  const std::vector<LayerBound> layers = limit.Layers(Nodes({0, 1, 2}));
  REQUIRE(layers.size() == 2);
  CHECK(layers[1].nodes == Nodes({1, 2}));
  const PhysicalBound whole = limit.Bound(Nodes({0, 1, 2}));
  CHECK(whole.cycles == 2'048);
  CHECK(whole.dram_bytes == 37'120 + 53'504);
}

TEST_CASE("an i16 layer takes one array pass read whole, else two, and two bytes an element") {
  // 3x3 conv, 32 -> 16 channels on 8x8 same, i16 in and out: MACs
  // 64·16·288 = 294,912 / 1024 = 288 cycles where the array reads an i16
  // whole (a feature-map buffer of two banks), twice that without: 576;
  // bytes: input 8·8·32·2 = 4,096, weights 4,608, bias 64, output 8·8·16·2
  // = 2,048 = 10,816, /64 = 169 cycles.
  GraphBuilder b("i16");
  const TensorId x = b.Input("x", DType::kI8, {1, 8, 8, 32});
  const TensorId c = b.Op(OpKind::kConv2D, "conv",
                          {x, Weights(b, "w", {16, 3, 3, 32}), Bias(b, "b", 16)}, Conv(1, "same"));
  b.Output(c);
  Graph g = std::move(b).Finish().value();
  g.tensor(x).dtype = DType::kI16;  // as the quantizer widens an activation
  g.tensor(c).dtype = DType::kI16;
  HwConfig one_bank = Array64x16();
  one_bank.ipa.depthwise_line = 0;  // no line buffers: the feature-map buffer in one bank
  REQUIRE(FeatureMapPairs(Array64x16()));
  REQUIRE_FALSE(FeatureMapPairs(one_bank));
  for (const bool whole : {true, false}) {
    const PhysicalBound bound = PhysicalLimit(g, whole ? Array64x16() : one_bank).Bound(Nodes({0}));
    CHECK(bound.macs == 294'912);
    CHECK(bound.compute_cycles == (whole ? 288 : 576));
    CHECK(bound.dram_bytes == 10'816);
    CHECK(bound.dram_cycles == 169);
    CHECK(bound.cycles == (whole ? 288 : 576));
  }
}

TEST_CASE("an absent optional input is no tensor to move") {
  // The first layer's conv without its bias, marked absent as readers do:
  // 149,352 - 96 = 149,256 bytes, /64 = 2,332.1 -> 2,333 cycles.
  GraphBuilder b("no_bias");
  const TensorId image = b.Input("image", DType::kI8, {1, 128, 128, 3});
  b.Output(b.Op(OpKind::kConv2D, "conv", {image, Weights(b, "w", {24, 5, 5, 3})}, Conv(2, "same")));
  Graph g = std::move(b).Finish().value();
  g.nodes[0].inputs.push_back(kNoTensor);
  const PhysicalBound bound = PhysicalLimit(g, Array64x16()).Bound(Nodes({0}));
  CHECK(bound.dram_bytes == 149'256);
  CHECK(bound.dram_cycles == 2'333);
  CHECK(bound.cycles == 7'200);
}

TEST_CASE("DRAM cycles round up and saturate") {
  CHECK(DramCycles(128, 64.0) == 2);
  CHECK(DramCycles(129, 64.0) == 3);
  CHECK(DramCycles(100, 0.0) == 0);
  CHECK(DramCycles(std::numeric_limits<int64_t>::max(), 1e-300) ==
        std::numeric_limits<int64_t>::max());
  HwConfig hw = Array64x16();
  CHECK(DramBytesPerCycle(hw) == doctest::Approx(64.0));
  hw.array.clock_mhz = 0;
  CHECK(DramBytesPerCycle(hw) == 0.0);
}

}  // namespace
}  // namespace opuc
