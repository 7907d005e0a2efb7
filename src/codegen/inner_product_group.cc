//===- src/codegen/inner_product_group.cc - Reading a group -----------===//
#include "inner_product_group.h"

#include <algorithm>
#include <vector>

#include "group_reader.h"
#include "opuc/ir/conv_geometry.h"
#include "opuc/ir/macs.h"
#include "opuc/numerics/fixed_point.h"
#include "support/format.h"

namespace opuc::codegen {
namespace {

// The zero pad of H and W a pad node folds into the loads.
Status FoldPad(const Graph& graph, const HwPartition& p, NodeId id, InnerProductGroup& g) {
  const Node& pad = graph.node(id);
  const auto a = PadAttrs::Of(pad.attrs);
  const TensorId in = pad.inputs[0], out = pad.outputs[0];
  if (a.pads.size() != 8 || a.pads[0] || a.pads[1] || a.pads[6] || a.pads[7] || a.value != 0.0)
    return NotYet(graph, p, id, "only a zero pad of H and W folds into the loads");
  if (graph.tensor(in).dtype != graph.tensor(out).dtype ||
      !(graph.tensor(in).fixed_point == graph.tensor(out).fixed_point))
    return NotYet(graph, p, id, "a pad that changes the format or fraction length");
  g.input = in;
  g.output = out;
  g.pad_top = a.pads[2];
  g.pad_left = a.pads[4];
  return OkStatus();
}

// A group without an inner product runs its stages behind an identity pass
// through the array: a 1x1 depthwise product with weight 1, bias 0 and
// shift 0 brings the input (padded, after a folded pad) into the
// accumulator unchanged, one array cycle a pixel and output block.
Status ReadIdentity(const Graph& graph, const HwPartition& p, NodeId first, InnerProductGroup& g) {
  if (g.input == kNoTensor) {  // the first op's value operand (not a constant one)
    const std::vector<TensorId>& in = graph.node(first).inputs;
    g.input = g.output = in.size() > 1 && graph.tensor(in[0]).is_constant() ? in[1] : in[0];
  }
  const Tensor& in = graph.tensor(g.input);
  const Shape& out = graph.tensor(g.output).shape;
  if (in.shape.size() != 4 || in.shape[0] != 1)
    return NotYet(graph, p, first,
                  "a group without an inner product on a value that is not 1xHxWxC");
  OPUC_RETURN_IF_ERROR(Fraction(graph, g.input).status());
  g.identity = g.depthwise = true;
  g.op = OpKind::kDepthwiseConv2D;
  g.node = first;
  g.what = Cat("the identity pass before ", What(graph, first));
  g.in_h = in.shape[1];
  g.in_w = in.shape[2];
  g.in_c = g.out_c = in.shape[3];
  g.out_h = out[1];
  g.out_w = out[2];
  g.in_format = g.out_format = in.dtype;
  g.bias.assign(static_cast<size_t>(g.out_c), 0);
  g.shift.assign(static_cast<size_t>(g.out_c), 0);
  const IntegerBounds b = QuantizedBounds(in.dtype);
  g.lo = b.lo;
  g.hi = b.hi;
  return OkStatus();
}

// transpose_conv2d as a stride-1 convolution over the zero-inserted input
// (reference/transpose_conv2d.cc's scatter, gathered): output row y sums
// input row r at tap ky where y = r·s − pad + ky, so with D the input
// spread s apart, y reads D at y + pad − ky: the turned kernel's tap
// kh − 1 − ky over D padded by kh − 1 − pad before.
Status ReadTransposed(const Graph& graph, const HwPartition& p, NodeId id, InnerProductGroup& g) {
  const Node& n = graph.node(id);
  const Shape& xs = graph.tensor(n.inputs[0]).shape;
  const Shape& ys = graph.tensor(n.outputs[0]).shape;
  const Shape& ws = graph.tensor(n.inputs[1]).shape;
  if (xs.size() != 4 || xs[0] != 1) return NotYet(graph, p, id, "a batch of more than one image");
  if (g.pad_top != 0 || g.pad_left != 0 || !g.pieces.empty())
    return NotYet(graph, p, id, "a pad or concat before a transposed convolution");
  const Pair strides = TransposeConv2DAttrs::Of(n.attrs).strides;
  // The forward convolution's window, from the output (its input) to xs.
  const WindowGeometry win = WindowOf(strides, Pair{1, 1}, ys, xs, ws[1], ws[2]);
  if (win.h.pad_before > ws[1] - 1 || win.w.pad_before > ws[2] - 1)
    return NotYet(graph, p, id, "an output cropped by more than the kernel");
  if (strides[0] > 4 || strides[1] > 4)
    return NotYet(graph, p, id, "a stride above 4: Load.zeros_y and zeros_x reach 3");
  // A window's zero rows before its first input row: the padding, and the
  // zeros between when it starts between two input rows.
  if (ws[1] + strides[0] - 2 > 15 || ws[2] + strides[1] - 2 > 15)
    return NotYet(graph, p, id,
                  Cat("a ", ws[1], "x", ws[2], " kernel every ", strides[0], "x", strides[1],
                      ": its zero rows pass Load's pads, which reach 15"));
  g.kh = ws[1];
  g.kw = ws[2];
  g.gap_y = strides[0];
  g.gap_x = strides[1];
  g.in_h = (xs[1] - 1) * g.gap_y + 1;
  g.in_w = (xs[2] - 1) * g.gap_x + 1;
  g.in_c = xs[3];
  g.out_h = ys[1];
  g.out_w = ys[2];
  g.out_c = ys[3];
  g.pad_top = g.kh - 1 - win.h.pad_before;
  g.pad_left = g.kw - 1 - win.w.pad_before;
  return OkStatus();
}

Status ReadInnerProduct(const Graph& graph, const HwPartition& p, NodeId id, InnerProductGroup& g) {
  const Node& n = graph.node(id);
  g.node = id;
  g.op = n.op;
  g.what = What(graph, id);
  if (g.input == kNoTensor) g.input = n.inputs[0];
  const Tensor& x = graph.tensor(n.inputs[0]);
  const Tensor& w = graph.tensor(n.inputs[1]);
  const Tensor& y = graph.tensor(n.outputs[0]);
  if (!w.is_constant() || w.dtype != DType::kI8 || w.sparsity)
    return NotYet(graph, p, id, "weights that are not a dense i8 constant");
  g.weights = reinterpret_cast<const int8_t*>(w.constant->data());
  g.weight_shape = w.shape;
  g.in_format = graph.tensor(g.input).dtype;
  const Shape& xs = x.shape;
  const Shape& ys = y.shape;
  if (n.op == OpKind::kFullyConnected) {
    g.in_c = w.shape[1];
    g.out_c = w.shape[0];
    g.in_w = g.out_w = NumElements(xs).value_or(0) / g.in_c;
  } else if (n.op == OpKind::kTransposeConv2D) {
    OPUC_RETURN_IF_ERROR(ReadTransposed(graph, p, id, g));
  } else {
    if (xs.size() != 4 || xs[0] != 1) return NotYet(graph, p, id, "a batch of more than one image");
    const WindowSteps steps = WindowStepsOf(n.op, n.attrs);
    const WindowGeometry win =
        WindowOf(steps.strides, steps.dilations, xs, ys, w.shape[1], w.shape[2]);
    g.kh = w.shape[1];
    g.kw = w.shape[2];
    g.sy = win.h.stride;
    g.sx = win.w.stride;
    g.dy = win.h.dilation;
    g.dx = win.w.dilation;
    g.in_h = graph.tensor(g.input).shape[1];
    g.in_w = graph.tensor(g.input).shape[2];
    g.in_c = xs[3];
    g.out_h = ys[1];
    g.out_w = ys[2];
    g.out_c = ys[3];
    g.pad_top += win.h.pad_before;
    g.pad_left += win.w.pad_before;
    if (n.op == OpKind::kDepthwiseConv2D) {
      g.depthwise = true;
      g.multiplier = DepthwiseConv2DAttrs::Of(n.attrs).depth_multiplier;
    }
  }
  OPUC_ASSIGN_OR_RETURN(int f_in, Fraction(graph, n.inputs[0]));
  OPUC_ASSIGN_OR_RETURN(int f_out, Fraction(graph, n.outputs[0]));
  const FixedPoint& fw = w.fixed_point;
  if (fw.fraction_bits.empty())
    return InvalidArgument(Cat(g.what, ": weights have no fixed point"));
  const std::vector<int32_t>& fb = fw.fraction_bits;
  g.bias.assign(static_cast<size_t>(g.out_c), 0);
  g.shift.resize(static_cast<size_t>(g.out_c));
  for (int64_t o = 0; o < g.out_c; ++o)
    g.shift[static_cast<size_t>(o)] =
        f_in + fb[fb.size() == 1 ? 0 : static_cast<size_t>(o)] - f_out;
  if (n.inputs.size() > 2 && n.inputs[2] != kNoTensor) {
    const Tensor& b = graph.tensor(n.inputs[2]);
    if (!b.is_constant() || b.dtype != DType::kI32)
      return NotYet(graph, p, id, "a bias that is not an i32 constant");
    const auto* values = reinterpret_cast<const int32_t*>(b.constant->data());
    g.bias.assign(values, values + g.out_c);
  }
  OPUC_ASSIGN_OR_RETURN(auto range, Range(FusedActivation(n.attrs), f_out, y.dtype, g.what));
  g.lo = range.first;
  g.hi = range.second;
  g.output = n.outputs[0];
  g.out_format = y.dtype;
  return OkStatus();
}

}  // namespace

int8_t InnerProductGroup::Weight(int64_t o, int64_t ky, int64_t kx, int64_t i) const {
  if (pairs && op != OpKind::kDepthwiseConv2D) {
    // Row o of block b makes channel half·b + o mod half of the pair's
    // pixel (o mod Co) / half, whose window starts sx·pixel columns into
    // the folded pixel's span of taps.
    const PixelPairs& p = *pairs;
    const int64_t co = 2 * p.half, r = o % co, pixel = r / p.half;
    const int64_t channel = p.half * (o / co) + r % p.half;
    const int64_t span = p.kw + p.sx, tap = i / p.in_c, c = i % p.in_c;
    const int64_t tap_y = tap / span, tap_x = tap % span - p.sx * pixel;
    if (channel >= p.out_c || tap_x < 0 || tap_x >= p.kw) return 0;
    return weights[((channel * p.kh + tap_y) * p.kw + tap_x) * p.in_c + c];
  }
  if (packed) {
    // Lane i holds channel c of the packed input pixel's pixel `sub`; row
    // o makes the packed output pixel's pixel o. Their distance picks the
    // original tap, if any.
    const PackedRows& p = *packed;
    const int64_t granule = in_c / p.in_pack, sub = i / granule, c = i % granule;
    if (c >= p.in_c) return 0;
    if (op == OpKind::kTransposeConv2D) {
      // As phases (kernel = stride = p.kw): row o is output pixel o of the
      // entry, of input pixel o / s at tap o % s, in the phase row ky
      // takes (turned, as phases.h stores it).
      const int64_t s = p.kw;
      if (p.in_pack * kx + sub != o / s) return 0;
      return weights[((kh - 1 - ky) * s + o % s) * p.in_c + c];
    }
    // Packed rows: row o makes output pixel o of the entry, of the one
    // channel. Packed pixels: output block k is pixel k, row j channel j.
    const int64_t co = out_c / p.in_pack;
    const int64_t pixel = p.out_pack > 1 ? o : o / co, channel = p.out_pack > 1 ? 0 : o % co;
    const int64_t tap = p.in_pack * (kx - pad_left) + sub - pixel + p.pad_left;
    if (channel >= p.out_c || tap < 0 || tap >= p.kw) return 0;
    if (identity) return channel == c ? 1 : 0;
    return weights[((channel * kh + ky) * p.kw + tap) * p.in_c + c];
  }
  if (diagonal && i != o / multiplier) return 0;
  if (identity) return 1;
  switch (op) {
    case OpKind::kConv2D: return weights[((o * kh + ky) * kw + kx) * in_c + i];
    case OpKind::kDepthwiseConv2D: return weights[(ky * kw + kx) * out_c + o];
    case OpKind::kTransposeConv2D:
      return weights[((o * kh + (kh - 1 - ky)) * kw + (kw - 1 - kx)) * in_c + i];
    default: return weights[o * in_c + i];
  }
}

Expected<InnerProductGroup> DescribeGroup(const Graph& graph, const HwPartition& partition,
                                          const HwGroup& group) {
  InnerProductGroup g;
  g.group = group.id;
  // A collected op is a residual's channel pad (ReadResidual reads through
  // it) or a constant the stages would read from DRAM; the rest run in order.
  std::vector<NodeId> ops, pads;
  for (NodeId id : group.ops) {
    if (partition.nodes[static_cast<size_t>(id)].placement != Placement::kCollected)
      ops.push_back(id);
    else if (graph.node(id).op == OpKind::kPad)
      pads.push_back(id);
    else
      return NotYet(graph, partition, id, "collected constants do not compile yet");
  }
  size_t k = 0;
  if (k < ops.size() && graph.node(ops[k]).op == OpKind::kConcat)
    OPUC_RETURN_IF_ERROR(ReadConcat(graph, partition, ops[k++], g));
  if (k < ops.size() && graph.node(ops[k]).op == OpKind::kPad)
    OPUC_RETURN_IF_ERROR(FoldPad(graph, partition, ops[k++], g));
  if (k < ops.size() && IsInnerProduct(graph.node(ops[k]).op))
    OPUC_RETURN_IF_ERROR(ReadInnerProduct(graph, partition, ops[k++], g));
  else
    OPUC_RETURN_IF_ERROR(ReadIdentity(graph, partition, ops[k < ops.size() ? k : 0], g));
  for (; k < ops.size(); ++k) {
    const OpKind op = graph.node(ops[k]).op;
    if (g.upsampled != kNoTensor)
      return NotYet(graph, partition, ops[k], "an op after the upsample");
    if (op == OpKind::kResizeNearest)
      OPUC_RETURN_IF_ERROR(ReadUpsample(graph, partition, group, ops[k], g));
    else if (g.pool)
      return NotYet(graph, partition, ops[k], "an op after the pool");
    else if (op == OpKind::kMaxPool2D || op == OpKind::kAvgPool2D || op == OpKind::kMean)
      OPUC_RETURN_IF_ERROR(ReadPool(graph, partition, ops[k], g));
    else if (op == OpKind::kAdd || op == OpKind::kSub || op == OpKind::kMul)
      OPUC_RETURN_IF_ERROR(ReadResidual(graph, partition, group, ops[k], g));
    else if (IsInnerProduct(op))
      return NotYet(graph, partition, ops[k],
                    "an inner product after another stage: the HwConfig's HDFG has a pre-adder or "
                    "pre-multiplier, which no instruction runs (the presets leave them out: the "
                    "op then takes a pass of its own)");
    else if (op == OpKind::kPRelu)
      OPUC_RETURN_IF_ERROR(ReadPRelu(graph, partition, ops[k], g));
    else if (op == OpKind::kLookupTable)
      OPUC_RETURN_IF_ERROR(ReadTable(graph, partition, ops[k], g));
    else
      OPUC_RETURN_IF_ERROR(ReadClamp(graph, partition, ops[k], g));
  }
  for (NodeId pad : pads) {
    const auto its = [&](const ResidualStep& r) { return graph.node(pad).inputs[0] == r.tensor; };
    if (std::none_of(g.residuals.begin(), g.residuals.end(), its))
      return NotYet(graph, partition, pad, "a channel pad that is not a residual's");
  }
  // What leaves the group: its last value, and the values before a pool or
  // an upsample when other groups read them (all come from one tile).
  const TensorId last = g.upsampled != kNoTensor ? g.upsampled : g.pool ? g.pool->tensor : g.output;
  const auto& outs = group.outputs;
  const auto leaves = [&](TensorId t) {
    return std::find(outs.begin(), outs.end(), t) != outs.end();
  };
  g.store_output = g.output == last || leaves(g.output);
  g.store_pool = g.pool && (g.pool->tensor == last || leaves(g.pool->tensor));
  for (TensorId t : outs)
    if (t != last && t != g.output && !(g.pool && t == g.pool->tensor))
      return NotYet(graph, partition, group.ops.back(),
                    "a group that stores a value besides its last (a tap) does not compile yet");
  if (std::find(outs.begin(), outs.end(), last) == outs.end())
    return NotYet(graph, partition, group.ops.back(), "a group whose last value stays inside");
  return g;
}

}  // namespace opuc::codegen
