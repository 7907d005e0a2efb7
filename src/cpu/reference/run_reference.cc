//===- src/cpu/reference/run_reference.cc - A whole graph -----------------===//
//
// Walks the nodes in their (topological) order. Graph inputs are used where
// the caller holds them, constants as views of their bytes, and every other
// value lives in one slot per tensor until the node that reads it last has
// run: the last uses are computed once, before the walk.
//
//===----------------------------------------------------------------------===//
#include <limits>

#include "opuc/cpu/reference.h"
#include "support/format.h"

namespace opuc {
namespace {

constexpr NodeId kKeep = std::numeric_limits<NodeId>::max();

bool InRange(TensorId id, const Graph& graph) {
  return id >= 0 && static_cast<size_t>(id) < graph.tensors.size();
}

/// For each tensor, the last node that reads or writes it; graph outputs are
/// kept to the end. An output nobody reads is freed right after its node.
std::vector<NodeId> LastUses(const Graph& graph) {
  std::vector<NodeId> last(graph.tensors.size(), -1);
  for (size_t k = 0; k < graph.nodes.size(); ++k) {
    const Node& node = graph.nodes[k];
    for (TensorId id : node.inputs)
      if (InRange(id, graph)) last[static_cast<size_t>(id)] = static_cast<NodeId>(k);
    for (TensorId id : node.outputs)
      if (InRange(id, graph)) last[static_cast<size_t>(id)] = static_cast<NodeId>(k);
  }
  for (TensorId id : graph.outputs)
    if (InRange(id, graph)) last[static_cast<size_t>(id)] = kKeep;
  return last;
}

Status CheckGraphInputs(const Graph& graph, const std::vector<HostTensor>& inputs) {
  if (inputs.size() != graph.inputs.size())
    return InvalidArgument(Cat("graph '", graph.name, "' has ", graph.inputs.size(),
                               " inputs; given ", inputs.size()));
  for (size_t i = 0; i < inputs.size(); ++i) {
    const TensorId id = graph.inputs[i];
    if (!InRange(id, graph))
      return InvalidArgument(Cat("graph input ", i, " is tensor ", id, ", which does not exist"));
    const Tensor& t = graph.tensor(id);
    if (!(inputs[i].type() == t.type()))
      return InvalidArgument(Cat("input ", i, " '", t.name, "' is ", DescribeType(inputs[i]),
                                 "; the graph declares ", DTypeName(t.dtype),
                                 ShapeToString(t.shape)));
  }
  for (TensorId id : graph.outputs)
    if (!InRange(id, graph))
      return InvalidArgument(Cat("graph output tensor ", id, " does not exist"));
  return OkStatus();
}

class Walk {
 public:
  Walk(const Graph& graph, const std::vector<HostTensor>& inputs, const TensorObserver& observe)
      : graph_(graph), observe_(observe), value_(graph.tensors.size()), slot_(graph.tensors.size()) {
    for (size_t i = 0; i < inputs.size(); ++i)
      value_[static_cast<size_t>(graph.inputs[i])] = &inputs[i];
  }

  Status Run() {
    if (observe_)
      for (TensorId t : graph_.inputs) OPUC_RETURN_IF_ERROR(observe_(t, *value_[static_cast<size_t>(t)]));
    const std::vector<NodeId> last = LastUses(graph_);
    for (size_t k = 0; k < graph_.nodes.size(); ++k) {
      const auto id = static_cast<NodeId>(k);
      const Node& node = graph_.nodes[k];
      std::vector<const HostTensor*> args;
      for (TensorId t : node.inputs) {
        OPUC_ASSIGN_OR_RETURN(const HostTensor* arg, Value(t, id));
        args.push_back(arg);
      }
      std::vector<HostTensor> results;
      OPUC_RETURN_IF_ERROR(EvaluateNode(graph_, id, args, &results));
      for (size_t j = 0; j < results.size(); ++j) {
        Store(node.outputs[j], std::move(results[j]));
        if (observe_) OPUC_RETURN_IF_ERROR(observe_(node.outputs[j], slot_[static_cast<size_t>(node.outputs[j])]));
      }
      for (const auto* list : {&node.inputs, &node.outputs})
        for (TensorId t : *list)
          if (InRange(t, graph_) && last[static_cast<size_t>(t)] == id) Release(t);
    }
    return OkStatus();
  }

  /// The value of graph output `t`, moved out when this run made it.
  Expected<HostTensor> TakeOutput(TensorId t) {
    OPUC_ASSIGN_OR_RETURN(const HostTensor* v, Value(t, -1));
    const auto i = static_cast<size_t>(t);
    if (!v)
      return InvalidArgument(
          Cat("graph output ", DescribeTensor(graph_, t), " is a sparse constant"));
    HostTensor result = v == &slot_[i] ? std::move(slot_[i]) : *v;
    Release(t);
    return result;
  }

 private:
  /// The value of tensor `t` as node `reader` sees it (nullptr: absent
  /// optional input or sparse constant, which kernels read from the graph).
  Expected<const HostTensor*> Value(TensorId t, NodeId reader) {
    if (t == kNoTensor) return static_cast<const HostTensor*>(nullptr);
    const std::string who = reader < 0 ? std::string("graph output") : DescribeNode(graph_, reader);
    if (!InRange(t, graph_)) return InvalidArgument(Cat(who, ": tensor ", t, " does not exist"));
    const auto i = static_cast<size_t>(t);
    if (value_[i]) return value_[i];
    const Tensor& tensor = graph_.tensor(t);
    if (tensor.sparsity) return static_cast<const HostTensor*>(nullptr);
    if (!tensor.constant)
      return InvalidArgument(Cat(who, ": ", DescribeTensor(graph_, t),
                                 " has no value (not a graph input, a constant, or the output "
                                 "of an earlier node)"));
    Expected<HostTensor> view = HostTensor::FromConstant(tensor);
    if (!view.ok()) return view.status().WithContext(who);
    Store(t, std::move(view).value());
    return value_[i];
  }

  void Store(TensorId t, HostTensor v) {
    const auto i = static_cast<size_t>(t);
    slot_[i] = std::move(v);
    value_[i] = &slot_[i];
  }

  void Release(TensorId t) {
    const auto i = static_cast<size_t>(t);
    slot_[i] = HostTensor();
    value_[i] = nullptr;
  }

  const Graph& graph_;
  const TensorObserver& observe_;
  std::vector<const HostTensor*> value_;  ///< Where each tensor's value is, if anywhere.
  std::vector<HostTensor> slot_;          ///< Values this run made or viewed.
};

}  // namespace

Expected<std::vector<HostTensor>> RunReference(const Graph& graph,
                                               const std::vector<HostTensor>& inputs) {
  return RunReference(graph, inputs, TensorObserver());
}

Expected<std::vector<HostTensor>> RunReference(const Graph& graph,
                                               const std::vector<HostTensor>& inputs,
                                               const TensorObserver& observe) {
  OPUC_RETURN_IF_ERROR(CheckGraphInputs(graph, inputs));
  Walk walk(graph, inputs, observe);
  OPUC_RETURN_IF_ERROR(walk.Run());
  std::vector<HostTensor> outputs;
  for (TensorId t : graph.outputs) {
    OPUC_ASSIGN_OR_RETURN(HostTensor out, walk.TakeOutput(t));
    outputs.push_back(std::move(out));
  }
  return outputs;
}

}  // namespace opuc
