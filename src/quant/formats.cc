//===- src/quant/formats.cc - i8, u8 or i16 for each activation -----------===//
#include "formats.h"

#include <algorithm>
#include <cstring>
#include <map>

#include "activation_bits.h"
#include "opuc/ir/macs.h"
#include "opuc/ir/op_attrs.h"
#include "tables.h"

namespace opuc::quant {
namespace {

/// Whether every element of a constant is >= 0 (false if it cannot be read).
bool NonNegativeConstant(const Tensor& t) {
  if (!t.is_constant() || t.dtype != DType::kF32) return false;
  if (t.sparsity) return false;
  const size_t count = t.constant->size() / sizeof(float);
  for (size_t i = 0; i < count; ++i) {
    float v = 0.0f;
    std::memcpy(&v, t.constant->data() + i * sizeof(float), sizeof(float));
    if (!(v >= 0.0f)) return false;
  }
  return true;
}

}  // namespace

std::vector<bool> ProveNonNegative(const Graph& graph) {
  std::vector<bool> known(graph.tensors.size(), false);
  for (size_t t = 0; t < graph.tensors.size(); ++t)
    known[t] = NonNegativeConstant(graph.tensors[t]);
  const auto of = [&](TensorId id) { return id != kNoTensor && known[static_cast<size_t>(id)]; };
  for (const Node& node : graph.nodes) {
    if (node.outputs.empty()) continue;
    bool result = false;
    const Activation activation =
        HasFusedActivation(node.op) ? FusedActivation(node.attrs) : Activation::kNone;
    if (activation == Activation::kRelu || activation == Activation::kRelu6) {
      result = true;
    } else {
      switch (node.op) {
        case OpKind::kRelu:
        case OpKind::kRelu6:
        case OpKind::kSigmoid:
        case OpKind::kSoftmax: result = true; break;
        case OpKind::kMaxPool2D:
        case OpKind::kAvgPool2D:
        case OpKind::kMean:
        case OpKind::kReshape:
        case OpKind::kDepthToSpace:
        case OpKind::kResizeNearest:
        case OpKind::kResizeBilinear: result = of(node.inputs[0]); break;
        case OpKind::kPad:
          result = of(node.inputs[0]) && PadAttrs::Of(node.attrs).value >= 0;
          break;
        case OpKind::kAdd:
        case OpKind::kMul:
        case OpKind::kConcat:
          result = std::all_of(node.inputs.begin(), node.inputs.end(), of);
          break;
        default: break;
      }
    }
    known[static_cast<size_t>(node.outputs[0])] = result;
  }
  return known;
}

FormatPlanner::FormatPlanner(const Graph& graph, const std::vector<TensorStats>& stats,
                             std::vector<int> bits8, bool allow_unsigned, bool i16_in_one_pass,
                             const std::vector<TensorId>& partial_sums)
    : stats_(stats), bits8_(std::move(bits8)) {
  const ActivationGroups unified = UnifyActivations(graph, partial_sums);
  votes_ = unified.votes;
  const std::vector<bool> non_negative = ProveNonNegative(graph);
  std::map<size_t, size_t> index;  // unified group id -> groups_ index
  std::vector<size_t> group_of(graph.tensors.size(), SIZE_MAX);
  for (size_t t = 0; t < graph.tensors.size(); ++t) {
    if (bits8_[t] == kNoBits) continue;
    const auto [it, added] = index.emplace(unified.group[t], groups_.size());
    if (added) groups_.emplace_back();
    groups_[it->second].members.push_back(static_cast<TensorId>(t));
    group_of[t] = it->second;
  }
  // u8: proved non-negative, or the only input of a relu/relu6 (which
  // removes the negative values anyway).
  unsigned_ = non_negative;
  for (const Node& node : graph.nodes)
    if ((node.op == OpKind::kRelu || node.op == OpKind::kRelu6) &&
        !votes_[static_cast<size_t>(node.inputs[0])])
      unsigned_[static_cast<size_t>(node.inputs[0])] = true;
  if (!allow_unsigned) unsigned_.assign(unsigned_.size(), false);
  relu6_bounded_.assign(graph.tensors.size(), false);
  for (const Node& node : graph.nodes)
    if (node.op == OpKind::kRelu6) {
      relu6_bounded_[static_cast<size_t>(node.outputs[0])] = true;
      if (!votes_[static_cast<size_t>(node.inputs[0])])
        relu6_bounded_[static_cast<size_t>(node.inputs[0])] = true;
    }
  table_input_.assign(graph.tensors.size(), false);
  curved_input_.assign(graph.tensors.size(), false);
  saturating_input_.assign(graph.tensors.size(), true);
  std::vector<bool> read(graph.tensors.size(), false);
  for (TensorId t : graph.outputs) saturating_input_[static_cast<size_t>(t)] = false;
  for (const Node& node : graph.nodes) {
    if (NeedsTable(node.op)) table_input_[static_cast<size_t>(node.inputs[0])] = true;
    if (node.op == OpKind::kHardSwish) curved_input_[static_cast<size_t>(node.inputs[0])] = true;
    const bool saturates = node.op == OpKind::kSigmoid || node.op == OpKind::kTanh;
    for (TensorId t : node.inputs) {
      if (t == kNoTensor) continue;
      read[static_cast<size_t>(t)] = true;
      if (!saturates) saturating_input_[static_cast<size_t>(t)] = false;
    }
  }
  for (size_t t = 0; t < read.size(); ++t)
    if (!read[t]) saturating_input_[t] = false;
  for (size_t k = 0; k < graph.nodes.size(); ++k) {
    const Node& node = graph.nodes[k];
    const TensorId in = node.inputs.empty() ? kNoTensor : node.inputs[0];
    if (in == kNoTensor || group_of[static_cast<size_t>(in)] == SIZE_MAX) continue;
    FormatGroup& g = groups_[group_of[static_cast<size_t>(in)]];
    if (node.op == OpKind::kSoftmax) g.may_widen = false;
    if (IsInnerProduct(node.op)) {
      const int64_t macs = NodeMacs(graph, static_cast<NodeId>(k));
      if (I16Passes(graph, static_cast<NodeId>(k), i16_in_one_pass) > 1) g.extra_macs += macs;
      total_macs_ += macs;
    }
  }
  const ActivationFormats eight = Plan(std::vector<bool>(groups_.size(), false));
  for (FormatGroup& g : groups_) {
    for (TensorId id : g.members) {
      const auto t = static_cast<size_t>(id);
      if (!votes_[t]) continue;
      const auto k = static_cast<size_t>(eight.bits[t] - kMinActivationBits);
      const TensorStats& s = stats_[t];
      g.noise += eight.format[t] == DType::kU8 ? s.squared_error_u8[k] : s.squared_error[k];
      g.signal += s.sum_squares;
    }
  }
}

ActivationFormats FormatPlanner::Plan(const std::vector<bool>& wide) const {
  ActivationFormats plan{std::vector<DType>(bits8_.size(), DType::kF32),
                         std::vector<int>(bits8_.size(), kNoBits)};
  for (size_t k = 0; k < groups_.size(); ++k) {
    const FormatGroup& g = groups_[k];
    const bool widen = wide[k] && g.may_widen;
    const auto format = [&](TensorId t) {
      return widen ? DType::kI16 : unsigned_[static_cast<size_t>(t)] ? DType::kU8 : DType::kI8;
    };
    // One length for the group: 8-bit, the (maybe refined) i8 choice, so
    // that u8 adds headroom (measured: choosing u8's own least-error length
    // clipped more on new photographs, docs/quantization.md); i16, the least
    // of the voters' no-clip lengths (a clamp's input does not vote, as in
    // activation_bits.h) less kWideHeadroomBits, except where a table reads
    // the group: its 257 knots span the format's range, so headroom there
    // coarsens the function (measured: one bit there took the selfie mask
    // from 18.6 to 14.5 dB), and before hard_swish, which curves between
    // them, the range is kCurvedTableFinerBits narrower still.
    int bits = bits8_[static_cast<size_t>(g.members.front())];
    if (widen) {
      const bool any_voter = std::any_of(g.members.begin(), g.members.end(), [&](TensorId t) {
        return votes_[static_cast<size_t>(t)];
      });
      bits = kMaxWideActivationBits;
      for (TensorId t : g.members) {
        if (any_voter && !votes_[static_cast<size_t>(t)]) continue;
        double max_abs = stats_[static_cast<size_t>(t)].max_abs;
        if (saturating_input_[static_cast<size_t>(t)])
          max_abs = std::min(max_abs, kSaturatedTableInput);
        bits = std::min(bits, WideFractionBits(max_abs));
      }
      const auto any = [&](const std::vector<bool>& flag) {
        return std::any_of(g.members.begin(), g.members.end(),
                           [&](TensorId t) { return flag[static_cast<size_t>(t)]; });
      };
      if (any(curved_input_))
        bits = std::min(kMaxWideActivationBits, bits + kCurvedTableFinerBits);
      else if (!any(table_input_))
        bits = std::max(kMinActivationBits, bits - kWideHeadroomBits);
    }
    if (!widen && std::all_of(g.members.begin(), g.members.end(), [&](TensorId t) {
          return relu6_bounded_[static_cast<size_t>(t)] && unsigned_[static_cast<size_t>(t)];
        }))
      bits = std::max(bits, kRelu6U8Bits);
    for (TensorId t : g.members) {
      plan.format[static_cast<size_t>(t)] = format(t);
      plan.bits[static_cast<size_t>(t)] = bits;
    }
  }
  return plan;
}

}  // namespace opuc::quant
