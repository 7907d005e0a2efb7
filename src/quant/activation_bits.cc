//===- src/quant/activation_bits.cc - Fraction lengths of activations -----===//
#include "activation_bits.h"

#include <algorithm>
#include <numeric>

#include "opuc/ir/graph_edit.h"

namespace opuc::quant {
namespace {

class UnionFind {
 public:
  explicit UnionFind(size_t n) : parent_(n) { std::iota(parent_.begin(), parent_.end(), 0); }
  size_t Find(size_t x) {
    while (parent_[x] != x) x = parent_[x] = parent_[parent_[x]];
    return x;
  }
  void Union(size_t a, size_t b) { parent_[Find(a)] = Find(b); }

 private:
  std::vector<size_t> parent_;
};

bool IsActivation(const Graph& graph, TensorId id) {
  if (id == kNoTensor) return false;
  const Tensor& t = graph.tensor(id);
  return !t.is_constant() && t.dtype == DType::kF32;
}

bool MovesValues(OpKind op) {
  switch (op) {
    case OpKind::kReshape:
    case OpKind::kPad:
    case OpKind::kDepthToSpace:
    case OpKind::kResizeNearest:
    case OpKind::kResizeBilinear:
    case OpKind::kMaxPool2D:
    case OpKind::kAvgPool2D: return true;
    default: return false;
  }
}

bool IsClamp(OpKind op) {
  return op == OpKind::kRelu || op == OpKind::kRelu6 || op == OpKind::kReluN1To1;
}

}  // namespace

ActivationGroups UnifyActivations(const Graph& graph, const std::vector<TensorId>& partial_sums) {
  const size_t n = graph.tensors.size();
  UnionFind groups(n);
  std::vector<bool> votes(n, true);
  std::vector<bool> partial(n, false);
  for (TensorId t : partial_sums) partial[static_cast<size_t>(t)] = true;
  const std::vector<int> uses = CountUses(graph);
  auto unite = [&](TensorId a, TensorId b) {
    if (IsActivation(graph, a) && IsActivation(graph, b))
      groups.Union(static_cast<size_t>(a), static_cast<size_t>(b));
  };
  for (const Node& node : graph.nodes) {
    const TensorId out = node.outputs.empty() ? kNoTensor : node.outputs[0];
    if (node.op == OpKind::kConcat) {
      for (TensorId in : node.inputs) unite(in, out);
    } else if (MovesValues(node.op)) {
      unite(node.inputs[0], out);
    } else if ((node.op == OpKind::kAdd || node.op == OpKind::kSub)) {
      unite(node.inputs[0], node.inputs[1]);
    } else if (IsClamp(node.op)) {
      const TensorId in = node.inputs[0];
      const bool only_reader =
          uses[static_cast<size_t>(in)] == 1 && !IsGraphOutput(graph, in) &&
          std::find(graph.inputs.begin(), graph.inputs.end(), in) == graph.inputs.end();
      if (only_reader && IsActivation(graph, in)) {
        votes[static_cast<size_t>(in)] = false;
        unite(in, out);
      }
    }
  }
  // A split layer's partial sums vote for their own range (the sum may be
  // small where they are not: a regression head's terms cancel), except
  // where the sum is a clamp's input, which does not vote: then they take
  // the clamp's length as the layer's output did before the split (a value
  // the clamp removes may clip; one it keeps needs the clamp's resolution).
  for (const Node& node : graph.nodes) {
    if (node.op != OpKind::kAdd || !partial[static_cast<size_t>(node.inputs[0])]) continue;
    const TensorId sum = node.outputs[0];
    if (votes[static_cast<size_t>(sum)]) continue;
    for (TensorId in : node.inputs) votes[static_cast<size_t>(in)] = false;
    unite(node.inputs[0], sum);
  }
  ActivationGroups result{std::vector<size_t>(n), std::move(votes)};
  for (size_t t = 0; t < n; ++t) result.group[t] = groups.Find(t);
  return result;
}

std::vector<int> ChooseActivationBits(const Graph& graph, const std::vector<TensorStats>& stats,
                                      const std::vector<TensorId>& partial_sums) {
  const size_t n = graph.tensors.size();
  const ActivationGroups groups = UnifyActivations(graph, partial_sums);
  // Each group's length: the least of its voters' choices.
  std::vector<int> group_bits(n, kMaxActivationBits + 1);
  for (size_t t = 0; t < n; ++t)
    if (IsActivation(graph, static_cast<TensorId>(t)) && groups.votes[t]) {
      int& bits = group_bits[groups.group[t]];
      bits = std::min(bits, BestFractionBits(stats[t]));
    }
  std::vector<int> result(n, kNoBits);
  for (size_t t = 0; t < n; ++t) {
    if (!IsActivation(graph, static_cast<TensorId>(t))) continue;
    const int bits = group_bits[groups.group[t]];
    result[t] = bits > kMaxActivationBits ? BestFractionBits(stats[t]) : bits;
  }
  return result;
}

}  // namespace opuc::quant
