//===- src/pass/fold_util.cc - Evaluate nodes into constants --------------===//
#include "fold_util.h"

#include <optional>

#include "opuc/cpu_reference/reference.h"
#include "opuc/ir/graph_edit.h"
#include "opuc/tensor_io/host_tensor.h"

namespace opuc {
namespace {

bool AllInputsDenseConstants(const Graph& graph, const Node& node) {
  if (node.inputs.empty()) return false;  // never fold a node with no inputs
  for (TensorId in : node.inputs) {
    if (in == kNoTensor) continue;
    const Tensor& t = graph.tensor(in);
    if (!t.is_constant() || t.sparsity) return false;
  }
  return true;
}

bool OutputsFit(const Graph& graph, const Node& node, int64_t max_bytes) {
  for (TensorId out : node.outputs) {
    const Tensor& t = graph.tensor(out);
    // Compared by division: elements * size may not fit int64.
    const std::optional<int64_t> elements = NumElements(t.shape);
    const auto size = static_cast<int64_t>(DTypeSize(t.dtype));
    if (!elements || *elements > max_bytes / size) return false;
  }
  return true;
}

}  // namespace

Expected<int64_t> FoldConstantNodes(Graph& graph, const std::function<bool(const Node&)>& select,
                                    int64_t max_output_bytes) {
  std::vector<bool> erase(graph.nodes.size(), false);
  int64_t folded = 0;
  for (size_t n = 0; n < graph.nodes.size(); ++n) {
    const Node& node = graph.nodes[n];
    if (!select(node) || !AllInputsDenseConstants(graph, node) ||
        !OutputsFit(graph, node, max_output_bytes))
      continue;
    std::vector<HostTensor> inputs;
    inputs.reserve(node.inputs.size());
    std::vector<const HostTensor*> input_ptrs;
    for (TensorId in : node.inputs) {
      if (in == kNoTensor) {
        input_ptrs.push_back(nullptr);
        continue;
      }
      OPUC_ASSIGN_OR_RETURN(HostTensor t, HostTensor::FromConstant(graph.tensor(in)));
      inputs.push_back(std::move(t));
      input_ptrs.push_back(&inputs.back());
    }
    std::vector<HostTensor> outputs;
    OPUC_RETURN_IF_ERROR(EvaluateNode(graph, static_cast<NodeId>(n), input_ptrs, &outputs));
    for (size_t i = 0; i < node.outputs.size(); ++i)
      graph.tensor(node.outputs[i]).constant = std::move(outputs[i]).ToConstantData();
    erase[n] = true;
    ++folded;
  }
  if (folded == 0) return folded;
  EraseNodes(graph, erase);
  RemoveUnusedTensors(graph);
  return folded;
}

}  // namespace opuc
