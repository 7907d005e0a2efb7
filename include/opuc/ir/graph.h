//===- opuc/ir/graph.h - The IR graph ---------------------------*- C++ -*-===//
//
// A Graph is a DAG in SSA form: every tensor is a graph input, a constant, or
// the output of exactly one node, and nodes are stored in topological order.
// The structure is plain data so passes can rebuild it freely; Verify()
// (verifier.h) checks every invariant stated here. docs/ir.md describes it.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_IR_GRAPH_H
#define OPUC_IR_GRAPH_H

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "opuc/ir/attributes.h"
#include "opuc/ir/op_kind.h"
#include "opuc/ir/tensor.h"

namespace opuc {

/// Index of a node in Graph::nodes.
using NodeId = int32_t;

struct Graph;

struct Node {
  std::string name;  ///< For messages and dumps; may be empty.
  OpKind op = OpKind::kRelu;
  std::vector<TensorId> inputs;  ///< kNoTensor marks an absent optional input.
  std::vector<TensorId> outputs;
  Attributes attrs;
  /// `fused` nodes only: the function, a graph whose inputs are the
  /// parameters (one per node input, same types) and whose one output is the
  /// node's. Immutable and shared by copies of the node.
  std::shared_ptr<const Graph> body = nullptr;
};

struct Graph {
  std::string name;
  std::vector<Tensor> tensors;
  std::vector<Node> nodes;  ///< Topological order.
  std::vector<TensorId> inputs;
  std::vector<TensorId> outputs;
  std::vector<std::pair<std::string, std::string>> metadata;

  /// Appends a tensor and returns its id.
  TensorId AddTensor(Tensor tensor);
  /// Appends a constant tensor whose bytes are `data`.
  TensorId AddConstant(std::string name, DType dtype, Shape shape, ConstantData data);
  /// Appends a node; attributes the op declares but `node.attrs` omits get
  /// their registry defaults, so every node carries its whole attribute set.
  NodeId AddNode(Node node);

  const Tensor& tensor(TensorId id) const { return tensors[static_cast<size_t>(id)]; }
  Tensor& tensor(TensorId id) { return tensors[static_cast<size_t>(id)]; }
  const Node& node(NodeId id) const { return nodes[static_cast<size_t>(id)]; }

  /// For each tensor, the node that produces it, or -1 (inputs, constants).
  std::vector<NodeId> Producers() const;

  /// Total bytes of constant data.
  uint64_t ConstantBytes() const;
};

/// "node 3 'conv1' (conv2d)" — how messages name a node.
std::string DescribeNode(const Graph& graph, NodeId id);
/// "tensor 7 'conv1/out'" — how messages name a tensor.
std::string DescribeTensor(const Graph& graph, TensorId id);

}  // namespace opuc

#endif  // OPUC_IR_GRAPH_H
