// What codegen does not compile yet becomes a CPU step whose reason names
// the node, its stage and why; the messages here are the ones
// docs/codegen.md promises.
#include <doctest/doctest.h>

#include <string>
#include <tuple>
#include <vector>

#include "opuc/codegen/codegen.h"
#include "opuc/ir/graph_builder.h"
#include "opuc/partition/hw_partition.h"

namespace opuc {
namespace {

Attributes Window(int64_t k, int64_t s, const char* padding = "valid") {
  Attributes a;
  a.Set("filter", AttrValue(std::vector<int64_t>{k, k}));
  a.Set("strides", AttrValue(std::vector<int64_t>{s, s}));
  a.Set("padding", AttrValue(std::string(padding)));
  return a;
}

// Every activation i8 at f = 4 unless `fractions` says otherwise (by name);
// a constant has the fraction length `fractions` gives it.
std::vector<std::string> Skipped(GraphBuilder b,
                                 const std::vector<std::pair<std::string, int>>& fractions = {},
                                 const HwConfig& hw = *HwConfigPreset("opu1024")) {
  Expected<Graph> built = std::move(b).Finish();
  REQUIRE_MESSAGE(built.ok(), built.status().ToString());
  Graph& graph = *built;
  for (Tensor& t : graph.tensors) {
    if (t.is_constant()) {
      for (const auto& [name, f] : fractions)
        if (t.name == name) t.fixed_point = {{f}, -1};
      continue;
    }
    t.dtype = DType::kI8;
    t.fixed_point = {{4}, -1};
    for (const auto& [name, f] : fractions)
      if (t.name == name) t.fixed_point = {{f}, -1};
  }
  Expected<HwPartition> partition = PartitionForHardware(graph, hw);
  REQUIRE_MESSAGE(partition.ok(), partition.status().ToString());
  Expected<StepPlan> plan = PlanSteps(graph, *partition, hw);
  REQUIRE_MESSAGE(plan.ok(), plan.status().ToString());
  REQUIRE(plan->steps.size() == partition->groups.size());
  const std::string prefix = "not compiled for the OPU yet: ";
  std::vector<std::string> reasons;
  for (size_t s = 0; s < plan->steps.size(); ++s) {
    const PlannedStep& step = plan->steps[s];
    if (partition->groups[s].kind != GroupKind::kOpu || step.kind == StepKind::kOpu) continue;
    REQUIRE(step.reason.rfind(prefix, 0) == 0);
    reasons.push_back(step.reason.substr(prefix.size()));
  }
  return reasons;
}

TEST_CASE("a pool window further in padding than Pool reaches is listed, 3x3/2 SAME compiles") {
  // SAME over 20 pixels: a 17x17 window every pixel pads 16, 8 before;
  // a 3x3 window every 2 pads 1, 0 before... and 1 before over 9 pixels.
  for (const auto& [side, k, s] : {std::tuple{20, 17, 1}, std::tuple{9, 3, 2}}) {
    CAPTURE(k);
    GraphBuilder b("pool");
    const TensorId x = b.Input("x", DType::kI8, {1, side, side, 8});
    const TensorId r = b.Op(OpKind::kRelu, "relu", {x});
    b.Output(b.Op(OpKind::kMaxPool2D, "pool", {r}, Window(k, s, "same")));
    const std::vector<std::string> reasons = Skipped(std::move(b));
    if (k == 3) {
      CHECK(reasons.empty());
      continue;
    }
    REQUIRE(reasons.size() == 1);
    CHECK(reasons[0] ==
          "node 1 'pool' (max_pool2d) on stage pool: a pool window that starts 8 pixels in "
          "padding: Pool's pads reach 7");
  }
}

TEST_CASE("an upsample that requantizes after a pool is listed, without the pool it compiles") {
  for (const bool pooled : {true, false}) {
    CAPTURE(pooled);
    GraphBuilder b("up");
    const TensorId x = b.Input("x", DType::kI8, {1, 8, 8, 8});
    TensorId last = b.Op(OpKind::kRelu, "relu", {x});
    if (pooled) last = b.Op(OpKind::kMaxPool2D, "pool", {last}, Window(2, 2));
    const int64_t side = pooled ? 8 : 16;
    Attributes size;
    size.Set("size", AttrValue(std::vector<int64_t>{side, side}));
    b.Output(b.Op(OpKind::kResizeNearest, "up", {last}, size));
    const std::vector<std::string> reasons = Skipped(std::move(b), {{"up", 3}});
    if (!pooled) {
      CHECK(reasons.empty());
      continue;
    }
    REQUIRE(reasons.size() == 1);
    CHECK(reasons[0] ==
          "node 2 'up' (resize_nearest) on stage upsample: an upsample that requantizes (f 4 i8 "
          "to f 3 i8) after a pool or of a value that also leaves the group");
  }
}

// Input "a" (1x4x4x8) concatenated with `second` along the channels, then
// a relu: one group, the concat at memory read.
std::vector<std::string> ConcatSkipped(bool constant_second,
                                       const std::vector<std::pair<std::string, int>>& fractions) {
  GraphBuilder b("cat");
  const TensorId a = b.Input("a", DType::kI8, {1, 4, 4, 8});
  const std::vector<int8_t> zeros(4 * 4 * 8, 0);
  const TensorId second = constant_second
                              ? b.Constant("c", DType::kI8, {1, 4, 4, 8},
                                           ConstantData::Copy(zeros.data(), zeros.size()))
                              : b.Input("c", DType::kI8, {1, 4, 4, 8});
  Attributes channels;
  channels.Set("axis", AttrValue(int64_t{3}));
  b.Output(b.Op(OpKind::kRelu, "relu", {b.Op(OpKind::kConcat, "cat", {a, second}, channels)}));
  return Skipped(std::move(b), fractions);
}

TEST_CASE("a concat of another fraction length, or of a constant, is listed") {
  std::vector<std::string> reasons = ConcatSkipped(false, {{"c", 5}});
  REQUIRE(reasons.size() == 1);
  CHECK(reasons[0] ==
        "node 0 'cat' (concat) on stage mem_rd: input 'c' is i8 at f 5, the concat i8 at f 4: "
        "the memory read does not requantize");
  reasons = ConcatSkipped(true, {});
  REQUIRE(reasons.size() == 1);
  CHECK(reasons[0] == "node 0 'cat' (concat) on stage mem_rd: a constant input");
  CHECK(ConcatSkipped(false, {}).empty());  // the same concat at one fraction length compiles
}

// x -> mul by a per-channel constant -> 1x1 conv, or the conv first. With
// the seed's HDFG the multiplier before the inner product is mul_pre, which
// no instruction runs; the presets' HDFG has no mul_pre, so the mul takes a
// pass of its own and both compile; after the conv it is the mul stage.
std::vector<std::string> ChannelMulSkipped(bool before, bool seed_hdfg) {
  GraphBuilder b("scale");
  const TensorId x = b.Input("x", DType::kI8, {1, 4, 4, 8});
  const std::vector<int8_t> scales = {1, 2, 3, 4, 5, 6, 7, 8}, weights(8 * 8, 3);
  const TensorId c = b.Constant("c", DType::kI8, {8}, ConstantData::Copy(scales.data(), 8));
  const TensorId w =
      b.Constant("w", DType::kI8, {8, 1, 1, 8}, ConstantData::Copy(weights.data(), 64));
  const auto conv = [&](TensorId in) { return b.Op(OpKind::kConv2D, "conv", {in, w}); };
  const auto mul = [&](TensorId in) { return b.Op(OpKind::kMul, "mul", {in, c}); };
  b.Output(before ? conv(mul(x)) : mul(conv(x)));
  HwConfig hw = *HwConfigPreset("opu1024");
  if (seed_hdfg) hw.hdfg = DefaultHdfg();
  return Skipped(std::move(b), {{"c", 4}, {"w", 6}}, hw);
}

TEST_CASE("a multiplier before the inner product compiles as a pass of its own") {
  CHECK(ChannelMulSkipped(true, false).empty());
  CHECK(ChannelMulSkipped(false, false).empty());
  const std::vector<std::string> reasons = ChannelMulSkipped(true, true);
  REQUIRE(reasons.size() == 1);
  CHECK(reasons[0] ==
        "node 1 'conv' (conv2d) on stage ipa: an inner product after another stage: the "
        "HwConfig's HDFG has a pre-adder or pre-multiplier, which no instruction runs (the "
        "presets leave them out: the op then takes a pass of its own)");
  CHECK(ChannelMulSkipped(false, true).empty());
}

TEST_CASE("a transposed convolution whose zero rows pass Load's pads is listed") {
  // 16x16 kernel every 4: up to 15 rows of padding and 3 of zeros between.
  GraphBuilder b("up");
  const TensorId x = b.Input("x", DType::kI8, {1, 2, 2, 8});
  const std::vector<int8_t> weights(8 * 16 * 16 * 8, 1);
  const TensorId w = b.Constant("w", DType::kI8, {8, 16, 16, 8},
                                ConstantData::Copy(weights.data(), weights.size()));
  Attributes a;
  a.Set("output_shape", AttrValue(std::vector<int64_t>{1, 8, 8, 8}));
  a.Set("strides", AttrValue(std::vector<int64_t>{4, 4}));
  a.Set("padding", AttrValue(std::string("same")));
  b.Output(b.Op(OpKind::kTransposeConv2D, "tconv", {x, w}, a));
  const std::vector<std::string> reasons = Skipped(std::move(b), {{"w", 6}});
  REQUIRE(reasons.size() == 1);
  CHECK(reasons[0] ==
        "node 0 'tconv' (transpose_conv2d) on stage ipa: a 16x16 kernel every 4x4: its zero rows "
        "pass Load's pads, which reach 15");
}

}  // namespace
}  // namespace opuc
