//===- tests/cpu/fused_groups_test.cc - FuseOps groups on the CPU executor -===//
//
// 150 seeded random IR graphs (every pattern kind, diamonds, extra outputs)
// fused by FuseOps: the CPU executor runs each fused graph, functions and
// all, to the float reference's results on the unfused graph, within the
// tolerance of docs/cpu-executor.md (1e-5 of each output's range), those
// of an inner product and an elementwise tail as one kernel. 60 more,
// quantized and then fused: the integer reference's bytes on the unfused
// graph, exactly (as a program's CPU steps run). Then a hand-made function
// of each kind, and bodies that must run op by op.
//
//===----------------------------------------------------------------------===//
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "fused_match.h"
#include "fusion/random_ir_graph.h"
#include "opuc/cpu/executor.h"
#include "opuc/fusion/fuse_mutator.h"
#include "opuc/ir/graph_builder.h"
#include "opuc/quant/quantize.h"
#include "opuc/tensor_io/random_input.h"
#include "within_range.h"

namespace opuc {
namespace {

TEST_CASE("random fused graphs: the CPU executor gives the reference's results") {
  int64_t fused = 0, one_kernel = 0;
  for (uint64_t seed = 0; seed < 150; ++seed) {
    CAPTURE(seed);
    Graph g = testing::RandomIrGraph(5 + static_cast<int>(seed % 30), seed);
    Expected<std::vector<HostTensor>> inputs = RandomInputs(g, seed);
    REQUIRE(inputs.ok());
    Expected<std::vector<HostTensor>> want = RunReference(g, *inputs);
    REQUIRE_MESSAGE(want.ok(), want.status().ToString());
    Expected<FuseCounts> counts = FuseOps(g, FuseOptions());
    REQUIRE_MESSAGE(counts.ok(), counts.status().ToString());
    fused += counts->fused_nodes;
    for (const Node& node : g.nodes)
      if (node.op == OpKind::kFused && cpu::MatchFusedTail(*node.body)) ++one_kernel;
    Expected<std::vector<HostTensor>> got = RunCpu(g, *inputs);
    REQUIRE_MESSAGE(got.ok(), got.status().ToString());
    REQUIRE(got->size() == want->size());
    for (size_t o = 0; o < want->size(); ++o) {
      testing::CheckWithinRange((*got)[o], (*want)[o], 1e-5);
    }
  }
  CHECK(fused > 150);      // the graphs do fuse
  CHECK(one_kernel > 20);  // and some functions run as one kernel
  MESSAGE(one_kernel, " of ", fused, " functions ran as one kernel");
}

TEST_CASE("random quantized fused graphs: the CPU executor gives the integer reference's bytes") {
  int64_t graphs = 0, fused = 0, one_kernel = 0;
  for (uint64_t seed = 0; seed < 60; ++seed) {
    CAPTURE(seed);
    const Graph model = testing::RandomIrGraph(5 + static_cast<int>(seed % 30), seed);
    std::vector<std::vector<HostTensor>> samples;
    for (uint64_t s = 1; s <= 2; ++s) samples.push_back(RandomInputs(model, seed * 7 + s).value());
    Expected<QuantizedGraph> q = Quantize(model, samples);
    REQUIRE_MESSAGE(q.ok(), q.status().ToString());
    Graph g = q->graph;
    Expected<std::vector<HostTensor>> inputs = RandomInputs(g, seed + 100);
    REQUIRE(inputs.ok());
    Expected<std::vector<HostTensor>> want = RunReference(g, *inputs);
    REQUIRE_MESSAGE(want.ok(), want.status().ToString());
    Expected<FuseCounts> counts = FuseOps(g, FuseOptions());
    REQUIRE_MESSAGE(counts.ok(), counts.status().ToString());
    ++graphs;
    fused += counts->fused_nodes;
    for (const Node& node : g.nodes)
      if (node.op == OpKind::kFused && cpu::MatchFusedTail(*node.body)) ++one_kernel;
    Expected<std::vector<HostTensor>> got = RunCpu(g, *inputs);
    REQUIRE_MESSAGE(got.ok(), got.status().ToString());
    REQUIRE(got->size() == want->size());
    for (size_t o = 0; o < want->size(); ++o) {
      const HostTensor& a = (*got)[o];
      const HostTensor& b = (*want)[o];
      REQUIRE(a.type() == b.type());
      CHECK(std::memcmp(a.raw(), b.raw(), a.bytes()) == 0);
    }
  }
  CHECK(fused > graphs);   // the graphs do fuse
  CHECK(one_kernel > 20);  // and some functions run as one kernel
  MESSAGE(graphs, " quantized graphs, ", fused, " fused functions, ", one_kernel, " as one kernel");
}

/// Fuses `g`, which must become one function, and checks the CPU executor
/// against the reference on the unfused graph (within 1e-5 of the output's
/// range); returns how the function's body matched the one-kernel form.
std::optional<cpu::FusedTail> CheckOneFunction(Graph g, uint64_t seed) {
  Expected<std::vector<HostTensor>> inputs = RandomInputs(g, seed);
  REQUIRE(inputs.ok());
  Expected<std::vector<HostTensor>> want = RunReference(g, *inputs);
  REQUIRE(want.ok());
  REQUIRE(FuseOps(g, FuseOptions()).ok());
  REQUIRE(g.nodes.size() == 1);
  REQUIRE(g.nodes[0].op == OpKind::kFused);
  Expected<std::vector<HostTensor>> got = RunCpu(g, *inputs);
  REQUIRE_MESSAGE(got.ok(), got.status().ToString());
  testing::CheckWithinRange(got->front(), want->front(), 1e-5);
  return cpu::MatchFusedTail(*g.nodes[0].body);
}

/// x -> conv2d(3x3, 8 channels) -> relu -> add(r) -> mul(per-channel) -> relu6.
Graph ConvTail(bool read_twice) {
  GraphBuilder b("tail");
  const TensorId x = b.Input("x", DType::kF32, {1, 6, 6, 4});
  const TensorId r = b.Input("r", DType::kF32, {1, 6, 6, 8});
  std::vector<float> w(8 * 3 * 3 * 4), s(8);
  for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>(static_cast<int>(i % 7) - 3) / 8;
  for (size_t i = 0; i < s.size(); ++i) s[i] = 0.5f + static_cast<float>(i) / 4;
  Attributes same;
  same.Set("padding", AttrValue(std::string("same")));
  const TensorId c = b.Op(OpKind::kConv2D, "conv", {x, b.ConstantF32("w", {8, 3, 3, 4}, w)}, same);
  const TensorId a = b.Op(OpKind::kRelu, "relu", {c});
  const TensorId sum = b.Op(OpKind::kAdd, "add", {read_twice ? a : r, a});
  const TensorId m = b.Op(OpKind::kMul, "scale", {b.ConstantF32("s", {8}, s), sum});
  b.Output(b.Op(OpKind::kRelu6, "relu6", {m}));
  return std::move(b).Finish().value();
}

TEST_CASE("a conv with an elementwise tail runs as one kernel, with the reference's results") {
  for (bool read_twice : {false, true}) {
    CAPTURE(read_twice);
    const std::optional<cpu::FusedTail> tail = CheckOneFunction(ConvTail(read_twice), 3);
    // relu's result read twice by add is a diamond, not a chain: op by op
    CHECK(tail.has_value() == !read_twice);
    if (tail) {
      REQUIRE(tail->steps.size() == 4);
      CHECK(tail->steps[1].operand == cpu::ChainStep::Operand::kWhole);
      CHECK(tail->steps[2].operand == cpu::ChainStep::Operand::kChannel);
      CHECK_FALSE(tail->steps[2].value_first);  // scale · value
    }
  }
}

/// x -> conv2d(1x1, 8 channels) -> value - r -> 0.75 - value -> value - s[c] -> prelu(value,
/// slope[c]): subtraction with the running value on each side, against each shape of operand,
/// then a per-channel slope where the value is negative.
TEST_CASE("a subtraction chain keeps each operand on its side, and prelu its slope") {
  GraphBuilder b("sub_tail");
  const TensorId x = b.Input("x", DType::kF32, {1, 5, 5, 3});
  const TensorId r = b.Input("r", DType::kF32, {1, 5, 5, 8});
  std::vector<float> w(8 * 3), s(8);
  for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>(static_cast<int>(i % 5) - 2) / 4;
  for (size_t i = 0; i < s.size(); ++i) s[i] = static_cast<float>(i) - 3.5f;
  const TensorId c = b.Op(OpKind::kConv2D, "conv", {x, b.ConstantF32("w", {8, 1, 1, 3}, w)});
  const TensorId d1 = b.Op(OpKind::kSub, "minus_r", {c, r});
  const TensorId d2 = b.Op(OpKind::kSub, "from_c", {b.ConstantF32("c", {}, {0.75f}), d1});
  const TensorId d3 = b.Op(OpKind::kSub, "minus_s", {d2, b.ConstantF32("s", {8}, s)});
  std::vector<float> slope(8);
  for (size_t i = 0; i < slope.size(); ++i) slope[i] = 0.125f * static_cast<float>(i + 1);
  b.Output(b.Op(OpKind::kPRelu, "prelu", {d3, b.ConstantF32("slope", {8}, slope)}));
  const std::optional<cpu::FusedTail> tail = CheckOneFunction(std::move(b).Finish().value(), 5);
  REQUIRE(tail.has_value());
  REQUIRE(tail->steps.size() == 4);
  using Operand = cpu::ChainStep::Operand;
  CHECK((tail->steps[0].operand == Operand::kWhole && tail->steps[0].value_first));
  CHECK((tail->steps[1].operand == Operand::kScalar && !tail->steps[1].value_first));
  CHECK((tail->steps[2].operand == Operand::kChannel && tail->steps[2].value_first));
  CHECK((tail->steps[3].op == OpKind::kPRelu && tail->steps[3].operand == Operand::kChannel));
}

/// x + y -> · s[c] -> relu over 1x24x24x40: an injective chain of three
/// blocks (blocks are whole rows of 40 channels), float or quantized; then,
/// given `axes`, a mean over them.
Graph InjectiveChain(DType format, std::vector<int64_t> axes = {}) {
  GraphBuilder b("injective");
  const Shape shape{1, 24, 24, 40};
  const TensorId x = b.Input("x", format, shape);
  const TensorId y = b.Input("y", format, shape);
  const TensorId s = b.Input("s", format, {40});
  const TensorId sum = b.Op(OpKind::kAdd, "add", {x, y});
  const TensorId scaled = b.Op(OpKind::kMul, "scale", {sum, s});
  const TensorId relu = b.Op(OpKind::kRelu, "relu", {scaled});
  Attributes mean;
  mean.Set("axes", AttrValue(axes));
  b.Output(axes.empty() ? relu : b.Op(OpKind::kMean, "mean", {relu}, mean));
  Graph g = std::move(b).Finish().value();
  if (format != DType::kF32) {
    int f = 3;
    for (Tensor& t : g.tensors) t.fixed_point = FixedPoint{{f++}, -1};
  }
  return g;
}

TEST_CASE("an injective chain runs as one kernel over several blocks, reduced by a mean or not") {
  // axes {1, 2}: a global average pool (one run of axes, one kernel); {1, 3}: op by op
  for (const std::vector<int64_t>& axes : {std::vector<int64_t>{}, {1, 2}, {1, 3}}) {
    CAPTURE(axes.size());
    const bool one_kernel = axes.size() != 2 || axes[1] == 2;
    const std::optional<cpu::FusedTail> tail =
        CheckOneFunction(InjectiveChain(DType::kF32, axes), 7);
    REQUIRE(tail.has_value() == one_kernel);
    if (tail) CHECK((!tail->inner_product && tail->mean == !axes.empty()));

    Graph g = InjectiveChain(DType::kI8, axes);
    Expected<std::vector<HostTensor>> inputs = RandomInputs(g, 8);
    REQUIRE(inputs.ok());
    Expected<std::vector<HostTensor>> want = RunReference(g, *inputs);
    REQUIRE(want.ok());
    REQUIRE(FuseOps(g, FuseOptions()).ok());
    REQUIRE(g.nodes.size() == 1);
    const std::optional<cpu::FusedTail> integer = cpu::MatchFusedTail(*g.nodes[0].body);
    REQUIRE(integer.has_value() == one_kernel);
    if (integer) CHECK(integer->integer);
    Expected<std::vector<HostTensor>> got = RunCpu(g, *inputs);
    REQUIRE_MESSAGE(got.ok(), got.status().ToString());
    REQUIRE(got->front().type() == want->front().type());
    CHECK(std::memcmp(got->front().raw(), want->front().raw(), want->front().bytes()) == 0);
  }
}

TEST_CASE("float activations are chain steps: conv, sigmoid, a channel scale, hard swish, tanh") {
  GraphBuilder b("activations");
  const TensorId x = b.Input("x", DType::kF32, {1, 7, 7, 5});
  std::vector<float> w(12 * 3 * 3 * 5), s(12);
  for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>(static_cast<int>(i % 9) - 4) / 6;
  for (size_t i = 0; i < s.size(); ++i) s[i] = static_cast<float>(i) - 5.5f;
  Attributes same;
  same.Set("padding", AttrValue(std::string("same")));
  const TensorId c = b.Op(OpKind::kConv2D, "conv", {x, b.ConstantF32("w", {12, 3, 3, 5}, w)}, same);
  const TensorId g = b.Op(OpKind::kSigmoid, "sigmoid", {c});
  const TensorId m = b.Op(OpKind::kMul, "scale", {g, b.ConstantF32("s", {12}, s)});
  const TensorId h = b.Op(OpKind::kHardSwish, "hard_swish", {m});
  b.Output(b.Op(OpKind::kTanh, "tanh", {h}));
  const std::optional<cpu::FusedTail> tail = CheckOneFunction(std::move(b).Finish().value(), 9);
  REQUIRE(tail.has_value());
  REQUIRE(tail->steps.size() == 4);
  CHECK(tail->steps[0].op == OpKind::kSigmoid);
  CHECK(tail->steps[2].op == OpKind::kHardSwish);
  CHECK(tail->steps[3].op == OpKind::kTanh);
}

TEST_CASE(
    "a body whose declared shapes disagree with its conv is an error, never a write past the end") {
  // x -> conv2d(1x1, 8 channels) -> relu -> relu6, fused; then the body's conv output and the
  // chain's values declared one row short of what the conv makes.
  for (DType format : {DType::kF32, DType::kI8}) {
    CAPTURE(DTypeName(format));
    GraphBuilder b("short");
    const TensorId x = b.Input("x", format, {1, 6, 6, 4});
    const TensorId w = format == DType::kF32
                           ? b.ConstantF32("w", {8, 1, 1, 4}, std::vector<float>(32, 0.25f))
                           : b.Constant("w", DType::kI8, {8, 1, 1, 4},
                                        ConstantData::Copy(std::vector<int8_t>(32, 3).data(), 32));
    const TensorId c = b.Op(OpKind::kConv2D, "conv", {x, w});
    b.Output(b.Op(OpKind::kRelu6, "relu6", {b.Op(OpKind::kRelu, "relu", {c})}));
    Graph g = std::move(b).Finish().value();
    if (format != DType::kF32)
      for (Tensor& t : g.tensors) t.fixed_point = FixedPoint{{t.name == "w" ? 2 : 4}, -1};
    REQUIRE(FuseOps(g, FuseOptions()).ok());
    REQUIRE(g.nodes.size() == 1);
    Graph body = *g.nodes[0].body;
    for (Tensor& t : body.tensors)
      if (t.shape == Shape{1, 6, 6, 8}) t.shape = {1, 5, 6, 8};
    REQUIRE(cpu::MatchFusedTail(body).has_value());  // the chain still matches as declared
    g.nodes[0].body = std::make_shared<const Graph>(std::move(body));
    g.tensor(g.outputs[0]).shape = {1, 5, 6, 8};
    Expected<std::vector<HostTensor>> inputs = RandomInputs(g, 4);
    REQUIRE(inputs.ok());
    Expected<std::vector<HostTensor>> got = RunCpu(g, *inputs);
    REQUIRE_FALSE(got.ok());
    CHECK(got.status().ToString().find("conv") != std::string::npos);
    MESSAGE(got.status().ToString());
  }
}

TEST_CASE("a prelu whose slope is the running value runs op by op") {
  GraphBuilder b("slope_from_map");
  const TensorId x = b.Input("x", DType::kF32, {1, 4, 4, 3});
  const TensorId r = b.Input("r", DType::kF32, {1, 4, 4, 6});
  std::vector<float> w(6 * 3);
  for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>(static_cast<int>(i % 5) - 2) / 4;
  const TensorId c = b.Op(OpKind::kConv2D, "conv", {x, b.ConstantF32("w", {6, 1, 1, 3}, w)});
  b.Output(b.Op(OpKind::kPRelu, "prelu", {r, c}));
  CHECK_FALSE(CheckOneFunction(std::move(b).Finish().value(), 6).has_value());
}

}  // namespace
}  // namespace opuc
