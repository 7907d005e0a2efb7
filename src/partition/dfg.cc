//===- src/partition/dfg.cc - The op map ----------------------------------===//
//
// One function per family of ops decides what a node asks of the datapath
// (dfg.h lists the map). A node the datapath cannot run gets a reason that
// names the op and the property at fault, e.g. "resize_bilinear: the
// upsample stage repeats pixels; it does not interpolate".
//
//===----------------------------------------------------------------------===//
#include "opuc/partition/dfg.h"

#include <algorithm>

#include "opuc/ir/conv_geometry.h"
#include "opuc/ir/op_attrs.h"
#include "opuc/ir/op_kind.h"
#include "support/format.h"

namespace opuc {
namespace {

constexpr HwModuleMask kInnerProduct = ModuleBit(HwModule::kIpa);
constexpr HwModuleMask kPoolUnit = ModuleBit(HwModule::kPool);

class Mapper {
 public:
  Mapper(const Graph& graph, const HwConfig& hw) : graph_(graph), hw_(hw) {
    producer_ = IdVector<TensorId, NodeId>(graph.Producers());
    readers_.resize(graph.tensors.size());
    for (NodeId n : Ids<NodeId>(graph.nodes.size()))
      for (TensorId t : graph.node(n).inputs)
        if (t != kNoTensor) readers_[t].push_back(n);
  }

  Dfg Run() {
    Dfg dfg;
    dfg.nodes.resize(graph_.nodes.size());
    nodes_ = &dfg.nodes;
    for (NodeId n : Ids<NodeId>(graph_.nodes.size())) {
      DfgNode& d = dfg.nodes[n];
      const Node& node = graph_.node(n);
      d.what = std::string(OpName(node.op));
      if (FromConstants(node)) {
        d.role = DfgRole::kConstantPrep;
        continue;
      }
      Map(n, d);
    }
    return dfg;
  }

 private:
  const Tensor& T(TensorId id) const { return graph_.tensor(id); }
  const Node& Reader(NodeId id) const { return graph_.node(id); }

  /// A constant, or the value of an op computed from constants alone.
  bool Constant(TensorId id) const {
    if (T(id).is_constant()) return true;
    const NodeId p = producer_[id];
    return p >= 0 && (*nodes_)[p].role == DfgRole::kConstantPrep;
  }

  bool FromConstants(const Node& node) const {
    bool any = false;
    for (TensorId t : node.inputs) {
      if (t == kNoTensor) continue;
      if (!Constant(t)) return false;
      any = true;
    }
    return any;
  }

  static void Cpu(DfgNode& d, std::string why) {
    d.role = DfgRole::kCpu;
    d.cpu_why = std::move(why);
  }
  static void Stage(DfgNode& d, HwModuleMask modules, std::vector<int32_t> stream,
                    HwModuleMask feeds = 0) {
    d.role = DfgRole::kStage;
    d.request.modules = modules;
    d.request.feeds = feeds;
    d.stream_inputs = std::move(stream);
  }

  /// `c` scales or offsets whole channels of `out`: every extent 1 but the
  /// last, which is 1 or the channel count.
  static bool PerChannel(const Shape& c, const Shape& out) {
    if (c.size() > out.size()) return false;
    for (size_t i = 0; i + 1 < c.size(); ++i)
      if (c[i] != 1) return false;
    return c.empty() || c.back() == 1 || (!out.empty() && c.back() == out.back());
  }

