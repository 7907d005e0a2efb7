//===- src/cpu/memory_plan.cc - A graph's values in one arena -----===//
#include "memory_plan.h"

#include <algorithm>

namespace opuc::cpu {

TensorLayout LayOutTensors(const Graph& graph) {
  const size_t count = graph.tensors.size();
  const auto valid = [&](TensorId t) { return t >= 0 && static_cast<size_t>(t) < count; };
  std::vector<int64_t> first(count, -1), last(count, -1);
  for (size_t k = 0; k < graph.nodes.size(); ++k) {
    const Node& node = graph.nodes[k];
    for (TensorId t : node.outputs)
      if (valid(t) && first[static_cast<size_t>(t)] < 0)
        first[static_cast<size_t>(t)] = static_cast<int64_t>(k);
    for (TensorId t : node.inputs)
      if (valid(t)) last[static_cast<size_t>(t)] = static_cast<int64_t>(k);
  }
  for (TensorId t : graph.outputs)
    if (valid(t)) first[static_cast<size_t>(t)] = -1;  // the caller keeps them

  TensorLayout layout;
  layout.offset.assign(count, -1);
  std::vector<ArenaBuffer> buffers;
  std::vector<size_t> owner;  // tensor of each buffer
  for (size_t t = 0; t < count; ++t) {
    const Tensor& tensor = graph.tensors[t];
    if (first[t] < 0 || tensor.constant) continue;
    const std::optional<int64_t> elements = NumElements(tensor.shape);
    if (!elements) continue;  // the kernel's own allocation reports it
    buffers.push_back({*elements * static_cast<int64_t>(DTypeSize(tensor.dtype)), first[t],
                       std::max(first[t], last[t])});
    owner.push_back(t);
  }
  layout.arena = PlanArena(buffers);
  for (size_t b = 0; b < buffers.size(); ++b) layout.offset[owner[b]] = layout.arena.offsets[b];
  layout.values = static_cast<int64_t>(buffers.size());
  return layout;
}

}  // namespace opuc::cpu
