//===- src/codegen/post_steps.cc - The stages after the inner product -===//
#include <algorithm>
#include <cstring>
#include <utility>

#include "group_reader.h"
#include "opuc/ir/conv_geometry.h"
#include "opuc/numerics/fixed_point.h"
#include "support/format.h"

namespace opuc::codegen {

std::pair<int64_t, int64_t> InnerProductGroup::OutputRange() const {
  if (post.empty()) return {lo, hi};
  const PostStep& last = post.back();
  if (last.kind == PostStep::kResidual)
    return {residuals[last.residual].lo, residuals[last.residual].hi};
  if (last.kind == PostStep::kTable)  // the entries' range
    return {*std::min_element(table.begin(), table.end()),
            *std::max_element(table.begin(), table.end())};
  return {last.clamp.lo, last.clamp.hi};
}

namespace {

/// A clamp without a shift, after a stage that ends in a clamp of its own
/// (the output stage, a compare stage, a residual add), is that stage's
/// clamp narrowed: clamp(clamp(x, a, b), c, d) = clamp(x, max(a, c),
/// min(b, d)) whenever the two ranges meet. So the relu after an add costs
/// no pass over the accumulator. False (nothing changed) where it does not
/// apply: after a table, or for ranges that do not meet.
bool NarrowLastStage(InnerProductGroup& g, int64_t lo, int64_t hi) {
  int64_t* last_lo = &g.lo;
  int64_t* last_hi = &g.hi;
  if (!g.post.empty()) {
    PostStep& last = g.post.back();
    if (last.kind == PostStep::kTable) return false;
    ResidualStep* residual =
        last.kind == PostStep::kResidual ? &g.residuals[last.residual] : nullptr;
    last_lo = residual ? &residual->lo : &last.clamp.lo;
    last_hi = residual ? &residual->hi : &last.clamp.hi;
  }
  const int64_t new_lo = std::max(*last_lo, lo), new_hi = std::min(*last_hi, hi);
  if (new_lo > new_hi) return false;
  *last_lo = new_lo;
  *last_hi = new_hi;
  return true;
}

}  // namespace

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
  if (f_in != f_out || !NarrowLastStage(g, range.first, range.second))
    g.post.push_back({PostStep::kClamp, {f_in - f_out, range.first, range.second}});
  g.output = n.outputs[0];
  g.out_format = format;
  return OkStatus();
}

namespace {

// The group's collected channel pad that makes `t`, or -1: the partitioner
// collects only a zero pad appending channels to one add's operand.
NodeId ChannelPadMaking(const Graph& graph, const HwPartition& p, const HwGroup& group,
                        TensorId t) {
  for (NodeId id : group.ops)
    if (p.nodes[static_cast<size_t>(id)].placement == Placement::kCollected &&
        graph.node(id).op == OpKind::kPad && graph.node(id).outputs[0] == t)
      return id;
  return -1;
}

// The ResAdd step of node `id` (its shifts set), with the output's range,
// after the group's stages; its value is the group's last.
Status AppendResidual(const Graph& graph, const HwPartition& p, NodeId id, int f_out,
                      ResidualStep step, InnerProductGroup& g) {
  const Node& n = graph.node(id);
  if (step.acc_shift > 31 || step.res_shift > 31 || step.out_shift > 63)
    return NotYet(graph, p, id, "fraction lengths further apart than ResAdd's shifts reach");
  const DType format = graph.tensor(n.outputs[0]).dtype;
  OPUC_ASSIGN_OR_RETURN(auto range,
                        Range(FusedActivation(n.attrs), f_out, format, What(graph, id)));
  step.lo = range.first;
  step.hi = range.second;
  g.post.push_back({PostStep::kResidual, {}, 0, g.residuals.size()});
  g.residuals.push_back(std::move(step));
  g.output = n.outputs[0];
  g.out_format = format;
  return OkStatus();
}

}  // namespace

// numerics.md §5, add, sub and mul of the last value and a constant with
// one value per channel (or one for all): the adder and multiplier stages,
// run by ResAdd reading the constant's row for every entry.
Status ReadChannelConstant(const Graph& graph, const HwPartition& p, NodeId id,
                           InnerProductGroup& g) {
  const Node& n = graph.node(id);
  const bool first = n.inputs[0] == g.output;
  if (n.op == OpKind::kSub && !first) return NotYet(graph, p, id, "a constant minus a value");
  const Tensor& c = graph.tensor(n.inputs[first ? 1 : 0]);
  const int64_t count = NumElements(c.shape).value_or(0);
  if (count != 1 && (count != g.out_c || c.shape.empty() || c.shape.back() != g.out_c))
    return NotYet(graph, p, id, "a constant that varies across pixels");
  if (!IsQuantizedFormat(c.dtype) || c.sparsity)
    return NotYet(graph, p, id, Cat("a ", DTypeName(c.dtype), " constant"));
  ResidualStep step;
  step.multiply = n.op == OpKind::kMul;
  step.channels = g.out_c;
  for (int64_t o = 0; o < g.out_c; ++o) {
    const auto k = static_cast<size_t>(count == 1 ? 0 : o);
    const uint8_t* at = c.constant->data() + k * (c.dtype == DType::kI16 ? 2 : 1);
    const int32_t v = c.dtype == DType::kI16  ? static_cast<int16_t>(at[0] | at[1] << 8)
                      : c.dtype == DType::kU8 ? at[0]
                                              : static_cast<int8_t>(at[0]);
    step.constant.push_back(n.op == OpKind::kSub ? -v : v);
  }
  // The narrowest format that holds the values on chip.
  const auto [lo, hi] = std::minmax_element(step.constant.begin(), step.constant.end());
  step.format = *lo >= -128 && *hi <= 127 ? DType::kI8
                : *lo >= 0 && *hi <= 255  ? DType::kU8
                                          : DType::kI16;
  OPUC_ASSIGN_OR_RETURN(int f_a, Fraction(graph, g.output));
  OPUC_ASSIGN_OR_RETURN(int f_c, Fraction(graph, n.inputs[first ? 1 : 0]));
  OPUC_ASSIGN_OR_RETURN(int f_out, Fraction(graph, n.outputs[0]));
  if (step.multiply) {  // (acc · c) at f_a + f_c, rounded once to f_out
    const int shift = f_a + f_c - f_out;
    step.acc_shift = std::max(0, -shift);
    step.out_shift = std::max(0, shift);
  } else {
    const int top = std::max({f_a, f_c, f_out});
    step.acc_shift = top - f_a;
    step.res_shift = top - f_c;
    step.out_shift = top - f_out;
  }
  return AppendResidual(graph, p, id, f_out, std::move(step), g);
}

