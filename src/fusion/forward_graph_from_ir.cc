//===- src/fusion/forward_graph_from_ir.cc - IR graph -> forward graph ----===//
//
// TVM's IndexedForwardGraphCreator for opuc's IR. TVM numbers a function's
// parameters first, then every expression after its arguments, in the
// post-order of a depth-first walk of the body: a topological order. opuc's
// IR is already a topologically ordered node list, so the forward graph
// takes that order: graph inputs first, then for each node its constants
// not seen before, a concat's virtual tuple (TVM's concatenate takes a
// Tuple), and the node. For a graph listed depth first, as the seeds'
// examples are, the numbering is TVM's exactly. One pass, front to back:
// a graph of 10^6 ops is read once, sequentially.
//
// An edge has the consumer's pattern, except that a broadcast edge from an
// input with the output's shape is elemwise (TVM's rule); a tuple's fields
// feed it through injective edges.
//
//===----------------------------------------------------------------------===//
#include "opuc/fusion/indexed_forward_graph.h"
#include "opuc/ir/op_registry.h"
#include "support/format.h"

namespace opuc {
namespace {

using Kind = IndexedForwardGraph::NodeKind;

class Creator {
 public:
  explicit Creator(const Graph& graph) : graph_(graph) {}

  Expected<IndexedForwardGraph> Create() {
    // Room for the nodes (inputs and constants are tensors; an op, and a
    // concat's tuple, per node) and, as a guess, for the edges. Reserved
    // memory never written costs nothing, and counting the edges exactly
    // would read every node once more.
    const size_t nodes = graph_.nodes.size();
    forward_.Reserve(graph_.tensors.size() + 2 * nodes, 2 * nodes + graph_.tensors.size());
    forward_.node_of_op.reserve(graph_.nodes.size());
    forward_.node_of_tensor.assign(graph_.tensors.size(), -1);
    for (TensorId in : graph_.inputs) {
      if (!InRange(in)) return InvalidArgument(Cat("graph input tensor ", in, " does not exist"));
      int32_t& slot = forward_.node_of_tensor[static_cast<size_t>(in)];
      if (slot < 0) slot = forward_.AddNode({Kind::kGraphInput, OpPatternKind::kOpaque, false, in});
    }
    for (size_t n = 0; n < graph_.nodes.size(); ++n)
      OPUC_RETURN_IF_ERROR(AddOp(static_cast<NodeId>(n)));
    for (TensorId out : graph_.outputs) {
      if (!InRange(out))
        return InvalidArgument(Cat("graph output tensor ", out, " does not exist"));
      OPUC_ASSIGN_OR_RETURN(const int32_t producer, Defined(out, -1));
      forward_.set_extern_ref(producer);
    }
    forward_.Finalize();
    return std::move(forward_);
  }

 private:
  bool InRange(TensorId id) const {
    return id >= 0 && static_cast<size_t>(id) < graph_.tensors.size();
  }

  /// The forward node that defines `id`, read by `reader` (-1: a graph
  /// output); a constant's node is added on its first use.
  Expected<int32_t> Defined(TensorId id, NodeId reader) {
    int32_t& slot = forward_.node_of_tensor[static_cast<size_t>(id)];
    if (slot >= 0) return slot;
    const Tensor& t = graph_.tensor(id);
    if (!t.constant)
      return InvalidArgument(
          Cat(reader < 0 ? std::string("graph output") : DescribeNode(graph_, reader), " reads ",
              DescribeTensor(graph_, id), ", which is neither a graph",
              " input, a constant nor the output of an earlier node (nodes must",
              " be in topological order)"));
    // TVM inlines scalar constants ("simple constants") and passes the rest.
    const bool simple = !t.sparsity && NumElements(t.shape) == int64_t{1};
    slot = forward_.AddNode(
        {Kind::kConstant, simple ? OpPatternKind::kElemWise : OpPatternKind::kOpaque, false, id});
    return slot;
  }

  Status AddOp(NodeId id) {
    const Node& node = graph_.node(id);
    const OpPatternKind pattern = GetOpInfo(node.op).pattern;
    const bool has_output = !node.outputs.empty() && InRange(node.outputs[0]);
    const Tensor* out = has_output ? &graph_.tensor(node.outputs[0]) : nullptr;
    producers_.clear();
    same_shape_.clear();
    for (TensorId in : node.inputs) {
      if (in == kNoTensor) continue;
      if (!InRange(in))
        return InvalidArgument(
            Cat(DescribeNode(graph_, id), " reads tensor ", in, ", which does not exist"));
      OPUC_ASSIGN_OR_RETURN(const int32_t producer, Defined(in, id));
      producers_.push_back(producer);
      same_shape_.push_back(pattern == OpPatternKind::kBroadcast && out &&
                            graph_.tensor(in).shape == out->shape);
    }
    const bool concat = node.op == OpKind::kConcat;
    const int32_t tuple =
        concat ? forward_.AddNode({Kind::kTuple, OpPatternKind::kTuple, false, id}) : -1;
    const int32_t index = forward_.AddNode({Kind::kOp, pattern, false, id});
    forward_.node_of_op.push_back(index);
    for (TensorId o : node.outputs)
      if (InRange(o)) forward_.node_of_tensor[static_cast<size_t>(o)] = index;
    for (size_t k = 0; k < producers_.size(); ++k) {
      const OpPatternKind edge = concat           ? OpPatternKind::kInjective
                                 : same_shape_[k] ? OpPatternKind::kElemWise
                                                  : pattern;
      OPUC_RETURN_IF_ERROR(forward_.AddEdge(producers_[k], concat ? tuple : index, edge));
    }
    if (concat) OPUC_RETURN_IF_ERROR(forward_.AddEdge(tuple, index, pattern));
    return OkStatus();
  }

  const Graph& graph_;
  IndexedForwardGraph forward_;
  std::vector<int32_t> producers_;  // of the node being added
  std::vector<bool> same_shape_;
};

}  // namespace

Expected<IndexedForwardGraph> BuildIndexedForwardGraph(const Graph& graph) {
  return Creator(graph).Create();
}

}  // namespace opuc
