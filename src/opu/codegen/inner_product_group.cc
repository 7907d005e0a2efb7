//===- src/opu/codegen/inner_product_group.cc - Reading a group -----------===//
#include "inner_product_group.h"

#include <algorithm>

#include "opuc/ir/conv_geometry.h"
#include "opuc/ir/op_attrs.h"
#include "opuc/numerics/fixed_point.h"
#include "support/format.h"

namespace opuc::codegen {
namespace {

std::string What(const Graph& graph, NodeId id) {
  const Node& n = graph.node(id);
  return Cat("node ", id, " '", n.name, "' (", OpName(n.op), ")");
}

Status NotYet(const Graph& graph, const HwPartition& p, NodeId id, std::string_view why) {
  const NodePlacement& place = p.nodes[static_cast<size_t>(id)];
  const std::string stage =
      place.stage >= 0 ? p.stages[static_cast<size_t>(place.stage)] : std::string("collected");
  return Unsupported(Cat(What(graph, id), " on stage ", stage, ": ", why));
}

Expected<int> Fraction(const Graph& graph, TensorId t) {
  const Tensor& tensor = graph.tensor(t);
  if (tensor.fixed_point.fraction_bits.size() != 1 || !IsQuantizedFormat(tensor.dtype))
    return InvalidArgument(
        Cat("tensor ", t, " '", tensor.name,
            "' has no per-tensor fixed point in i8, u8 or i16 (quantize the model)"));
  return tensor.fixed_point.fraction_bits[0];
}

// numerics.md §3: the format's range narrowed by a clamp activation at f.
Expected<std::pair<int64_t, int64_t>> Range(Activation a, int f, DType format,
                                            const std::string& what) {
  const IntegerBounds b = QuantizedBounds(format);
  switch (a) {
    case Activation::kNone: return std::make_pair(b.lo, b.hi);
    case Activation::kRelu: return std::make_pair(std::max<int64_t>(0, b.lo), b.hi);
    case Activation::kRelu6:
      return std::make_pair(std::max<int64_t>(0, b.lo), QuantizeTo(6.0, f, b.lo, b.hi));
    case Activation::kReluN1To1:
      return std::make_pair(QuantizeTo(-1.0, f, b.lo, b.hi), QuantizeTo(1.0, f, b.lo, b.hi));
    default: break;
  }
  return Unsupported(Cat(what, ": fused ", ActivationName(a), " is not a clamp"));
}

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
  g.pad_top = a.pads[2];
  g.pad_left = a.pads[4];
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

Status ReadClamp(const Graph& graph, const HwPartition& p, NodeId id, InnerProductGroup& g) {
  const Node& n = graph.node(id);
  Activation a = Activation::kNone;
  if (n.op == OpKind::kRelu) a = Activation::kRelu;
  if (n.op == OpKind::kRelu6) a = Activation::kRelu6;
  if (n.op == OpKind::kReluN1To1) a = Activation::kReluN1To1;
  if (a == Activation::kNone)
    return NotYet(graph, p, id, "codegen does not compile this stage yet");
  if (n.inputs[0] != g.output)
    return NotYet(graph, p, id, "it does not read the group's last value");
  OPUC_ASSIGN_OR_RETURN(int f_in, Fraction(graph, n.inputs[0]));
  OPUC_ASSIGN_OR_RETURN(int f_out, Fraction(graph, n.outputs[0]));
  const DType format = graph.tensor(n.outputs[0]).dtype;
  OPUC_ASSIGN_OR_RETURN(auto range, Range(a, f_out, format, What(graph, id)));
  g.post.push_back({PostStep::kClamp, {f_in - f_out, range.first, range.second}});
  g.output = n.outputs[0];
  g.out_format = format;
  return OkStatus();
}

// numerics.md §5, add: F = max(f_a, f_b, f_out), both operands shifted up
// to F, one rounding down to f_out. The residual comes from DRAM as one
// byte per lane: i8 or u8, of the output's shape (no broadcast).
Status ReadResidual(const Graph& graph, const HwPartition& p, const HwGroup& group, NodeId id,
                    InnerProductGroup& g) {
  const Node& n = graph.node(id);
  if (g.residual) return NotYet(graph, p, id, "a second residual add in one group");
  if (n.inputs.size() != 2 || (n.inputs[0] != g.output && n.inputs[1] != g.output))
    return NotYet(graph, p, id, "it does not read the group's last value");
  const TensorId r = n.inputs[0] == g.output ? n.inputs[1] : n.inputs[0];
  const Tensor& res = graph.tensor(r);
  if (std::find(group.inputs.begin(), group.inputs.end(), r) == group.inputs.end())
    return NotYet(graph, p, id, "a residual that is not read from DRAM");
  if (res.dtype != DType::kI8 && res.dtype != DType::kU8)
    return NotYet(graph, p, id, Cat("a ", DTypeName(res.dtype), " residual (i8 and u8 compile)"));
  if (res.shape != graph.tensor(g.output).shape)
    return NotYet(graph, p, id, "a residual of another shape (broadcast)");
  OPUC_ASSIGN_OR_RETURN(int f_a, Fraction(graph, g.output));
  OPUC_ASSIGN_OR_RETURN(int f_b, Fraction(graph, r));
  OPUC_ASSIGN_OR_RETURN(int f_out, Fraction(graph, n.outputs[0]));
  const int top = std::max({f_a, f_b, f_out});
  ResidualStep step{r, res.dtype == DType::kU8, top - f_a, top - f_b, top - f_out, 0, 0};
  if (step.acc_shift > 31 || step.res_shift > 31 || step.out_shift > 63)
    return NotYet(graph, p, id, "fraction lengths further apart than ResAdd's shifts reach");
  const DType format = graph.tensor(n.outputs[0]).dtype;
  OPUC_ASSIGN_OR_RETURN(auto range,
                        Range(FusedActivation(n.attrs), f_out, format, What(graph, id)));
  step.lo = range.first;
  step.hi = range.second;
  g.residual = step;
  g.post.push_back({PostStep::kResidual, {}});
  g.output = n.outputs[0];
  g.out_format = format;
  return OkStatus();
}

// numerics.md §5, prelu, with a constant i8 alpha of one fraction length
// that varies at most along the channels: it goes into the param rows.
Status ReadPRelu(const Graph& graph, const HwPartition& p, NodeId id, InnerProductGroup& g) {
  const Node& n = graph.node(id);
  if (!g.alpha.empty()) return NotYet(graph, p, id, "a second prelu in one group");
  if (n.inputs[0] != g.output)
    return NotYet(graph, p, id, "it does not read the group's last value");
  const Tensor& a = graph.tensor(n.inputs[1]);
  if (!a.is_constant() || a.sparsity || a.dtype != DType::kI8 ||
      a.fixed_point.fraction_bits.size() != 1)
    return NotYet(graph, p, id, "an alpha that is not an i8 constant of one fraction length");
  const int64_t count = NumElements(a.shape).value_or(0);
  for (size_t d = 0; d + 1 < a.shape.size(); ++d)
    if (a.shape[d] != 1) return NotYet(graph, p, id, "an alpha that varies across pixels");
  if (count != 1 && count != g.out_c)
    return NotYet(graph, p, id, "an alpha that varies across pixels");
  const auto* values = reinterpret_cast<const int8_t*>(a.constant->data());
  for (int64_t o = 0; o < g.out_c; ++o) g.alpha.push_back(values[count == 1 ? 0 : o]);
  OPUC_ASSIGN_OR_RETURN(int f_in, Fraction(graph, n.inputs[0]));
  OPUC_ASSIGN_OR_RETURN(int f_out, Fraction(graph, n.outputs[0]));
  const int f_a = a.fixed_point.fraction_bits[0];
  const int pos = f_in - f_out, neg = f_in + f_a - f_out;
  if (pos < -32 || pos > 31 || neg < -64 || neg > 63)
    return NotYet(graph, p, id, "fraction lengths further apart than PRelu's shifts reach");
  const DType format = graph.tensor(n.outputs[0]).dtype;
  OPUC_ASSIGN_OR_RETURN(auto range, Range(Activation::kNone, f_out, format, What(graph, id)));
  g.post.push_back({PostStep::kPRelu, {pos, range.first, range.second}, neg});
  g.output = n.outputs[0];
  g.out_format = format;
  return OkStatus();
}

bool IsInnerProduct(OpKind op) {
  return op == OpKind::kConv2D || op == OpKind::kDepthwiseConv2D || op == OpKind::kFullyConnected;
}

}  // namespace

int8_t InnerProductGroup::Weight(int64_t o, int64_t ky, int64_t kx, int64_t i) const {
  switch (op) {
    case OpKind::kConv2D: return weights[((o * kh + ky) * kw + kx) * in_c + i];
    case OpKind::kDepthwiseConv2D: return weights[(ky * kw + kx) * out_c + o];
    default: return weights[o * in_c + i];
  }
}

Expected<InnerProductGroup> DescribeGroup(const Graph& graph, const HwPartition& partition,
                                          const HwGroup& group) {
  InnerProductGroup g;
  g.group = group.id;
  size_t k = 0;
  for (NodeId id : group.ops)
    if (partition.nodes[static_cast<size_t>(id)].placement == Placement::kCollected)
      return NotYet(graph, partition, id,
                    "collected constants and channel pads do not compile yet");
  if (k < group.ops.size() && graph.node(group.ops[k]).op == OpKind::kPad)
    OPUC_RETURN_IF_ERROR(FoldPad(graph, partition, group.ops[k++], g));
  if (k >= group.ops.size() || !IsInnerProduct(graph.node(group.ops[k]).op))
    return NotYet(graph, partition, group.ops[k < group.ops.size() ? k : 0],
                  "codegen compiles groups that start with an inner product so far");
  OPUC_RETURN_IF_ERROR(ReadInnerProduct(graph, partition, group.ops[k++], g));
  for (; k < group.ops.size(); ++k) {
    const OpKind op = graph.node(group.ops[k]).op;
    if (op == OpKind::kAdd)
      OPUC_RETURN_IF_ERROR(ReadResidual(graph, partition, group, group.ops[k], g));
    else if (op == OpKind::kPRelu)
      OPUC_RETURN_IF_ERROR(ReadPRelu(graph, partition, group.ops[k], g));
    else
      OPUC_RETURN_IF_ERROR(ReadClamp(graph, partition, group.ops[k], g));
  }
  if (group.outputs.size() != 1 || group.outputs[0] != g.output)
    return NotYet(graph, partition, group.ops.back(),
                  "a group that stores a value besides its last (a tap) does not compile yet");
  return g;
}

}  // namespace opuc::codegen