// numerics.md §5, add: F = max(f_a, f_b, f_out), both operands shifted up
// to F, one rounding down to f_out. The residual comes from DRAM, i8, u8
// or i16 (two planes), of the output's shape (no broadcast), or of fewer
// channels that a collected zero pad appends (they add 0). An add, sub or
// mul of a constant goes to ReadChannelConstant.
Status ReadResidual(const Graph& graph, const HwPartition& p, const HwGroup& group, NodeId id,
                    InnerProductGroup& g) {
  const Node& n = graph.node(id);
  if (n.inputs.size() != 2 || (n.inputs[0] != g.output && n.inputs[1] != g.output))
    return NotYet(graph, p, id, "it does not read the group's last value");
  TensorId r = n.inputs[0] == g.output ? n.inputs[1] : n.inputs[0];
  if (graph.tensor(r).is_constant()) return ReadChannelConstant(graph, p, id, g);
  if (n.op != OpKind::kAdd) return NotYet(graph, p, id, Cat("a ", OpName(n.op), " of two values"));
  if (const NodeId pad = ChannelPadMaking(graph, p, group, r); pad >= 0) {
    const Tensor &before = graph.tensor(graph.node(pad).inputs[0]), &after = graph.tensor(r);
    if (before.dtype != after.dtype || !(before.fixed_point == after.fixed_point))
      return NotYet(graph, p, pad, "a pad that changes the format or fraction length");
    r = graph.node(pad).inputs[0];
  }
  const Tensor& res = graph.tensor(r);
  if (std::find(group.inputs.begin(), group.inputs.end(), r) == group.inputs.end())
    return NotYet(graph, p, id, "a residual that is not read from DRAM");
  if (!IsQuantizedFormat(res.dtype))
    return NotYet(graph, p, id, Cat("a ", DTypeName(res.dtype), " residual"));
  Shape padded = res.shape;
  if (!padded.empty() && padded.back() <= g.out_c) padded.back() = g.out_c;
  if (padded != graph.tensor(g.output).shape)
    return NotYet(graph, p, id, "a residual of another shape (broadcast)");
  OPUC_ASSIGN_OR_RETURN(int f_a, Fraction(graph, g.output));
  OPUC_ASSIGN_OR_RETURN(int f_b, Fraction(graph, r));
  OPUC_ASSIGN_OR_RETURN(int f_out, Fraction(graph, n.outputs[0]));
  const int top = std::max({f_a, f_b, f_out});
  ResidualStep step;
  step.tensor = r;
  step.format = res.dtype;
  step.acc_shift = top - f_a;
  step.res_shift = top - f_b;
  step.out_shift = top - f_out;
  step.channels = res.shape.back();
  return AppendResidual(graph, p, id, f_out, std::move(step), g);
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

// numerics.md §6: the quantizer's table, read as stored.
Status ReadTable(const Graph& graph, const HwPartition& p, NodeId id, InnerProductGroup& g) {
  const Node& n = graph.node(id);
  if (!g.table.empty()) return NotYet(graph, p, id, "a second lookup table in one group");
  if (n.inputs[0] != g.output)
    return NotYet(graph, p, id, "it does not read the group's last value");
  const DType in = graph.tensor(n.inputs[0]).dtype, out = graph.tensor(n.outputs[0]).dtype;
  const Tensor& table = graph.tensor(n.inputs[1]);
  const int64_t entries = in == DType::kI16 ? 257 : 256;
  if (!table.is_constant() || table.sparsity || table.dtype != out ||
      NumElements(table.shape).value_or(0) != entries)
    return NotYet(graph, p, id,
                  Cat("a table that is not a constant of ", entries, " ", DTypeName(out)));
  const auto* data = table.constant->data();
  for (size_t k = 0; k < static_cast<size_t>(entries); ++k) {
    if (out == DType::kI16) {
      int16_t v = 0;
      std::memcpy(&v, data + 2 * k, 2);
      g.table.push_back(v);
    } else if (out == DType::kU8)
      g.table.push_back(data[k]);
    else
      g.table.push_back(reinterpret_cast<const int8_t*>(data)[k]);
  }
  g.table_input = in;
  const IntegerBounds b = QuantizedBounds(out);
  g.post.push_back({PostStep::kTable, {0, b.lo, b.hi}});
  g.output = n.outputs[0];
  g.out_format = out;
  return OkStatus();
}

}  // namespace opuc::codegen
