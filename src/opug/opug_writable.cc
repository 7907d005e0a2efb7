//===- src/opug/opug_writable.cc - What .opug can hold ----------------===//
#include "opug_writable.h"

#include "opuc/ir/verifier.h"
#include "support/format.h"

namespace opuc {
namespace {

Status CheckDense(const Graph& graph) {
  for (size_t i = 0; i < graph.tensors.size(); ++i)
    if (graph.tensors[i].sparsity)
      return Unsupported(Cat(DescribeTensor(graph, static_cast<TensorId>(i)),
                             ": .opug cannot hold sparse constants yet; densify them first"
                             " (the Densify pass)"));
  for (size_t n = 0; n < graph.nodes.size(); ++n)
    if (graph.nodes[n].body)
      OPUC_RETURN_IF_ERROR(
          CheckDense(*graph.nodes[n].body)
              .WithContext(Cat(DescribeNode(graph, static_cast<NodeId>(n)), ": body")));
  return OkStatus();
}

}  // namespace

Status CheckOpugWritable(const Graph& graph) {
  OPUC_RETURN_IF_ERROR(Verify(graph));
  return CheckDense(graph);
}

}  // namespace opuc
