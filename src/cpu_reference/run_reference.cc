//===- src/cpu_reference/run_reference.cc - A whole graph -----------------===//
//
// The walk every CPU executor shares (RunGraphWith; the reference evaluates
// each node with EvaluateNode). It takes the nodes in their (topological) order.
// Graph inputs are used where the caller holds them, constants as views of
// their bytes, and every other value lives in one slot per tensor until the
// node that reads it last has run: the last uses are computed once, before
// the walk.
//
//===----------------------------------------------------------------------===//
#include <limits>

#include "evaluate.h"
#include "opuc/cpu_reference/reference.h"
#include "opuc/ir/id_vector.h"
#include "support/format.h"

namespace opuc {
namespace {

constexpr NodeId kKeep = std::numeric_limits<NodeId>::max();

/// For each tensor, the last node that reads or writes it; graph outputs are
/// kept to the end. An output nobody reads is freed right after its node.
IdVector<TensorId, NodeId> LastUses(const Graph& graph) {
  IdVector<TensorId, NodeId> last(graph.tensors.size(), -1);
  for (NodeId k : Ids<NodeId>(graph.nodes.size())) {
    const Node& node = graph.node(k);
    for (TensorId id : node.inputs)
      if (reference::InRange(id, graph)) last[id] = k;
    for (TensorId id : node.outputs)
      if (reference::InRange(id, graph)) last[id] = k;
  }
  for (TensorId id : graph.outputs)
    if (reference::InRange(id, graph)) last[id] = kKeep;
  return last;
}

Status CheckGraphInputs(const Graph& graph, const std::vector<HostTensor>& inputs) {
  if (inputs.size() != graph.inputs.size())
    return InvalidArgument(Cat("graph '", graph.name, "' has ", graph.inputs.size(),
                               " inputs; given ", inputs.size()));
  for (size_t i = 0; i < inputs.size(); ++i) {
    const TensorId id = graph.inputs[i];
    if (!reference::InRange(id, graph))
      return InvalidArgument(Cat("graph input ", i, " is tensor ", id, ", which does not exist"));
    const Tensor& t = graph.tensor(id);
    if (!(inputs[i].type() == t.type()))
      return InvalidArgument(Cat("input ", i, " '", t.name, "' is ", DescribeType(inputs[i]),
                                 "; the graph declares ", DTypeName(t.dtype),
                                 ShapeToString(t.shape)));
  }
  for (TensorId id : graph.outputs)
    if (!reference::InRange(id, graph))
      return InvalidArgument(Cat("graph output tensor ", id, " does not exist"));
  return OkStatus();
}

class Walk {
 public:
  Walk(const Graph& graph, const std::vector<HostTensor>& inputs, const TensorObserver& observe,
       const reference::NodeEvaluatorFn& evaluate)
      : graph_(graph),
        observe_(observe),
        evaluate_(evaluate),
        value_(graph.tensors.size()),
        slot_(graph.tensors.size()) {
    for (size_t i = 0; i < inputs.size(); ++i) value_[graph.inputs[i]] = &inputs[i];
  }

  Status Run() {
    if (observe_)
      for (TensorId t : graph_.inputs) OPUC_RETURN_IF_ERROR(observe_(t, *value_[t]));
    const IdVector<TensorId, NodeId> last = LastUses(graph_);
    for (NodeId id : Ids<NodeId>(graph_.nodes.size())) {
      const Node& node = graph_.node(id);
      std::vector<const HostTensor*> args;
      for (TensorId t : node.inputs) {
        OPUC_ASSIGN_OR_RETURN(const HostTensor* arg, Value(t, id));
        args.push_back(arg);
      }
      std::vector<HostTensor> results;
      OPUC_RETURN_IF_ERROR(evaluate_(graph_, id, args, &results));
      for (size_t j = 0; j < results.size(); ++j) {
        Store(node.outputs[j], std::move(results[j]));
        if (observe_) OPUC_RETURN_IF_ERROR(observe_(node.outputs[j], slot_[node.outputs[j]]));
      }
      for (const auto* list : {&node.inputs, &node.outputs})
        for (TensorId t : *list)
          if (reference::InRange(t, graph_) && last[t] == id) Release(t);
    }
    return OkStatus();
  }

  /// The value of graph output `t`, moved out when this run made it.
  Expected<HostTensor> TakeOutput(TensorId t) {
    OPUC_ASSIGN_OR_RETURN(const HostTensor* v, Value(t, -1));
    if (!v)
      return InvalidArgument(
          Cat("graph output ", DescribeTensor(graph_, t), " is a sparse constant"));
    HostTensor result = v == &slot_[t] ? std::move(slot_[t]) : *v;
    Release(t);
    return result;
  }

 private:
  /// The value of tensor `t` as node `reader` sees it (nullptr: absent
  /// optional input or sparse constant, which kernels read from the graph).
  Expected<const HostTensor*> Value(TensorId t, NodeId reader) {
    if (t == kNoTensor) return static_cast<const HostTensor*>(nullptr);
    const std::string who = reader < 0 ? std::string("graph output") : DescribeNode(graph_, reader);
    if (!reference::InRange(t, graph_))
      return InvalidArgument(Cat(who, ": tensor ", t, " does not exist"));
    if (value_[t]) return value_[t];
    const Tensor& tensor = graph_.tensor(t);
    if (tensor.sparsity) return static_cast<const HostTensor*>(nullptr);
    if (!tensor.constant)
      return InvalidArgument(Cat(who, ": ", DescribeTensor(graph_, t),
                                 " has no value (not a graph input, a constant, or the output "
                                 "of an earlier node)"));
    Expected<HostTensor> view = HostTensor::FromConstant(tensor);
    if (!view.ok()) return view.status().WithContext(who);
    Store(t, std::move(view).value());
    return value_[t];
  }

  void Store(TensorId t, HostTensor v) {
    slot_[t] = std::move(v);
    value_[t] = &slot_[t];
  }

  void Release(TensorId t) {
    slot_[t] = HostTensor();
    value_[t] = nullptr;
  }

  const Graph& graph_;
  const TensorObserver& observe_;
  const reference::NodeEvaluatorFn& evaluate_;
  IdVector<TensorId, const HostTensor*> value_;  ///< Where each tensor's value is, if anywhere.
  IdVector<TensorId, HostTensor> slot_;          ///< Values this run made or viewed.
};

}  // namespace

Expected<std::vector<HostTensor>> RunReference(const Graph& graph,
                                               const std::vector<HostTensor>& inputs) {
  return RunReference(graph, inputs, TensorObserver());
}

Expected<std::vector<HostTensor>> RunReference(const Graph& graph,
                                               const std::vector<HostTensor>& inputs,
                                               const TensorObserver& observe) {
  return reference::RunGraphWith(graph, inputs, observe, &EvaluateNode);
}

Expected<std::vector<HostTensor>> reference::RunGraphWith(const Graph& graph,
                                                          const std::vector<HostTensor>& inputs,
                                                          const TensorObserver& observe,
                                                          const NodeEvaluatorFn& evaluate) {
  OPUC_RETURN_IF_ERROR(CheckGraphInputs(graph, inputs));
  Walk walk(graph, inputs, observe, evaluate);
  OPUC_RETURN_IF_ERROR(walk.Run());
  std::vector<HostTensor> outputs;
  for (TensorId t : graph.outputs) {
    OPUC_ASSIGN_OR_RETURN(HostTensor out, walk.TakeOutput(t));
    outputs.push_back(std::move(out));
  }
  return outputs;
}

}  // namespace opuc
