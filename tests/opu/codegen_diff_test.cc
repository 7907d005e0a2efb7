// Differential tests: random quantized inner-product groups (shapes,
// kernels, strides, channel counts on and off the array's width, i8, u8
// and i16 inputs and outputs, with and without a compare stage), compiled for
// `tiny` and `opu1024` and run on the functional simulator, must equal the
// integer reference executor bit for bit.
#include <doctest/doctest.h>

#include <random>

#include "opuc/cpu/reference.h"
#include "opuc/ir/graph_builder.h"
#include "opuc/opu/codegen.h"
#include "opuc/opu/fsim.h"
#include "opuc/partition/hw_partition.h"

namespace opuc {
namespace {

struct Case {
  OpKind op = OpKind::kConv2D;
  int64_t h = 4, w = 4, ci = 3, co = 2, k = 1, stride = 1, multiplier = 1;
  bool same = true;
  DType in = DType::kI8, out = DType::kI8, after_format = DType::kI8;
  const char* fused = "none";
  const char* after = nullptr;  // a separate relu / relu6 / relu_n1_to_1 / prelu
  int f_in = 4, f_out = 3, f_after = 3;
  // A residual add of a second input after the inner product (before `after`).
  bool residual = false;
  DType res_format = DType::kI8, sum_format = DType::kI8;
  int f_res = 3, f_sum = 3;
};

std::string Describe(const Case& c) {
  std::string s = std::string(OpName(c.op)) + " " + std::to_string(c.h) + "x" +
                  std::to_string(c.w) + "x" + std::to_string(c.ci) + " -> " + std::to_string(c.co) +
                  " k" + std::to_string(c.k) + " s" + std::to_string(c.stride) +
                  (c.same ? " same" : " valid") + " " + std::string(DTypeName(c.in)) + "->" +
                  std::string(DTypeName(c.out)) + " " + c.fused;
  if (c.residual)
    s += " + residual " + std::string(DTypeName(c.res_format)) + " f" + std::to_string(c.f_res) +
         " -> " + std::string(DTypeName(c.sum_format)) + " f" + std::to_string(c.f_sum);
  if (c.after) s += std::string(" then ") + c.after + " " + std::string(DTypeName(c.after_format));
  return s;
}

HostTensor RandomInput(DType format, Shape shape, std::mt19937& rng) {
  HostTensor t = HostTensor::Zeros(format, std::move(shape)).value();
  const IntegerBounds b = QuantizedBounds(format);
  std::uniform_int_distribution<int64_t> d(b.lo, b.hi);
  for (int64_t i = 0; i < t.elements(); ++i) {
    const int64_t v = d(rng);
    if (format == DType::kU8)
      t.data<uint8_t>()[i] = static_cast<uint8_t>(v);
    else if (format == DType::kI16)
      t.data<int16_t>()[i] = static_cast<int16_t>(v);
    else
      t.data<int8_t>()[i] = static_cast<int8_t>(v);
  }
  return t;
}

std::vector<int64_t> Values(const HostTensor& t) {
  std::vector<int64_t> v;
  for (int64_t i = 0; i < t.elements(); ++i) {
    if (t.dtype() == DType::kU8)
      v.push_back(t.data<uint8_t>()[i]);
    else if (t.dtype() == DType::kI16)
      v.push_back(t.data<int16_t>()[i]);
    else
      v.push_back(t.data<int8_t>()[i]);
  }
  return v;
}

// The inner product's output shape: SAME gives ceil(n / stride) pixels,
// VALID (n - k) / stride + 1.
Shape ConvOutShape(const Case& c, int64_t out_c) {
  auto side = [&](int64_t n) {
    return c.same ? (n + c.stride - 1) / c.stride : (n - c.k) / c.stride + 1;
  };
  return {1, side(c.h), side(c.w), out_c};
}

// Builds the case's graph, runs the reference and the compiled group, and
// compares. Returns false (with a CHECK failure) on any difference.
void RunCase(const Case& c, const HwConfig& hw, std::mt19937& rng) {
  CAPTURE(Describe(c));
  CAPTURE(hw.name);
  GraphBuilder b("case");
  const bool fc = c.op == OpKind::kFullyConnected;
  const Shape in_shape = fc ? Shape{c.h, c.ci} : Shape{1, c.h, c.w, c.ci};
  const TensorId x = b.Input("x", c.in, in_shape);
  Shape w_shape;
  if (c.op == OpKind::kConv2D) w_shape = {c.co, c.k, c.k, c.ci};
  if (c.op == OpKind::kDepthwiseConv2D) w_shape = {1, c.k, c.k, c.ci * c.multiplier};
  if (fc) w_shape = {c.co, c.ci};
  const int64_t out_c = c.op == OpKind::kDepthwiseConv2D ? c.ci * c.multiplier : c.co;
  int64_t w_elems = 1;
  for (int64_t d : w_shape) w_elems *= d;
  std::vector<int8_t> weights(static_cast<size_t>(w_elems));
  std::uniform_int_distribution<int> wd(-127, 127);
  for (int8_t& v : weights) v = static_cast<int8_t>(wd(rng));
  std::vector<int32_t> bias(static_cast<size_t>(out_c));
  std::uniform_int_distribution<int32_t> bd(-100000, 100000);
  for (int32_t& v : bias) v = bd(rng);
  const TensorId w =
      b.Constant("w", DType::kI8, w_shape, ConstantData::Copy(weights.data(), weights.size()));
  const TensorId bt =
      b.Constant("b", DType::kI32, {out_c}, ConstantData::Copy(bias.data(), bias.size() * 4));
  Attributes attrs;
  attrs.Set("activation", AttrValue(std::string(c.fused)));
  if (!fc) {
    attrs.Set("padding", AttrValue(std::string(c.same ? "same" : "valid")));
    attrs.Set("strides", AttrValue(std::vector<int64_t>{c.stride, c.stride}));
  }
  if (c.op == OpKind::kDepthwiseConv2D) attrs.Set("depth_multiplier", AttrValue(c.multiplier));
  const TensorId y = b.Op(c.op, "ip", {x, w, bt}, attrs);
  TensorId last = y;
  TensorId res = kNoTensor, sum = kNoTensor;
  if (c.residual) {
    res = b.Input("res", c.res_format, fc ? Shape{c.h, c.co} : ConvOutShape(c, out_c));
    sum = last = b.Op(OpKind::kAdd, "add", {y, res});
  }
  TensorId alpha = kNoTensor;
  if (c.after && std::string(c.after) == "prelu") {
    // One slope per channel (or one for all), i8 at its own fraction length.
    const int64_t n = std::uniform_int_distribution<int>(0, 1)(rng) ? out_c : 1;
    std::vector<int8_t> slopes(static_cast<size_t>(n));
    for (int8_t& v : slopes) v = static_cast<int8_t>(wd(rng));
    alpha = b.Constant("alpha", DType::kI8, n == 1 || fc ? Shape{n} : Shape{1, 1, n},
                       ConstantData::Copy(slopes.data(), slopes.size()));
    last = b.Op(OpKind::kPRelu, "act", {last, alpha});
  } else if (c.after) {
    OpKind op = OpKind::kRelu;
    if (std::string(c.after) == "relu6") op = OpKind::kRelu6;
    if (std::string(c.after) == "relu_n1_to_1") op = OpKind::kReluN1To1;
    last = b.Op(op, "act", {last});
  }
  b.Output(last);
  Expected<Graph> built = std::move(b).Finish();
  REQUIRE_MESSAGE(built.ok(), built.status().ToString());
  Graph& graph = *built;
  graph.tensor(x).fixed_point = {{c.f_in}, -1};
  std::vector<int32_t> f_w;
  std::uniform_int_distribution<int32_t> fd(3, 9);
  for (int64_t o = 0; o < out_c; ++o) f_w.push_back(fd(rng));
  graph.tensor(w).fixed_point = {f_w, c.op == OpKind::kDepthwiseConv2D ? 3 : 0};
  graph.tensor(y).fixed_point = {{c.f_out}, -1};
  graph.tensor(y).dtype = c.out;
  if (c.residual) {
    graph.tensor(res).fixed_point = {{c.f_res}, -1};
    graph.tensor(sum).fixed_point = {{c.f_sum}, -1};
    graph.tensor(sum).dtype = c.sum_format;
  }
  if (alpha != kNoTensor) graph.tensor(alpha).fixed_point = {{fd(rng) - 3}, -1};
  if (c.after) {
    graph.tensor(last).fixed_point = {{c.f_after}, -1};
    graph.tensor(last).dtype = c.after_format;
  }

  std::vector<HostTensor> inputs;
  inputs.push_back(RandomInput(c.in, in_shape, rng));
  if (c.residual) inputs.push_back(RandomInput(c.res_format, graph.tensor(res).shape, rng));
  const HostTensor& input = inputs[0];
  Expected<std::vector<HostTensor>> expected = RunReference(graph, inputs);
  REQUIRE_MESSAGE(expected.ok(), expected.status().ToString());

  Expected<HwPartition> partition = PartitionForHardware(graph, hw);
  REQUIRE_MESSAGE(partition.ok(), partition.status().ToString());
  REQUIRE(partition->groups.size() == 1);
  CAPTURE(ReasonText(graph, *partition, partition->groups[0].reason));
  REQUIRE(partition->groups[0].kind == GroupKind::kOpu);
  Expected<OpuCode> code = CompileOpuGroups(graph, *partition, hw);
  REQUIRE_MESSAGE(code.ok(), code.status().ToString());
  REQUIRE_MESSAGE(code->skipped.empty(), code->skipped.front().reason);
  REQUIRE(code->groups.size() == 1);
  CAPTURE(code->groups[0].tiling);

  std::vector<uint8_t> dram = code->DramImage();
  REQUIRE(WriteActivation(*code->Find(x), input, dram).ok());
  if (c.residual) REQUIRE(WriteActivation(*code->Find(res), inputs[1], dram).ok());
  OpuCounters counters;
  const Status run = RunFunctionalSim(hw, code->groups[0].words, dram, &counters);
  REQUIRE_MESSAGE(run.ok(), run.ToString());
  Expected<HostTensor> got = ReadActivation(*code->Find(last), graph.tensor(last).shape, dram);
  REQUIRE(got.ok());
  CHECK(Values(*got) == Values(expected->front()));
  CHECK(code->groups[0].estimated_cycles > 0);
}

DType Format(std::mt19937& rng) {
  const DType formats[] = {DType::kI8, DType::kU8, DType::kI16};
  return formats[std::uniform_int_distribution<int>(0, 2)(rng)];
}

Case RandomCase(std::mt19937& rng, bool depthwise_ok, int64_t max_kernel) {
  auto pick = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  Case c;
  const int64_t kind = pick(0, depthwise_ok ? 5 : 4);
  c.op = kind == 5   ? OpKind::kDepthwiseConv2D
         : kind == 4 ? OpKind::kFullyConnected
                     : OpKind::kConv2D;
  c.h = pick(1, 20);
  c.w = pick(1, 20);
  c.ci = pick(1, 20);
  c.co = pick(1, 20);
  const int64_t kernels[] = {1, 2, 3, 5, 7};
  c.k = std::min(kernels[pick(0, 4)], max_kernel);
  c.stride = pick(1, 2);
  c.same = pick(0, 1) == 1 || c.h < c.k || c.w < c.k;
  c.multiplier = pick(1, 2);
  c.in = Format(rng);
  c.out = Format(rng);
  const char* acts[] = {"none", "relu", "relu6", "relu_n1_to_1", "prelu"};
  // The partitioner takes inner products without a fused activation
  // (CanonicalizeActivation makes it a node): one compare stage may follow.
  c.f_in = static_cast<int>(pick(0, c.in == DType::kI16 ? 12 : 7));
  c.f_out = static_cast<int>(pick(-2, c.out == DType::kI16 ? 14 : 7));
  if (pick(0, 2) == 0) {
    c.residual = true;
    c.res_format = pick(0, 1) ? DType::kU8 : DType::kI8;
    c.sum_format = Format(rng);
    c.f_res = static_cast<int>(pick(-2, 7));
    c.f_sum = static_cast<int>(pick(-2, c.sum_format == DType::kI16 ? 14 : 7));
  }
  if (pick(0, 2) == 0) {
    c.after = acts[pick(1, 4)];
    c.after_format = Format(rng);
    c.f_after = static_cast<int>(pick(-2, c.after_format == DType::kI16 ? 14 : 7));
  }
  return c;
}

TEST_CASE("codegen + fsim equal the integer reference on random groups, tiny") {
  const HwConfig hw = *HwConfigPreset("tiny");
  std::mt19937 rng(20261125);
  for (int i = 0; i < 150; ++i) RunCase(RandomCase(rng, false, hw.ipa.max_kernel), hw, rng);
}

TEST_CASE("codegen + fsim equal the integer reference on random groups, opu1024") {
  const HwConfig hw = *HwConfigPreset("opu1024");
  std::mt19937 rng(7);
  for (int i = 0; i < 80; ++i) RunCase(RandomCase(rng, true, hw.ipa.max_kernel), hw, rng);
}

TEST_CASE("wide channels: several input and output blocks, weight chunks, many tiles") {
  const HwConfig tiny = *HwConfigPreset("tiny");
  std::mt19937 rng(3);
  Case c;
  c.h = c.w = 23;
  c.ci = 37;  // 5 blocks of 8
  c.co = 13;  // 4 blocks of 4
  c.k = 7;    // 49 taps x 5 blocks = 245 weight rows: two chunks of 128
  c.in = DType::kI16;
  c.out = DType::kU8;
  c.after = "relu6";
  c.after_format = DType::kU8;
  RunCase(c, tiny, rng);
  const HwConfig opu = *HwConfigPreset("opu1024");
  c.ci = 130;
  c.co = 70;
  c.k = 3;
  c.h = c.w = 40;
  c.in = DType::kU8;
  c.out = DType::kI16;
  c.after = nullptr;
  RunCase(c, opu, rng);
}

}  // namespace
}  // namespace opuc
