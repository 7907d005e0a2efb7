//===- src/runtime/run_nodes.h - Some nodes on a CPU executor ----*- C++ -*-===//
#ifndef OPUC_SRC_RUNTIME_RUN_NODES_H
#define OPUC_SRC_RUNTIME_RUN_NODES_H

#include <map>
#include <vector>

#include "opuc/cpu_reference/reference.h"
#include "opuc/ir/graph.h"
#include "opuc/status.h"
#include "opuc/tensor_io/host_tensor.h"

namespace opuc {

/// Evaluates `nodes` of `graph`, in the order given, with `evaluate`
/// (EvaluateNode: the integer reference; EvaluateNodeOnCpu: the CPU
/// executor). Inputs come from `values` (constants are viewed in
/// the graph); every output is added to `values`. An input no one made is
/// an error naming the node and the tensor.
Status RunNodes(const Graph& graph, const std::vector<NodeId>& nodes,
                std::map<TensorId, HostTensor>& values, NodeEvaluator evaluate);

}  // namespace opuc

#endif  // OPUC_SRC_RUNTIME_RUN_NODES_H
