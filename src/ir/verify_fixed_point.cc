//===- src/ir/verify_fixed_point.cc - Fixed-point rules -------------------===//
#include "verify_fixed_point.h"

#include <vector>

#include "support/format.h"

namespace opuc {
namespace {

constexpr int kMinFraction = -8;
constexpr int kMaxActivationFraction = 15;      // i8, u8
constexpr int kMaxWideActivationFraction = 23;  // i16
constexpr int kMaxWeightFraction = 23;

enum class Role : uint8_t { kActivation, kWeight, kTable };

/// The role each tensor plays for the nodes that read it.
std::vector<Role> Roles(const Graph& graph) {
  std::vector<Role> roles(graph.tensors.size(), Role::kActivation);
  for (const Node& node : graph.nodes) {
    if (node.inputs.size() < 2 || node.inputs[1] == kNoTensor) continue;
    const auto second = static_cast<size_t>(node.inputs[1]);
    switch (node.op) {
      case OpKind::kConv2D:
      case OpKind::kDepthwiseConv2D:
      case OpKind::kTransposeConv2D:
      case OpKind::kFullyConnected:
      case OpKind::kPRelu: roles[second] = Role::kWeight; break;
      case OpKind::kLookupTable: roles[second] = Role::kTable; break;
      default: break;
    }
  }
  return roles;
}

/// Whether a fixed point is required: a graph input or node output in a
/// quantized format (i8, u8, i16) of a quantized graph, unless it is a table
/// or the output of densify (a constant in disguise, checked like one).
Status CheckTensor(const Graph& graph, TensorId id, Role role, bool needs_fixed_point) {
  const Tensor& t = graph.tensor(id);
  const FixedPoint& fp = t.fixed_point;
  if (fp.empty()) {
    if (!needs_fixed_point || !IsQuantizedFormat(t.dtype) || role == Role::kTable)
      return OkStatus();
    return InvalidArgument(Cat(DescribeTensor(graph, id), ": ", DTypeName(t.dtype),
                               " tensor of a quantized graph has no fixed point (every graph"
                               " input and node output in i8, u8 or i16 needs one)"));
  }
  const bool weight_like = role == Role::kWeight || fp.axis != -1;
  if (fp.axis != -1 && !t.is_constant() && role != Role::kWeight)
    return InvalidArgument(Cat(DescribeTensor(graph, id), ": has a fixed point along axis ",
                               fp.axis, "; an activation has one fraction length"));
  const int max = weight_like              ? kMaxWeightFraction
                  : t.dtype == DType::kI16 ? kMaxWideActivationFraction
                                           : kMaxActivationFraction;
  for (size_t i = 0; i < fp.fraction_bits.size(); ++i) {
    const int32_t f = fp.fraction_bits[i];
    if (f < kMinFraction || f > max)
      return InvalidArgument(Cat(DescribeTensor(graph, id), ": fraction length ", f,
                                 fp.axis == -1 ? std::string() : Cat(" at index ", i),
                                 " is out of range; expected [", kMinFraction, ", ", max, "] for ",
                                 weight_like ? "weights" : "an activation"));
  }
  return OkStatus();
}

}  // namespace

Status VerifyFixedPoints(const Graph& graph) {
  bool quantized = false;
  for (const Tensor& t : graph.tensors) quantized = quantized || !t.fixed_point.empty();
  if (!quantized) return OkStatus();
  const std::vector<Role> roles = Roles(graph);
  std::vector<bool> activation(graph.tensors.size(), false);
  for (TensorId in : graph.inputs) activation[static_cast<size_t>(in)] = true;
  for (const Node& node : graph.nodes)
    if (node.op != OpKind::kDensify)
      for (TensorId out : node.outputs) activation[static_cast<size_t>(out)] = true;
  for (size_t i = 0; i < graph.tensors.size(); ++i)
    OPUC_RETURN_IF_ERROR(CheckTensor(graph, static_cast<TensorId>(i), roles[i], activation[i]));
  return OkStatus();
}

}  // namespace opuc