  void Map(NodeId id, DfgNode& d) {
    const Node& node = graph_.node(id);
    const DType dtype = T(node.outputs[0]).dtype;
    if (dtype != DType::kF32 && !IsQuantizedFormat(dtype))
      return Cpu(d, Cat("its ", DTypeName(dtype), " values are not in the datapath (f32 before",
                        " quantization, or i8, u8, i16)"));
    const Activation activation = FusedActivation(node.attrs);
    if (activation != Activation::kNone)
      return Cpu(d, Cat("fused activation '", ActivationName(activation),
                        "' (CanonicalizeActivation splits it)"));
    switch (node.op) {
      case OpKind::kConv2D:
      case OpKind::kDepthwiseConv2D:
      case OpKind::kTransposeConv2D:
      case OpKind::kFullyConnected: return InnerProduct(node, d);
      case OpKind::kAdd:
      case OpKind::kSub:
      case OpKind::kMul: return Binary(node, d);
      case OpKind::kPRelu:
        if (!Constant(node.inputs[1]) ||
            !PerChannel(T(node.inputs[1]).shape, T(node.outputs[0]).shape))
          return Cpu(d, "alpha is not a per-channel constant");
        return Stage(d, ModuleBit(HwModule::kComparator), {0});
      case OpKind::kRelu:
      case OpKind::kRelu6:
      case OpKind::kReluN1To1:
      case OpKind::kLeakyRelu: return Stage(d, ModuleBit(HwModule::kComparator), {0});
      case OpKind::kSigmoid:
      case OpKind::kTanh:
      case OpKind::kHardSwish:
        if (!IsQuantizedFormat(dtype))
          return Cpu(d, "on f32 it is not a comparator op; quantized it becomes a table");
        if (!hw_.compare.lookup_table)
          return Cpu(d, "this OPU has no lookup tables (compare.lookup_table)");
        d.what += " (table)";
        return Stage(d, ModuleBit(HwModule::kComparator), {0});
      case OpKind::kLookupTable:
        if (!Constant(node.inputs[1])) return Cpu(d, "its table is not a constant");
        if (!hw_.compare.lookup_table)
          return Cpu(d, "this OPU has no lookup tables (compare.lookup_table)");
        return Stage(d, ModuleBit(HwModule::kComparator), {0});
      case OpKind::kQuantize: return Cpu(d, "float to i8 conversion runs on the CPU");
      case OpKind::kMaxPool2D:
      case OpKind::kAvgPool2D: return Stage(d, kPoolUnit, {0});
      case OpKind::kMean: return Mean(node, d);
      case OpKind::kPad: return Pad(node, d);
      case OpKind::kConcat: return Concat(node, d);
      case OpKind::kResizeNearest: return Upsample(node, d);
      case OpKind::kResizeBilinear:
        return Cpu(d, "the upsample stage repeats pixels; it does not interpolate");
      case OpKind::kReshape:
      case OpKind::kDepthToSpace: return Cpu(d, "a layout change the datapath does not make");
      default: return Cpu(d, "not in the datapath");
    }
  }

  void InnerProduct(const Node& node, DfgNode& d) {
    if (node.op == OpKind::kDepthwiseConv2D && !hw_.ipa.depthwise)
      return Cpu(d, "this OPU has no depthwise mode (ipa.depthwise)");
    if (node.op == OpKind::kTransposeConv2D && !hw_.ipa.transpose_conv)
      return Cpu(d, "the ipa reads no zero-inserted input (ipa.transpose_conv)");
    if (!Constant(node.inputs[1])) return Cpu(d, "its weights are not constant");
    if (node.op != OpKind::kFullyConnected) {
      const Shape& w = T(node.inputs[1]).shape;
      const int64_t kernel = std::max(w[1], w[2]);
      if (kernel > hw_.ipa.max_kernel)
        return Cpu(d,
                   Cat("kernel ", w[1], "x", w[2], " exceeds ipa.max_kernel ", hw_.ipa.max_kernel));
      const WindowSteps steps = WindowStepsOf(node.op, node.attrs);
      for (int64_t s : steps.strides)
        if (s > hw_.ipa.max_stride)
          return Cpu(d, Cat("stride ", s, " exceeds ipa.max_stride ", hw_.ipa.max_stride));
      for (int64_t r : steps.dilations)
        if (r > hw_.ipa.max_dilation)
          return Cpu(d, Cat("dilation ", r, " exceeds ipa.max_dilation ", hw_.ipa.max_dilation));
    }
    Stage(d, kInnerProduct, {0});
  }

  void Binary(const Node& node, DfgNode& d) {
    const TensorId a = node.inputs[0], b = node.inputs[1];
    const Shape& out = T(node.outputs[0]).shape;
    const HwModuleMask unit =
        ModuleBit(node.op == OpKind::kMul ? HwModule::kMultiplier : HwModule::kAdder);
    // x op c with a per-channel c; for sub only x - c.
    for (int k = 0; k < 2; ++k) {
      const TensorId x = k == 0 ? a : b, c = k == 0 ? b : a;
      if (Constant(x) || !Constant(c) || T(x).shape != out) continue;
      if (node.op == OpKind::kSub && k == 1) return Cpu(d, "constant minus a feature map");
      if (!PerChannel(T(c).shape, out))
        return Cpu(d, Cat("its constant ", ShapeToString(T(c).shape), " is not per channel"));
      d.what = node.op == OpKind::kMul ? "per-channel mul" : "per-channel " + d.what;
      return Stage(d, unit, {k});
    }
    if (Constant(a) || Constant(b)) return Cpu(d, "a constant of another shape than the output");
    if (node.op != OpKind::kAdd)
      return Cpu(
          d, Cat("of two feature maps: the ", node.op == OpKind::kMul ? "multipliers" : "adders",
                 " take per-channel constants"));
    if (T(a).shape != out || T(b).shape != out)
      return Cpu(d, "of two feature maps that broadcast; the res_adder adds equal shapes");
    d.what = "residual add";
    Stage(d, ModuleBit(HwModule::kResAdder), {0, 1});
  }

