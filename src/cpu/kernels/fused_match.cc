//===- src/cpu/kernels/fused_match.cc - Which functions run as one kernel --===//
#include "fused_match.h"

#include <algorithm>

namespace opuc::cpu {
namespace {

bool IsInnerProduct(OpKind op) {
  return op == OpKind::kConv2D || op == OpKind::kDepthwiseConv2D || op == OpKind::kFullyConnected;
}

bool IsClamp(OpKind op) {
  return op == OpKind::kRelu || op == OpKind::kRelu6 || op == OpKind::kReluN1To1;
}

bool IsBinary(OpKind op) { return op == OpKind::kAdd || op == OpKind::kSub || op == OpKind::kMul; }

/// How `other` broadcasts onto a value of shape `value`, if as one of the
/// three shapes the chain reads.
std::optional<ChainStep::Operand> OperandOf(const Shape& other, const Shape& value) {
  const std::optional<int64_t> n = NumElements(other);
  if (!n || value.empty() || other.size() > value.size()) return std::nullopt;
  if (other == value) return ChainStep::Operand::kWhole;
  if (*n == 1) return ChainStep::Operand::kScalar;
  if (other.back() == value.back() && *n == other.back()) return ChainStep::Operand::kChannel;
  return std::nullopt;
}

}  // namespace

std::optional<FusedTail> MatchFusedTail(const Graph& body) {
  if (body.nodes.size() < 2 || body.outputs.size() != 1) return std::nullopt;
  const Node& head = body.nodes.front();
  if (!IsInnerProduct(head.op) || head.outputs.size() != 1 || head.inputs.empty())
    return std::nullopt;
  const auto tensor = [&](TensorId t) -> const Tensor* {
    return t >= 0 && static_cast<size_t>(t) < body.tensors.size() ? &body.tensor(t) : nullptr;
  };
  const Tensor* in = tensor(head.inputs[0]);
  const Tensor* out = tensor(head.outputs[0]);
  if (!in || !out || in->dtype != DType::kF32 || out->dtype != DType::kF32) return std::nullopt;
  const TensorType type = out->type();

  FusedTail tail;
  TensorId value = head.outputs[0];
  for (size_t k = 1; k < body.nodes.size(); ++k) {
    const Node& node = body.nodes[k];
    // The value before feeds this node alone.
    for (size_t j = 0; j < body.nodes.size(); ++j)
      if (j != k && std::count(body.nodes[j].inputs.begin(), body.nodes[j].inputs.end(), value))
        return std::nullopt;
    if (body.outputs[0] == value) return std::nullopt;
    const Tensor* result = node.outputs.size() == 1 ? tensor(node.outputs[0]) : nullptr;
    if (!result || !(result->type() == type)) return std::nullopt;
    ChainStep step;
    step.op = node.op;
    TensorId other = kNoTensor;
    if (IsClamp(node.op)) {
      if (node.inputs.size() != 1 || node.inputs[0] != value) return std::nullopt;
    } else if ((IsBinary(node.op) || node.op == OpKind::kPRelu) && node.inputs.size() == 2 &&
               (node.inputs[0] == value) != (node.inputs[1] == value)) {
      step.value_first = node.inputs[0] == value;
      if (node.op == OpKind::kPRelu && !step.value_first)
        return std::nullopt;  // a slope from the map
      other = node.inputs[step.value_first ? 1 : 0];
      const Tensor* o = tensor(other);
      if (!o || o->dtype != DType::kF32 || o->sparsity) return std::nullopt;
      const std::optional<ChainStep::Operand> operand = OperandOf(o->shape, type.shape);
      if (!operand) return std::nullopt;
      step.operand = *operand;
      step.activation = FusedActivation(node.attrs);
    } else {
      return std::nullopt;
    }
    tail.steps.push_back(step);
    tail.others.push_back(other);
    value = node.outputs[0];
  }
  if (body.outputs[0] != value) return std::nullopt;
  return tail;
}

}  // namespace opuc::cpu
