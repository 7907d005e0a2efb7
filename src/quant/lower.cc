//===- src/quant/lower.cc - Rewriting nodes to integers -------------------===//
//
// One rule per op family (docs/quantization.md): inner products get int8
// weights and int32 biases, unary functions become tables, constant
// operands become int8 tensors with their own length, and everything else
// keeps its op — the integer semantics of docs/numerics.md take over.
//
//===----------------------------------------------------------------------===//
#include "lower.h"

#include <algorithm>

#include "activation_bits.h"
#include "opuc/ir/graph_edit.h"
#include "opuc/ir/macs.h"
#include "opuc/ir/op_attrs.h"
#include "opuc/numerics/fixed_point.h"
#include "opuc/tensor_io/host_tensor.h"
#include "support/format.h"
#include "support/parallel_for.h"
#include "tables.h"
#include "weights.h"

namespace opuc::quant {
namespace {

template <typename T>
TensorId AddConstant(Graph& graph, const std::string& base, DType dtype, Shape shape,
                     const std::vector<T>& values, FixedPoint fixed_point) {
  const TensorId id =
      graph.AddConstant(UniqueTensorName(graph, base), dtype, std::move(shape),
                        ConstantData::Copy(values.data(), values.size() * sizeof(T)));
  graph.tensor(id).fixed_point = std::move(fixed_point);
  return id;
}

FixedPoint PerTensor(int bits) { return FixedPoint{{bits}, -1}; }

/// A table constant in `format` (i8, u8, i16) from values inside its range.
TensorId AddTable(Graph& graph, const std::string& base, DType format,
                  const std::vector<int32_t>& values) {
  const Shape shape{static_cast<int64_t>(values.size())};
  const auto narrowed = [&](auto element) {
    using T = decltype(element);
    return AddConstant(graph, base, format, shape, std::vector<T>(values.begin(), values.end()),
                       FixedPoint());
  };
  if (format == DType::kU8) return narrowed(uint8_t{});
  if (format == DType::kI16) return narrowed(int16_t{});
  return narrowed(int8_t{});
}

DType FormatOf(const LowerContext& ctx, TensorId t) { return ctx.formats[static_cast<size_t>(t)]; }

/// The integer weights of inner product `id` for its input's length and
/// format.
Expected<QuantizedWeights> WeightsOf(const LowerContext& ctx, NodeId id) {
  const Node& node = ctx.source.node(id);
  const int input_bits = ctx.bits[static_cast<size_t>(node.inputs[0])];
  const auto gram = ctx.grams.find(id);
  // One pass of the array sees |q| <= 128 (i8) or 255 (u8, each byte of i16).
  const int magnitude = FormatOf(ctx, node.inputs[0]) == DType::kI8 ? 128 : 255;
  return QuantizeInnerProduct(ctx.source, id, input_bits,
                              gram == ctx.grams.end() ? nullptr : &gram->second, magnitude);
}

Status LowerInnerProduct(LowerContext& ctx, NodeId id) {
  Node& node = ctx.graph.nodes[static_cast<size_t>(id)];
  const Activation activation = FusedActivation(node.attrs);
  if (activation == Activation::kTanh)
    return Unsupported(Cat("fused activation '", ActivationName(activation),
                           "' has no integer form; run CanonicalizeActivation first"));
  const auto k = static_cast<size_t>(id);
  OPUC_ASSIGN_OR_RETURN(QuantizedWeights q, k < ctx.weights.size() && ctx.weights[k]
                                                ? std::move(*ctx.weights[k])
                                                : WeightsOf(ctx, id));
  const Tensor& w = ctx.source.tensor(node.inputs[1]);
  node.inputs[1] = AddConstant(ctx.graph, w.name + "/int8", DType::kI8, w.shape, q.weights,
                               FixedPoint{q.bits, q.axis});
  if (!q.bias.empty()) {
    // The bias's length is implied: f_in + f_w[c] (docs/numerics.md §1).
    const Tensor& b = ctx.source.tensor(node.inputs[2]);
    node.inputs[2] =
        AddConstant(ctx.graph, b.name + "/int32", DType::kI32, b.shape, q.bias, FixedPoint());
  }
  ctx.report.weights += static_cast<int64_t>(q.weights.size());
  ctx.report.saturated_weights += q.saturated;
  ctx.report.lowered_channels += q.lowered;
  ctx.report.compensated_channels += q.compensated;
  return OkStatus();
}

/// An f32 constant operand becomes int8 at the length in [lo, hi] that holds
/// its largest value (constants are known exactly: no calibration needed).
Status LowerConstantOperand(LowerContext& ctx, NodeId id, size_t index, int lo, int hi) {
  Node& node = ctx.graph.nodes[static_cast<size_t>(id)];
  const Tensor& c = ctx.source.tensor(node.inputs[index]);
  OPUC_ASSIGN_OR_RETURN(HostTensor value, HostTensor::FromConstant(c));
  if (value.dtype() != DType::kF32)
    return InvalidArgument(Cat("constant '", c.name, "' is ", DTypeName(value.dtype()),
                               "; the quantizer expects f32"));
  const float* v = value.data<float>();
  const int bits = NoClipBits(v, value.elements(), 1, lo, hi);
  std::vector<int8_t> q(static_cast<size_t>(value.elements()));
  for (size_t i = 0; i < q.size(); ++i) q[i] = QuantizeToInt8(v[i], bits);
  node.inputs[index] =
      AddConstant(ctx.graph, c.name + "/int8", DType::kI8, c.shape, q, PerTensor(bits));
  return OkStatus();
}

Status LowerConstantOperands(LowerContext& ctx, NodeId id, int lo, int hi) {
  const Node& node = ctx.graph.node(id);
  for (size_t i = 0; i < node.inputs.size(); ++i) {
    const TensorId t = node.inputs[i];
    if (t != kNoTensor && ctx.graph.tensor(t).is_constant() &&
        ctx.graph.tensor(t).dtype == DType::kF32)
      OPUC_RETURN_IF_ERROR(LowerConstantOperand(ctx, id, i, lo, hi));
  }
  return OkStatus();
}

Status LowerToTable(LowerContext& ctx, NodeId id) {
  Node& node = ctx.graph.nodes[static_cast<size_t>(id)];
  const int f_in = ctx.bits[static_cast<size_t>(node.inputs[0])];
  const int f_out = ctx.bits[static_cast<size_t>(node.outputs[0])];
  const DType out = FormatOf(ctx, node.outputs[0]);
  const std::vector<int32_t> table =
      BuildTable(node.op, node.attrs, FormatOf(ctx, node.inputs[0]), f_in, out, f_out);
  const TensorId t =
      AddTable(ctx.graph, Cat(ctx.graph.tensor(node.outputs[0]).name, "/table"), out, table);
  Node& rewritten = ctx.graph.nodes[static_cast<size_t>(id)];
  rewritten.op = OpKind::kLookupTable;
  rewritten.attrs = Attributes();
  rewritten.inputs = {rewritten.inputs[0], t};
  ++ctx.report.tables;
  return OkStatus();
}

Status LowerSoftmax(LowerContext& ctx, NodeId id) {
  Node& node = ctx.graph.nodes[static_cast<size_t>(id)];
  const int f_in = ctx.bits[static_cast<size_t>(node.inputs[0])];
  if (FormatOf(ctx, node.inputs[0]) == DType::kI16)
    return Unsupported("softmax reads 8-bit inputs only (docs/numerics.md §1b)");
  if (ctx.bits[static_cast<size_t>(node.outputs[0])] < 0)
    return Unsupported("softmax output needs a fraction length >= 0 (docs/numerics.md §8)");
  const std::array<int32_t, 256> table =
      BuildSoftmaxExpTable(SoftmaxAttrs::Of(node.attrs).beta, f_in);
  const std::string base = Cat(ctx.graph.tensor(node.outputs[0]).name, "/exp_table");
  const TensorId t = AddConstant(ctx.graph, base, DType::kI32, Shape{256},
                                 std::vector<int32_t>(table.begin(), table.end()), FixedPoint());
  Node& rewritten = ctx.graph.nodes[static_cast<size_t>(id)];
  rewritten.inputs.resize(1);
  rewritten.inputs.push_back(t);
  ++ctx.report.tables;
  return OkStatus();
}

Status LowerPad(LowerContext& ctx, NodeId id) {
  Node& node = ctx.graph.nodes[static_cast<size_t>(id)];
  const int f = ctx.bits[static_cast<size_t>(node.outputs[0])];
  const double value = PadAttrs::Of(node.attrs).value;
  const IntegerBounds bounds = QuantizedBounds(FormatOf(ctx, node.outputs[0]));
  node.attrs.Set("value", static_cast<double>(QuantizeTo(value, f, bounds.lo, bounds.hi)));
  return OkStatus();
}

/// Concat's constant inputs take the output's length (§5: one binary point).
Status LowerConcat(LowerContext& ctx, NodeId id) {
  const int f = ctx.bits[static_cast<size_t>(ctx.graph.node(id).outputs[0])];
  return LowerConstantOperands(ctx, id, f, f);
}

Status Dispatch(LowerContext& ctx, NodeId id) {
  const OpKind op = ctx.graph.node(id).op;
  switch (op) {
    case OpKind::kConv2D:
    case OpKind::kDepthwiseConv2D:
    case OpKind::kTransposeConv2D:
    case OpKind::kFullyConnected: return LowerInnerProduct(ctx, id);
    case OpKind::kAdd:
    case OpKind::kSub:
      return LowerConstantOperands(ctx, id, kMinActivationBits, kMaxActivationBits);
    case OpKind::kMul:
    case OpKind::kPRelu: return LowerConstantOperands(ctx, id, kMinWeightBits, kMaxWeightBits);
    case OpKind::kSigmoid:
    case OpKind::kTanh:
    case OpKind::kHardSwish:
    case OpKind::kLeakyRelu: return LowerToTable(ctx, id);
    case OpKind::kSoftmax: return LowerSoftmax(ctx, id);
    case OpKind::kPad: return LowerPad(ctx, id);
    case OpKind::kConcat: return LowerConcat(ctx, id);
    case OpKind::kRelu:
    case OpKind::kRelu6:
    case OpKind::kReluN1To1:
    case OpKind::kMaxPool2D:
    case OpKind::kAvgPool2D:
    case OpKind::kMean:
    case OpKind::kReshape:
    case OpKind::kResizeBilinear:
    case OpKind::kResizeNearest:
    case OpKind::kDepthToSpace: return OkStatus();  // same op, integer semantics
    default:
      return Unsupported(
          Cat("op '", OpName(op),
              "' cannot be quantized; the default pass "
              "pipeline removes dequantize and densify, and fused nodes come later"));
  }
}

}  // namespace

void RoundAllWeights(LowerContext& ctx, int threads) {
  std::vector<NodeId> nodes;
  for (size_t k = 0; k < ctx.source.nodes.size(); ++k)
    if (IsInnerProduct(ctx.source.nodes[k].op)) nodes.push_back(static_cast<NodeId>(k));
  // The largest first, so that no thread is left with a large one at the end.
  const auto size = [&](NodeId id) {
    return NumElements(ctx.source.tensor(ctx.source.node(id).inputs[1]).shape).value_or(0);
  };
  std::stable_sort(nodes.begin(), nodes.end(),
                   [&](NodeId a, NodeId b) { return size(a) > size(b); });
  ctx.weights.assign(ctx.source.nodes.size(), std::nullopt);
  ParallelFor(static_cast<int64_t>(nodes.size()), threads, [&](int64_t i) {
    const NodeId id = nodes[static_cast<size_t>(i)];
    ctx.weights[static_cast<size_t>(id)] = WeightsOf(ctx, id);
  });
}

Status LowerNode(LowerContext& ctx, NodeId id) {
  Status status = Dispatch(ctx, id);
  if (!status.ok()) return status.WithContext(DescribeNode(ctx.graph, id));
  return OkStatus();
}

}  // namespace opuc::quant