  void Mean(const Node& node, DfgNode& d) {
    const Shape& in = T(node.inputs[0]).shape;
    const Ints written = MeanAttrs::Of(node.attrs).axes;
    Ints axes = written;
    for (int64_t& a : axes)
      if (a < 0) a += static_cast<int64_t>(in.size());
    std::sort(axes.begin(), axes.end());
    if (in.size() != 4 || axes != std::vector<int64_t>{1, 2})
      return Cpu(d, Cat("over axes ", JoinList(written, [](int64_t v) { return Cat(v); }),
                        ": the pool unit averages over H and W of NHWC maps only"));
    d.what = "mean (global average pool)";
    Stage(d, kPoolUnit, {0});
  }

  void Pad(const Node& node, DfgNode& d) {
    const auto attrs = PadAttrs::Of(node.attrs);
    const Ints& p = attrs.pads;
    if (p.size() != 8) return Cpu(d, "the pad stages pad NHWC maps only");
    if (attrs.value != 0.0) return Cpu(d, "the pad stages write zeros only");
    const bool spatial = p[2] || p[3] || p[4] || p[5];
    const bool channels = p[6] || p[7];
    if (p[0] || p[1] || (spatial && channels))
      return Cpu(d, "it pads the batch, or space and channels at once");
    const std::vector<NodeId>& readers = readers_[node.outputs[0]];
    if (channels) {
      // The res_adder reads the shorter map with the missing channels as zeros.
      if (p[6] == 0 && readers.size() == 1 && Reader(readers[0]).op == OpKind::kAdd) {
        d.what = "channel pad of a residual";
        d.role = DfgRole::kResidualPad;
        return;
      }
      return Cpu(d, "a channel pad that is not the trailing pad of one residual add's operand");
    }
    HwModuleMask feeds = 0;
    for (NodeId r : readers) {
      const OpKind op = Reader(r).op;
      if (op == OpKind::kConv2D || op == OpKind::kDepthwiseConv2D || op == OpKind::kTransposeConv2D)
        feeds |= kInnerProduct;
      else if (op == OpKind::kMaxPool2D || op == OpKind::kAvgPool2D)
        feeds |= kPoolUnit;
      else
        return Cpu(d, Cat("read by ", OpName(op), "; a pad stage feeds only an ipa or a pool"));
    }
    if (readers.empty()) return Cpu(d, "nothing reads it");
    Stage(d, ModuleBit(HwModule::kPad), {0}, feeds);
  }

  void Concat(const Node& node, DfgNode& d) {
    const Shape& out = T(node.outputs[0]).shape;
    int64_t axis = ConcatAttrs::Of(node.attrs).axis;
    if (axis < 0) axis += static_cast<int64_t>(out.size());
    if (out.size() != 4 || axis != 3)
      return Cpu(d, Cat("along axis ", axis, " of a rank-", out.size(),
                        " tensor; memory read joins NHWC maps along channels only"));
    Stage(d, ModuleBit(HwModule::kMemRead), {});
  }

  void Upsample(const Node& node, DfgNode& d) {
    const Shape& in = T(node.inputs[0]).shape;
    const auto attrs = ResizeNearestAttrs::Of(node.attrs);
    const Pair size = attrs.size;
    if (size[0] != 2 * in[1] || size[1] != 2 * in[2])
      return Cpu(d, Cat("to ", size[0], "x", size[1], " from ", in[1], "x", in[2],
                        "; the upsample stage doubles exactly"));
    // With scale 1/2, half_pixel_centers picks floor(y/2 + 1/4) = floor(y/2): no change.
    if (attrs.align_corners)
      return Cpu(d, "align_corners picks source rows by rounding, not by halving");
    d.what = "upsample 2x";
    Stage(d, ModuleBit(HwModule::kUpsample), {0});
  }

  const Graph& graph_;
  const HwConfig& hw_;
  IdVector<TensorId, NodeId> producer_;
  IdVector<TensorId, std::vector<NodeId>> readers_;
  IdVector<NodeId, DfgNode>* nodes_ = nullptr;
};

}  // namespace

Dfg BuildDfg(const Graph& graph, const HwConfig& hw) { return Mapper(graph, hw).Run(); }

}  // namespace opuc
