//===- src/cpu/fused_match.cc - Which functions run as one kernel --===//
#include "fused_match.h"

#include <algorithm>

#include "mean_extents.h"

namespace opuc::cpu {

bool IsClamp(OpKind op) {
  return op == OpKind::kRelu || op == OpKind::kRelu6 || op == OpKind::kReluN1To1;
}

namespace {

bool IsInnerProduct(OpKind op) {
  return op == OpKind::kConv2D || op == OpKind::kDepthwiseConv2D || op == OpKind::kFullyConnected;
}

bool IsBinary(OpKind op) { return op == OpKind::kAdd || op == OpKind::kSub || op == OpKind::kMul; }

/// Float activations the chain computes as their kernels do (integer ones are tables).
bool IsFloatUnary(OpKind op) {
  return op == OpKind::kSigmoid || op == OpKind::kHardSwish || op == OpKind::kTanh;
}

/// Whether a chain of f32 values (integer: quantized ones) may hold `dtype`.
bool IsValue(DType dtype, bool integer) {
  return integer ? IsQuantizedFormat(dtype) : dtype == DType::kF32;
}

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

/// The argument an injective chain starts from: the first node's input of
/// the node's output shape that the body takes as a parameter.
TensorId StartOf(const Graph& body) {
  const Node& first = body.nodes.front();
  if (first.outputs.size() != 1 || first.inputs.empty()) return kNoTensor;
  const Shape& shape = body.tensor(first.outputs[0]).shape;
  const size_t candidates = IsBinary(first.op) ? 2 : 1;
  for (size_t i = 0; i < std::min(candidates, first.inputs.size()); ++i) {
    const TensorId t = first.inputs[i];
    if (t >= 0 && static_cast<size_t>(t) < body.tensors.size() && body.tensor(t).shape == shape &&
        std::count(body.inputs.begin(), body.inputs.end(), t))
      return t;
  }
  return kNoTensor;
}

}  // namespace

std::optional<FusedTail> MatchFusedTail(const Graph& body) {
  if (body.nodes.size() < 2 || body.outputs.size() != 1) return std::nullopt;
  const auto tensor = [&](TensorId t) -> const Tensor* {
    return t >= 0 && static_cast<size_t>(t) < body.tensors.size() ? &body.tensor(t) : nullptr;
  };
  FusedTail tail;
  const Node& head = body.nodes.front();
  const Tensor* head_input = nullptr;
  if (IsInnerProduct(head.op)) {
    if (head.outputs.size() != 1 || head.inputs.empty()) return std::nullopt;
    head_input = tensor(head.inputs[0]);
    if (!head_input) return std::nullopt;
    tail.inner_product = true;
    tail.start = head.outputs[0];
  } else {
    tail.start = StartOf(body);
  }
  const Tensor* start = tensor(tail.start);
  if (!start) return std::nullopt;
  tail.integer = IsQuantizedFormat(start->dtype);
  if (!IsValue(start->dtype, tail.integer) ||
      (head_input && !IsValue(head_input->dtype, tail.integer)))
    return std::nullopt;
  const Shape& shape = start->shape;

  TensorId value = tail.start;
  for (size_t k = tail.inner_product ? 1 : 0; k < body.nodes.size(); ++k) {
    const Node& node = body.nodes[k];
    // A value the chain made feeds this node alone (an argument may feed others).
    if (value != tail.start || tail.inner_product) {
      for (size_t j = 0; j < body.nodes.size(); ++j)
        if (j != k && std::count(body.nodes[j].inputs.begin(), body.nodes[j].inputs.end(), value))
          return std::nullopt;
      if (body.outputs[0] == value) return std::nullopt;
    }
    const Tensor* result = node.outputs.size() == 1 ? tensor(node.outputs[0]) : nullptr;
    if (node.op == OpKind::kMean && k + 1 == body.nodes.size() && !tail.inner_product &&
        !tail.steps.empty() && node.inputs.size() == 1 && node.inputs[0] == value && result &&
        IsValue(result->dtype, tail.integer)) {
      // One run of axes, and a result of as many elements as it makes.
      const MeanExtents e = MeanExtentsOf(shape, MeanAttrs::Of(node.attrs).axes);
      if (e.count < 0 || NumElements(result->shape) != e.outer * e.inner) return std::nullopt;
      tail.mean = true;
      value = node.outputs[0];
      break;
    }
    if (!result || !(result->shape == shape) || !IsValue(result->dtype, tail.integer))
      return std::nullopt;
    ChainStep step;
    step.op = node.op;
    TensorId other = kNoTensor;
    if (IsClamp(node.op) || (IsFloatUnary(node.op) && !tail.integer)) {
      if (node.inputs.size() != 1 || node.inputs[0] != value) return std::nullopt;
    } else if (node.op == OpKind::kLookupTable && tail.integer) {
      if (node.inputs.size() != 2 || node.inputs[0] != value || node.inputs[1] == value)
        return std::nullopt;
      other = node.inputs[1];  // the table, read whole
      const Tensor* t = tensor(other);
      if (!t || !IsQuantizedFormat(t->dtype) || t->sparsity) return std::nullopt;
    } else if ((IsBinary(node.op) || node.op == OpKind::kPRelu) && node.inputs.size() == 2 &&
               (node.inputs[0] == value) != (node.inputs[1] == value)) {
      step.value_first = node.inputs[0] == value;
      if (node.op == OpKind::kPRelu && !step.value_first)
        return std::nullopt;  // a slope from the map
      other = node.inputs[step.value_first ? 1 : 0];
      const Tensor* o = tensor(other);
      if (!o || !IsValue(o->dtype, tail.integer) || o->sparsity) return std::nullopt;
      const std::optional<ChainStep::Operand> operand = OperandOf(o->shape, shape);
      if (!operand) return std::nullopt;
      step.operand = *operand;
      step.activation = FusedActivation(node.attrs);
    } else {
      return std::nullopt;
    }
    tail.nodes.push_back(static_cast<NodeId>(k));
    tail.steps.push_back(step);
    tail.others.push_back(other);
    value = node.outputs[0];
  }
  if (body.outputs[0] != value) return std::nullopt;
  return tail;
}

}  // namespace opuc::cpu
