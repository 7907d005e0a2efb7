// Building, running and comparing one case of codegen_diff_test.cc.
#include "codegen_case.h"
#ifdef OPUC_ALSO_RTL
#include "rtl_check.h"
#endif

#include <doctest/doctest.h>

#include <variant>

#include "opuc/codegen/codegen.h"
#include "opuc/cpu_reference/reference.h"
#include "opuc/fsim/fsim.h"
#include "opuc/ir/graph_builder.h"
#include "opuc/isa/isa.h"
#include "opuc/partition/hw_partition.h"

namespace opuc::codegen_test {
namespace {

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

// The case's inner product of x, with random weights and biases.
TensorId InnerProduct(GraphBuilder& b, const Case& c, TensorId x, int64_t out_c,
                      std::mt19937& rng) {
  const bool fc = c.op == OpKind::kFullyConnected;
  Shape w_shape;
  if (c.op == OpKind::kConv2D || c.op == OpKind::kTransposeConv2D) w_shape = {c.co, c.k, c.k, c.ci};
  if (c.op == OpKind::kDepthwiseConv2D) w_shape = {1, c.k, c.k, c.ci * c.multiplier};
  if (fc) w_shape = {c.co, c.ci};
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
  if (c.dilation > 1)
    attrs.Set("dilations", AttrValue(std::vector<int64_t>{c.dilation, c.dilation}));
  if (c.op == OpKind::kTransposeConv2D)
    attrs.Set("output_shape", AttrValue(ConvOutShape(c, out_c)));
  return b.Op(c.op, "ip", {x, w, bt}, attrs);
}

// Without an inner product: x, or x with c.pad zero rows and columns around.
TensorId Padded(GraphBuilder& b, const Case& c, TensorId x) {
  if (c.pad == 0) return x;
  Attributes pad;
  pad.Set("pads", AttrValue(std::vector<int64_t>{0, 0, c.pad, c.pad, c.pad, c.pad, 0, 0}));
  return b.Op(OpKind::kPad, "pad", {x}, pad);
}

}  // namespace

Shape ConvOutShape(const Case& c, int64_t out_c) {
  if (c.identity) return {1, c.h + 2 * c.pad, c.w + 2 * c.pad, out_c};
  auto side = [&](int64_t n) {
    if (c.op == OpKind::kTransposeConv2D)  // the convolution's input, as TFLite's SAME and VALID
      return c.same ? n * c.stride : (n - 1) * c.stride + std::max(c.k, c.stride);
    return c.same ? (n + c.stride - 1) / c.stride : (n - (c.k - 1) * c.dilation - 1) / c.stride + 1;
  };
  return {1, side(c.h), side(c.w), out_c};
}

CaseRun RunCase(const Case& c, const HwConfig& hw, std::mt19937& rng) {
  CAPTURE(Describe(c));
  CAPTURE(hw.name);
  GraphBuilder b("case");
  const bool fc = c.op == OpKind::kFullyConnected && !c.identity;
  const Shape in_shape = fc ? Shape{c.h, c.ci} : Shape{1, c.h, c.w, c.ci};
  std::vector<TensorId> pieces;
  for (size_t k = 0; k < c.pieces.size(); ++k)
    pieces.push_back(b.Input("x" + std::to_string(k), c.in, {1, c.h, c.w, c.pieces[k]}));
  Attributes channels;
  channels.Set("axis", AttrValue(int64_t{3}));
  const TensorId x = c.pieces.empty() ? b.Input("x", c.in, in_shape)
                                      : b.Op(OpKind::kConcat, "cat", pieces, channels);
  const int64_t out_c = c.identity                         ? c.ci
                        : c.op == OpKind::kDepthwiseConv2D ? c.ci * c.multiplier
                                                           : c.co;
  const TensorId y = c.identity ? Padded(b, c, x) : InnerProduct(b, c, x, out_c, rng);
  TensorId last = y;
  TensorId constant = kNoTensor, channel = kNoTensor;
  if (c.channel) {
    // Random values of the constant's format, one per channel or one.
    const int64_t n = c.channel_scalar ? 1 : out_c;
    const HostTensor values = RandomInput(c.channel_constant, {n}, rng);
    constant = b.Constant("c", c.channel_constant, c.channel_scalar ? Shape{1} : Shape{n},
                          ConstantData::Copy(values.raw(), values.bytes()));
    last = channel = b.Op(c.channel_op, "channel", {y, constant});
  }
  TensorId res = kNoTensor, padded = kNoTensor, sum = kNoTensor;
  if (c.residual) {
    res = b.Input(
        "res", c.res_format,
        fc ? Shape{c.h, c.co} : ConvOutShape(c, c.res_channels > 0 ? c.res_channels : out_c));
    TensorId operand = res;
    if (c.res_channels > 0) {
      Attributes pad;
      pad.Set("pads", AttrValue(std::vector<int64_t>{0, 0, 0, 0, 0, 0, 0, out_c - c.res_channels}));
      padded = operand = b.Op(OpKind::kPad, "channel_pad", {res}, pad);
    }
    sum = last = b.Op(OpKind::kAdd, "add", {last, operand});
  }
  TensorId alpha = kNoTensor, table = kNoTensor, table_input = kNoTensor;
  if (c.after && std::string(c.after) == "prelu") {
    // One slope per channel (or one for all), i8 at its own fraction length.
    const int64_t n = std::uniform_int_distribution<int>(0, 1)(rng) ? out_c : 1;
    std::vector<int8_t> slopes(static_cast<size_t>(n));
    std::uniform_int_distribution<int> wd(-127, 127);
    for (int8_t& v : slopes) v = static_cast<int8_t>(wd(rng));
    alpha = b.Constant("alpha", DType::kI8, n == 1 || fc ? Shape{n} : Shape{1, 1, n},
                       ConstantData::Copy(slopes.data(), slopes.size()));
    last = b.Op(OpKind::kPRelu, "act", {last, alpha});
  } else if (c.after && std::string(c.after) == "table") {
    // Its entries come once the formats are set (below); its length follows
    // the input's type, inferred for now.
    const int64_t n = b.graph().tensor(last).dtype == DType::kI16 ? 257 : 256;
    const std::vector<uint8_t> zeros(514, 0);
    table = b.Constant(
        "table", c.after_format, {n},
        ConstantData::Copy(zeros.data(), static_cast<size_t>(n) * DTypeSize(c.after_format)));
    table_input = last;
    last = b.Op(OpKind::kLookupTable, "act", {last, table});
  } else if (c.after) {
    OpKind op = OpKind::kRelu;
    if (std::string(c.after) == "relu6") op = OpKind::kRelu6;
    if (std::string(c.after) == "relu_n1_to_1") op = OpKind::kReluN1To1;
    last = b.Op(op, "act", {last});
  }
  const TensorId act = last;
  TensorId res2 = kNoTensor, sum2 = kNoTensor;
  if (c.residual2) {
    res2 = b.Input("res2", c.res2_format, fc ? Shape{c.h, c.co} : ConvOutShape(c, out_c));
    sum2 = last = b.Op(OpKind::kAdd, "add2", {last, res2});
  }
  TensorId pooled = kNoTensor;
  if (c.pool) {
    Attributes pool;
    const Shape& map = b.graph().tensor(last).shape;
    if (c.pool_op == OpKind::kMean) {
      pool.Set("axes", AttrValue(std::vector<int64_t>{1, 2}));
      pool.Set("keep_dims", AttrValue(c.keep_dims));
    } else {
      const std::vector<int64_t> window = c.pool_global ? std::vector<int64_t>{map[1], map[2]}
                                                        : std::vector<int64_t>{c.pool_k, c.pool_k};
      const std::vector<int64_t> strides =
          c.pool_global ? window : std::vector<int64_t>{c.pool_s, c.pool_s};
      pool.Set("filter", AttrValue(window));
      pool.Set("strides", AttrValue(strides));
      pool.Set("padding", AttrValue(std::string(c.pool_same && !c.pool_global ? "same" : "valid")));
    }
    pooled = b.Op(c.pool_op, "pool", {last}, pool);
  }
  const TensorId before_up = c.pool ? pooled : last;
  TensorId upsampled = kNoTensor;
  if (c.upsample) {
    const Shape& map = b.graph().tensor(before_up).shape;
    Attributes size;
    size.Set("size", AttrValue(std::vector<int64_t>{2 * map[1], 2 * map[2]}));
    upsampled = b.Op(OpKind::kResizeNearest, "up", {before_up}, size);
    b.Output(upsampled);
    if (c.keep_tap) b.Output(before_up);
  } else {
    if (c.pool) b.Output(pooled);
    if (!c.pool || c.keep_tap) b.Output(last);
  }
  Expected<Graph> built = std::move(b).Finish();
  REQUIRE_MESSAGE(built.ok(), built.status().ToString());
  Graph& graph = *built;
  graph.tensor(x).fixed_point = {{c.f_in}, -1};
  for (TensorId piece : pieces) graph.tensor(piece).fixed_point = {{c.f_in}, -1};
  std::uniform_int_distribution<int32_t> fd(3, 9);
  if (!c.identity) {
    std::vector<int32_t> f_w;
    for (int64_t o = 0; o < out_c; ++o) f_w.push_back(fd(rng));
    for (const Node& n : graph.nodes)
      if (n.outputs[0] == y)
        graph.tensor(n.inputs[1]).fixed_point = {f_w, c.op == OpKind::kDepthwiseConv2D ? 3 : 0};
    graph.tensor(y).fixed_point = {{c.f_out}, -1};
    graph.tensor(y).dtype = c.out;
  } else if (y != x) {  // a pad keeps the format
    graph.tensor(y).fixed_point = {{c.f_in}, -1};
  }
  if (channel != kNoTensor) {
    graph.tensor(constant).fixed_point = {{c.f_constant}, -1};
    graph.tensor(channel).fixed_point = {{c.f_channel}, -1};
    graph.tensor(channel).dtype = c.channel_format;
  }
  if (c.residual) {
    graph.tensor(res).fixed_point = {{c.f_res}, -1};
    if (padded != kNoTensor) {
      graph.tensor(padded).fixed_point = {{c.f_res}, -1};
      graph.tensor(padded).dtype = c.res_format;
    }
    graph.tensor(sum).fixed_point = {{c.f_sum}, -1};
    graph.tensor(sum).dtype = c.sum_format;
  }
  if (alpha != kNoTensor) graph.tensor(alpha).fixed_point = {{fd(rng) - 3}, -1};
  if (c.after) {
    graph.tensor(act).fixed_point = {{c.f_after}, -1};
    graph.tensor(act).dtype = c.after_format;
  }

  if (table != kNoTensor) {
    // Random entries in the output's format: 256, or 257 knots for an i16.
    const IntegerBounds bounds = QuantizedBounds(c.after_format);
    std::uniform_int_distribution<int64_t> ed(bounds.lo, bounds.hi);
    const int64_t n = graph.tensor(table_input).dtype == DType::kI16 ? 257 : 256;
    HostTensor entries = HostTensor::Zeros(c.after_format, {n}).value();
    for (int64_t k = 0; k < n; ++k) {
      const int64_t v = ed(rng);
      if (c.after_format == DType::kI16)
        entries.data<int16_t>()[k] = static_cast<int16_t>(v);
      else if (c.after_format == DType::kU8)
        entries.data<uint8_t>()[k] = static_cast<uint8_t>(v);
      else
        entries.data<int8_t>()[k] = static_cast<int8_t>(v);
    }
    graph.tensor(table).shape = {n};
    graph.tensor(table).constant = ConstantData::Copy(entries.raw(), entries.bytes());
  }
  if (c.residual2) {
    graph.tensor(res2).fixed_point = {{c.f_res2}, -1};
    graph.tensor(sum2).fixed_point = {{c.f_sum2}, -1};
    graph.tensor(sum2).dtype = c.sum2_format;
  }
  if (c.pool) {
    graph.tensor(pooled).fixed_point = {{c.f_pool}, -1};
    graph.tensor(pooled).dtype = c.pool_format;
  }
  if (c.upsample) {
    graph.tensor(upsampled).fixed_point = {{c.f_up}, -1};
    graph.tensor(upsampled).dtype = c.up_format;
  }

  std::vector<HostTensor> inputs;
  for (TensorId piece : pieces) inputs.push_back(RandomInput(c.in, graph.tensor(piece).shape, rng));
  if (pieces.empty()) inputs.push_back(RandomInput(c.in, in_shape, rng));
  const size_t first_residual = inputs.size();
  if (c.residual) inputs.push_back(RandomInput(c.res_format, graph.tensor(res).shape, rng));
  if (c.residual2) inputs.push_back(RandomInput(c.res2_format, graph.tensor(res2).shape, rng));
  Expected<std::vector<HostTensor>> expected = RunReference(graph, inputs);
  REQUIRE_MESSAGE(expected.ok(), expected.status().ToString());

  Expected<HwPartition> partition = PartitionForHardware(graph, hw);
  REQUIRE_MESSAGE(partition.ok(), partition.status().ToString());
  std::string reasons;
  for (const HwGroup& g : partition->groups)
    reasons += ReasonText(graph, *partition, g.reason) + "; ";
  CAPTURE(reasons);
  REQUIRE(partition->groups.size() == 1);
  REQUIRE(partition->groups[0].kind == GroupKind::kOpu);
  PlanOptions options;
  options.fold_inputs = c.fold;
  options.compact_pixels = c.compact;
  options.post_slices = c.post_slices;
  options.acc_regions = c.acc_regions;
  options.store_blocks = c.store_blocks;
  options.unit_slots = c.unit_slots;
  options.tapered_tiles = c.tapered_tiles;
  options.fm_slots = c.fm_slots;
  options.store_depth = c.store_depth;
  options.whole_i16 = c.whole_i16;
  Expected<StepPlan> code = PlanSteps(graph, *partition, hw, options);
  REQUIRE_MESSAGE(code.ok(), code.status().ToString());
  REQUIRE(code->steps.size() == 1);
  REQUIRE_MESSAGE(code->steps[0].kind == StepKind::kOpu, code->steps[0].reason);
  CAPTURE(code->steps[0].tiling);

  std::vector<uint8_t> dram = code->DramImage();
  for (size_t k = 0; k < pieces.size(); ++k)
    REQUIRE(WriteActivation(*code->Find(pieces[k]), inputs[k], dram).ok());
  if (pieces.empty()) REQUIRE(WriteActivation(*code->Find(x), inputs[0], dram).ok());
  if (c.residual) REQUIRE(WriteActivation(*code->Find(res), inputs[first_residual], dram).ok());
  if (c.residual2) REQUIRE(WriteActivation(*code->Find(res2), inputs.back(), dram).ok());
  OpuCounters counters;
  [[maybe_unused]] const std::vector<uint8_t> before = dram;
  const Status run = RunFunctionalSim(hw, code->steps[0].words, dram, &counters);
  REQUIRE_MESSAGE(run.ok(), run.ToString());
#ifdef OPUC_ALSO_RTL
  rtl_test::RequireRtlMatches(hw, code->steps[0].words, before, dram, counters);
#endif
  for (size_t o = 0; o < graph.outputs.size(); ++o) {
    const TensorId t = graph.outputs[o];
    CAPTURE(graph.tensor(t).name);
    REQUIRE(code->Find(t) != nullptr);
    Expected<HostTensor> got = ReadActivation(*code->Find(t), graph.tensor(t).shape, dram);
    REQUIRE(got.ok());
    CHECK(Values(*got) == Values((*expected)[o]));
  }
  CHECK(code->steps[0].estimated_cycles > 0);
  CaseRun ran{code->steps[0].words, pieces.empty() && code->Find(x)->fold.has_value()};
  ran.sliced = code->steps[0].tiling.find(" slices") != std::string::npos;
  ran.quartered = code->steps[0].tiling.find("4 accumulator regions") != std::string::npos;
  ran.quartered_pool = ran.quartered && c.pool && !c.pool_global;
  ran.resident = code->steps[0].tiling.find("weights resident") != std::string::npos;
  for (const int64_t deep : {3, 4})
    if (code->steps[0].tiling.find(", units " + std::to_string(deep) + " deep") !=
        std::string::npos)
      ran.slots = deep;
  CHECK(ran.slots <= std::max<int64_t>(2, c.unit_slots));
  ran.store_blocks = code->steps[0].tiling.find(" blocks a store") != std::string::npos;
  ran.phased = code->steps[0].tiling.find(" phases") != std::string::npos;
  ran.packed = code->steps[0].tiling.find("rows packed") != std::string::npos;
  ran.pixels_packed = code->steps[0].tiling.find("pixels packed") != std::string::npos;
  ran.tapered = code->steps[0].tiling.find("(the first ") != std::string::npos;
  ran.fm_quarters = code->steps[0].tiling.find("windows 4 deep") != std::string::npos;
  ran.store_groups_deep = code->steps[0].tiling.find("store groups 4 deep") != std::string::npos;
  ran.whole_i16 = code->steps[0].tiling.find("i16 read whole") != std::string::npos;
  ran.paired = code->steps[0].tiling.find("two pixels an entry") != std::string::npos;
  int run_of_loads = 0;
  bool framed_before = false;
  for (const isa::Word& word : ran.words) {
    Expected<isa::Instruction> insn = isa::Decode(word);
    REQUIRE(insn.ok());
    const auto* load = std::get_if<isa::LoadInsn>(&*insn);
    if (!load) {
      run_of_loads = 0;
      framed_before = false;
      continue;
    }
    ran.load_chains += ++run_of_loads == 3;
    ran.after_framed_load += framed_before;
    framed_before = load->granules != 0 ||
                    load->pad_top + load->pad_bottom + load->pad_left + load->pad_right > 0;
  }
  for (const ActivationLayout& a : code->activations) {
    const int64_t block = a.blocks() - 1;
    if (a.granule == 0 || a.PixelBytes(block) == a.lanes) continue;
    (((a.channels - block * a.lanes) % a.granule == 0) ? ran.compact_on_granule
                                                       : ran.compact_off_granule)++;
  }
  return ran;
}

}  // namespace opuc::codegen_test
