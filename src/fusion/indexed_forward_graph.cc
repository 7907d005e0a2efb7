//===- src/fusion/indexed_forward_graph.cc - Nodes, edges, edge lists -----===//
//
// Edges are collected as they are added and laid out once, by Finalize, as
// two compressed lists (consumers of each node, producers of each node):
// a stable counting sort keeps the order in which edges were added.
//
//===----------------------------------------------------------------------===//
#include "opuc/fusion/indexed_forward_graph.h"

#include <cassert>

#include "support/format.h"

namespace opuc {

void IndexedForwardGraph::Reserve(size_t nodes, size_t edges) {
  nodes_.reserve(nodes);
  pending_.reserve(edges);
}

int32_t IndexedForwardGraph::AddNode(const Node& node) {
  nodes_.push_back(node);
  return static_cast<int32_t>(nodes_.size() - 1);
}

Status IndexedForwardGraph::AddEdge(int32_t producer, int32_t consumer, OpPatternKind pattern) {
  const auto count = static_cast<int32_t>(nodes_.size());
  if (!out_begin_.empty()) return InternalError("AddEdge after Finalize");
  if (producer < 0 || producer >= count || consumer < 0 || consumer >= count)
    return InvalidArgument(Cat("edge #", producer, " -> #", consumer, " names a node that does not",
                               " exist (", count, " nodes)"));
  if (producer >= consumer)
    return InvalidArgument(Cat("edge #", producer, " -> #", consumer,
                               " goes backwards; nodes must be added in topological order"));
  pending_.push_back({producer, consumer, pattern});
  return OkStatus();
}

void IndexedForwardGraph::Finalize() {
  assert(out_begin_.empty() && "Finalize called twice");
  const size_t n = nodes_.size();
  out_begin_.assign(n + 1, 0);
  in_begin_.assign(n + 1, 0);
  for (const PendingEdge& e : pending_) {
    ++out_begin_[static_cast<size_t>(e.producer) + 1];
    ++in_begin_[static_cast<size_t>(e.consumer) + 1];
  }
  for (size_t i = 0; i < n; ++i) {
    out_begin_[i + 1] += out_begin_[i];
    in_begin_[i + 1] += in_begin_[i];
  }
  out_edges_.resize(pending_.size());
  in_nodes_.resize(pending_.size());
  std::vector<uint32_t> out_fill(out_begin_.begin(), out_begin_.end() - 1);
  std::vector<uint32_t> in_fill(in_begin_.begin(), in_begin_.end() - 1);
  for (const PendingEdge& e : pending_) {
    out_edges_[out_fill[static_cast<size_t>(e.producer)]++] = {e.consumer, e.pattern};
    in_nodes_[in_fill[static_cast<size_t>(e.consumer)]++] = e.producer;
  }
  pending_.clear();
  pending_.shrink_to_fit();
}

IndexedForwardGraph::Range<IndexedForwardGraph::Edge> IndexedForwardGraph::outputs(
    int32_t id) const {
  assert(!out_begin_.empty() && "read edges before Finalize");
  const auto i = static_cast<size_t>(id);
  return {out_edges_.data() + out_begin_[i], out_edges_.data() + out_begin_[i + 1]};
}

IndexedForwardGraph::Range<int32_t> IndexedForwardGraph::inputs(int32_t id) const {
  assert(!in_begin_.empty() && "read edges before Finalize");
  const auto i = static_cast<size_t>(id);
  return {in_nodes_.data() + in_begin_[i], in_nodes_.data() + in_begin_[i + 1]};
}

std::string DescribeForwardNode(const IndexedForwardGraph& forward, const Graph* graph,
                                int32_t id) {
  if (id < 0 || static_cast<size_t>(id) >= forward.size()) return Cat("#", id, " (no such node)");
  const IndexedForwardGraph::Node& node = forward.node(id);
  if (!graph || node.ref < 0) return Cat("#", id);
  switch (node.kind) {
    case IndexedForwardGraph::NodeKind::kOp: return DescribeNode(*graph, node.ref);
    case IndexedForwardGraph::NodeKind::kTuple:
      return Cat("the tuple of ", DescribeNode(*graph, node.ref));
    case IndexedForwardGraph::NodeKind::kGraphInput:
      return Cat("graph input ", DescribeTensor(*graph, node.ref));
    case IndexedForwardGraph::NodeKind::kConstant:
      return Cat("constant ", DescribeTensor(*graph, node.ref));
  }
  return Cat("#", id);
}

}  // namespace opuc
