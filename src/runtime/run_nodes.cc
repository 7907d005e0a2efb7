//===- src/runtime/run_nodes.cc - Some nodes on a CPU executor ------------===//
#include "run_nodes.h"

#include "opuc/cpu_reference/reference.h"
#include "support/format.h"

namespace opuc {

Status RunNodes(const Graph& graph, const std::vector<NodeId>& nodes,
                std::map<TensorId, HostTensor>& values, NodeEvaluator evaluate) {
  std::map<TensorId, HostTensor> constants;  // views, for this call only
  for (NodeId id : nodes) {
    const Node& node = graph.node(id);
    std::vector<const HostTensor*> args;
    for (TensorId t : node.inputs) {
      if (t == kNoTensor || graph.tensor(t).sparsity) {
        args.push_back(nullptr);  // absent, or sparse (kernels read it from the graph)
        continue;
      }
      if (const auto it = values.find(t); it != values.end()) {
        args.push_back(&it->second);
        continue;
      }
      if (!graph.tensor(t).is_constant())
        return InvalidArgument(Cat(DescribeNode(graph, id), ": ", DescribeTensor(graph, t),
                                   " has no value (no earlier step made it)"));
      auto it = constants.find(t);
      if (it == constants.end()) {
        Expected<HostTensor> view = HostTensor::FromConstant(graph.tensor(t));
        if (!view.ok()) return view.status().WithContext(DescribeNode(graph, id));
        it = constants.emplace(t, std::move(view).value()).first;
      }
      args.push_back(&it->second);
    }
    std::vector<HostTensor> results;
    OPUC_RETURN_IF_ERROR(evaluate(graph, id, args, &results));
    for (size_t j = 0; j < results.size(); ++j)
      values.insert_or_assign(node.outputs[j], std::move(results[j]));
  }
  return OkStatus();
}

}  // namespace opuc
