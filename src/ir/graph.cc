//===- src/ir/graph.cc - The IR graph -------------------------------------===//
#include "opuc/ir/graph.h"

#include "opuc/ir/op_registry.h"
#include "support/format.h"

namespace opuc {

TensorId Graph::AddTensor(Tensor tensor) {
  tensors.push_back(std::move(tensor));
  return static_cast<TensorId>(tensors.size() - 1);
}

TensorId Graph::AddConstant(std::string tensor_name, DType dtype, Shape shape, ConstantData data) {
  Tensor tensor;
  tensor.name = std::move(tensor_name);
  tensor.dtype = dtype;
  tensor.shape = std::move(shape);
  tensor.constant = std::move(data);
  return AddTensor(std::move(tensor));
}

NodeId Graph::AddNode(Node node) {
  FillDefaultAttributes(node.op, &node.attrs);
  nodes.push_back(std::move(node));
  return static_cast<NodeId>(nodes.size() - 1);
}

std::vector<NodeId> Graph::Producers() const {
  std::vector<NodeId> producer(tensors.size(), -1);
  for (size_t n = 0; n < nodes.size(); ++n)
    for (TensorId out : nodes[n].outputs)
      if (out >= 0 && static_cast<size_t>(out) < tensors.size())
        producer[static_cast<size_t>(out)] = static_cast<NodeId>(n);
  return producer;
}

uint64_t Graph::ConstantBytes() const {
  uint64_t total = 0;
  for (const Tensor& t : tensors)
    if (t.constant) total += t.constant->size();
  return total;
}

std::string DescribeNode(const Graph& graph, NodeId id) {
  if (id < 0 || static_cast<size_t>(id) >= graph.nodes.size()) return Cat("node ", id);
  const Node& node = graph.node(id);
  return Cat("node ", id, " '", node.name, "' (", OpName(node.op), ")");
}

std::string DescribeTensor(const Graph& graph, TensorId id) {
  if (id < 0 || static_cast<size_t>(id) >= graph.tensors.size()) return Cat("tensor ", id);
  return Cat("tensor ", id, " '", graph.tensor(id).name, "'");
}

}  // namespace opuc
