//===- opuc/fusion/indexed_forward_graph.h - The graph fusion reads -*- C++ -*-===//
//
// TVM's IndexedForwardGraph: the dataflow of an IR graph as numbered nodes in
// a topological order (TVM's post-DFS order), each with its pattern kind
// and its output edges, each edge with a pattern. It is what the
// post-dominator tree and the partitioner work on, and it can also be built
// by hand (tests, benchmarks).
//
// From an IR graph (BuildIndexedForwardGraph) there is
//   - one node per graph input (opaque) and per constant that a node reads:
//     opaque, except a one-element constant, which is elemwise (TVM's
//     "simple constant", inlined into fused functions rather than passed);
//   - one node per IR op, with the op's pattern kind;
//   - a virtual tuple node in front of every concat, as TVM's concatenate
//     takes a Tuple: the concat's inputs feed the tuple (injective edges),
//     the tuple feeds the concat.
// An edge has the consumer's pattern, except that a broadcast edge whose
// input has the output's shape is elemwise. Nodes that produce a graph
// output are `extern_ref`. docs/fusion.md has the details.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_FUSION_INDEXED_FORWARD_GRAPH_H
#define OPUC_FUSION_INDEXED_FORWARD_GRAPH_H

#include <cstdint>
#include <string>
#include <vector>

#include "opuc/ir/graph.h"
#include "opuc/ir/op_pattern.h"
#include "opuc/status.h"

namespace opuc {

class IndexedForwardGraph {
 public:
  enum class NodeKind : uint8_t { kGraphInput, kConstant, kOp, kTuple };

  struct Node {
    NodeKind kind = NodeKind::kOp;
    OpPatternKind pattern = OpPatternKind::kOpaque;
    /// Read outside the graph (a graph output): it never fuses into a consumer.
    bool extern_ref = false;
    /// The IR NodeId (kOp, and for kTuple the concat it feeds) or TensorId
    /// (kGraphInput, kConstant); -1 for a graph built by hand.
    int32_t ref = -1;
  };

  struct Edge {
    int32_t node = -1;  ///< The consumer.
    OpPatternKind pattern = OpPatternKind::kOpaque;
  };

  template <typename T>
  class Range {
   public:
    Range(const T* first, const T* last) : first_(first), last_(last) {}
    const T* begin() const { return first_; }
    const T* end() const { return last_; }
    size_t size() const { return static_cast<size_t>(last_ - first_); }
    bool empty() const { return first_ == last_; }

   private:
    const T* first_;
    const T* last_;
  };

  /// Room for this many nodes and edges (optional; saves regrowing).
  void Reserve(size_t nodes, size_t edges);
  /// Appends a node; nodes are added in topological order. Returns its index.
  int32_t AddNode(const Node& node);
  /// Adds the edge producer -> consumer; the producer must come first.
  Status AddEdge(int32_t producer, int32_t consumer, OpPatternKind pattern);
  /// Builds the edge lists; call once, after the last AddEdge.
  void Finalize();

  size_t size() const { return nodes_.size(); }
  size_t num_edges() const { return out_edges_.size(); }
  const Node& node(int32_t id) const { return nodes_[static_cast<size_t>(id)]; }
  void set_extern_ref(int32_t id) { nodes_[static_cast<size_t>(id)].extern_ref = true; }

  /// The consumers of `id`, one edge per use, in the order they were added.
  Range<Edge> outputs(int32_t id) const;
  /// The producers of `id`, one per use, in the order they were added.
  Range<int32_t> inputs(int32_t id) const;

  bool IsOp(int32_t id) const { return node(id).kind == NodeKind::kOp; }
  bool IsTuple(int32_t id) const { return node(id).kind == NodeKind::kTuple; }
  /// A one-element constant: copied into every fused function that reads it.
  bool IsSimpleConstant(int32_t id) const {
    return node(id).kind == NodeKind::kConstant && node(id).pattern == OpPatternKind::kElemWise;
  }

  /// Filled by BuildIndexedForwardGraph (empty for graphs built by hand):
  /// the node of each IR node, and the node that produces each tensor (-1
  /// for a tensor no node reads and no op writes).
  std::vector<int32_t> node_of_op;
  std::vector<int32_t> node_of_tensor;

 private:
  struct PendingEdge {
    int32_t producer;
    int32_t consumer;
    OpPatternKind pattern;
  };
  std::vector<Node> nodes_;
  std::vector<PendingEdge> pending_;
  std::vector<uint32_t> out_begin_;  // size() + 1 offsets into out_edges_
  std::vector<Edge> out_edges_;
  std::vector<uint32_t> in_begin_;  // size() + 1 offsets into in_nodes_
  std::vector<int32_t> in_nodes_;
};

/// The forward graph of `graph`, in its (topological) node order: graph
/// inputs first, then for each node its constants on first use, a concat's
/// tuple, and the node; a depth-first listing gives TVM's post-DFS order.
/// Errors name the node: an input that does not exist, or that is neither a
/// graph input, a constant nor the output of an earlier node.
Expected<IndexedForwardGraph> BuildIndexedForwardGraph(const Graph& graph);

/// "node 3 'conv1' (conv2d)", "tuple of node 7 ...", "input tensor 0 'x'",
/// "constant tensor 4 'w'", or "#12" for a graph built by hand.
std::string DescribeForwardNode(const IndexedForwardGraph& forward, const Graph* graph, int32_t id);

}  // namespace opuc

#endif  // OPUC_FUSION_INDEXED_FORWARD_GRAPH_H
