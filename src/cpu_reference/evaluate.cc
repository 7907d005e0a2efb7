//===- src/cpu_reference/evaluate.cc - One node, checked ------------------===//
//
// The dispatch table has one entry per line of ops.def, so an op added there
// without an Eval<Op> kernel does not link. Other CPU executors bring their
// own table (evaluate.h) and get the same checks around their kernels.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <iterator>

#include "evaluate.h"
#include "opuc/cpu_reference/reference.h"
#include "opuc/ir/op_registry.h"
#include "support/format.h"

namespace opuc {
namespace {

/// Each present input matches its graph tensor; sparse constants are read
/// from the graph and need no value.
Status CheckInputs(const Graph& graph, const Node& node,
                   const std::vector<const HostTensor*>& inputs) {
  if (inputs.size() != node.inputs.size())
    return InvalidArgument(Cat("given ", inputs.size(), " input values; the node has ",
                               node.inputs.size(), " inputs"));
  for (size_t i = 0; i < inputs.size(); ++i) {
    const TensorId id = node.inputs[i];
    if (id == kNoTensor) continue;
    if (!reference::InRange(id, graph))
      return InvalidArgument(Cat("input ", i, " is tensor ", id, ", which does not exist"));
    const Tensor& declared = graph.tensor(id);
    if (declared.sparsity) continue;
    if (!inputs[i])
      return InvalidArgument(Cat("input ", i, " (", DescribeTensor(graph, id), ") has no value"));
    if (!(inputs[i]->type() == declared.type()))
      return InvalidArgument(Cat("input ", i, " (", DescribeTensor(graph, id), ") is ",
                                 DescribeType(*inputs[i]), "; the graph declares ",
                                 DTypeName(declared.dtype), ShapeToString(declared.shape)));
  }
  return OkStatus();
}

/// The output types inference gives, which must be the declared ones.
Expected<std::vector<TensorType>> CheckOutputs(const Graph& graph, const Node& node) {
  InferContext ctx;
  ctx.attrs = &node.attrs;
  ctx.body = node.body.get();
  ctx.inputs.reserve(node.inputs.size());
  ctx.outputs.reserve(node.outputs.size());
  for (TensorId id : node.inputs)
    ctx.inputs.push_back(id == kNoTensor ? nullptr : &graph.tensor(id));
  for (TensorId id : node.outputs)
    ctx.outputs.push_back(reference::InRange(id, graph) ? &graph.tensor(id) : nullptr);
  OPUC_ASSIGN_OR_RETURN(std::vector<TensorType> types, InferOutputTypes(node.op, ctx));
  if (types.size() != node.outputs.size())
    return InvalidArgument(Cat("has ", node.outputs.size(), " outputs; the op has ", types.size()));
  for (size_t i = 0; i < types.size(); ++i) {
    const TensorId id = node.outputs[i];
    if (!reference::InRange(id, graph))
      return InvalidArgument(Cat("output ", i, " is tensor ", id, ", which does not exist"));
    const Tensor& declared = graph.tensor(id);
    if (!(declared.type() == types[i]))
      return InvalidArgument(Cat("output ", i, " (", DescribeTensor(graph, id), ") is declared ",
                                 DTypeName(declared.dtype), ShapeToString(declared.shape),
                                 "; inference gives ", DTypeName(types[i].dtype),
                                 ShapeToString(types[i].shape)));
  }
  return types;
}

Status Run(const reference::KernelTable& kernels, const Graph& graph, NodeId id,
           const std::vector<const HostTensor*>& inputs, const std::vector<TensorType>& types,
           std::vector<HostTensor>* outputs, const reference::OutputAllocator* allocator) {
  const auto op = static_cast<size_t>(graph.node(id).op);
  if (op >= kernels.size()) return InvalidArgument("has an unknown op");
  outputs->assign(types.size(), HostTensor());
  reference::KernelContext ctx(graph, id, inputs, types, outputs, allocator);
  OPUC_RETURN_IF_ERROR(kernels[op](ctx));
  for (size_t i = 0; i < types.size(); ++i)
    if (!((*outputs)[i].type() == types[i]))
      return InternalError(Cat("the kernel left output ", i, " as ", DescribeType((*outputs)[i])));
  return OkStatus();
}

Status Evaluate(const reference::KernelTable& kernels, const Graph& graph, NodeId id,
                const std::vector<const HostTensor*>& inputs, std::vector<HostTensor>* outputs,
                const reference::OutputAllocator* allocator) {
  OPUC_ASSIGN_OR_RETURN(const std::vector<TensorType> types,
                        reference::CheckedOutputTypes(graph, id, inputs));
  return Run(kernels, graph, id, inputs, types, outputs, allocator);
}

}  // namespace

namespace reference {

Expected<std::vector<TensorType>> InferredOutputTypes(const Graph& graph, NodeId node) {
  return CheckOutputs(graph, graph.node(node));
}

Status CheckInputTypes(const Graph& graph, NodeId node,
                       const std::vector<const HostTensor*>& inputs) {
  return CheckInputs(graph, graph.node(node), inputs);
}

Status RunKernelWith(const KernelTable& kernels, const Graph& graph, NodeId node,
                     const std::vector<const HostTensor*>& inputs,
                     const std::vector<TensorType>& types, std::vector<HostTensor>* outputs,
                     const OutputAllocator* allocator) {
  if (node < 0 || static_cast<size_t>(node) >= graph.nodes.size())
    return InvalidArgument(
        Cat("node ", node, " does not exist (the graph has ", graph.nodes.size(), " nodes)"));
  Status status = Run(kernels, graph, node, inputs, types, outputs, allocator);
  if (!status.ok()) return status.WithContext(DescribeNode(graph, node));
  return status;
}

Expected<std::vector<TensorType>> CheckedOutputTypes(const Graph& graph, NodeId id,
                                                     const std::vector<const HostTensor*>& inputs) {
  const Node& node = graph.node(id);
  OPUC_RETURN_IF_ERROR(CheckInputs(graph, node, inputs));
  return CheckOutputs(graph, node);
}

constexpr KernelFn kKernels[] = {
#define OPUC_OP(Enum, name, pattern) &Eval##Enum,
#include "opuc/ir/ops.def"
};
static_assert(std::size(kKernels) == static_cast<size_t>(kNumOpKinds),
              "one reference kernel per op in ops.def");

const KernelTable& ReferenceKernels() {
  static const KernelTable table = [] {
    KernelTable t{};
    std::copy(std::begin(kKernels), std::end(kKernels), t.begin());
    return t;
  }();
  return table;
}

Status EvaluateNodeWith(const KernelTable& kernels, const Graph& graph, NodeId node,
                        const std::vector<const HostTensor*>& inputs,
                        std::vector<HostTensor>* outputs, const OutputAllocator* allocator) {
  if (node < 0 || static_cast<size_t>(node) >= graph.nodes.size())
    return InvalidArgument(
        Cat("node ", node, " does not exist (the graph has ", graph.nodes.size(), " nodes)"));
  Status status = Evaluate(kernels, graph, node, inputs, outputs, allocator);
  // Described only on failure: the description costs as much as a small layer.
  if (!status.ok()) return status.WithContext(DescribeNode(graph, node));
  return status;
}

}  // namespace reference

Status EvaluateNode(const Graph& graph, NodeId node, const std::vector<const HostTensor*>& inputs,
                    std::vector<HostTensor>* outputs) {
  return reference::EvaluateNodeWith(reference::ReferenceKernels(), graph, node, inputs, outputs);
}

}  // namespace opuc
