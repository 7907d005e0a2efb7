//===- src/ir/verifier.cc - Graph invariants ------------------------------===//
#include "opuc/ir/verifier.h"

#include <limits>
#include <unordered_set>

#include "opuc/ir/op_registry.h"
#include "opuc/ir/sparsity.h"
#include "support/format.h"
#include "verify_fixed_point.h"

namespace opuc {
namespace {

/// How a tensor came to exist, filled in while walking the graph in order.
enum class Origin : uint8_t { kUndefined, kInput, kConstant, kNodeOutput };

bool InRange(const Graph& graph, TensorId id) {
  return id >= 0 && static_cast<size_t>(id) < graph.tensors.size();
}

Status VerifyTensor(const Graph& graph, TensorId id) {
  const Tensor& t = graph.tensor(id);
  const std::string where = DescribeTensor(graph, id);
  if (t.name.empty()) return InvalidArgument(Cat(where, ": name is empty"));
  if (static_cast<size_t>(t.dtype) >= kNumDTypes)
    return InvalidArgument(Cat(where, ": dtype ", static_cast<int>(t.dtype), " is unknown"));
  for (int64_t extent : t.shape)
    if (extent > kMaxExtent)
      return InvalidArgument(
          Cat(where, ": shape ", ShapeToString(t.shape), " has an extent above ", kMaxExtent));
  const auto count = NumElements(t.shape);
  if (!count)
    return InvalidArgument(Cat(where, ": shape ", ShapeToString(t.shape),
                               " has a negative extent or too many elements"));
  if (t.sparsity) {
    // A sparse constant holds its stored values only (sparsity.h).
    const Expected<int64_t> stored = CheckSparsity(t);
    if (!stored.ok()) return stored.status().WithContext(where);
  } else if (t.constant) {
    // Compared without multiplying: count * size can wrap past 2^64.
    const auto elements = static_cast<uint64_t>(*count);
    const uint64_t size = DTypeSize(t.dtype);
    const uint64_t bytes = t.constant->size();
    if (bytes % size != 0 || bytes / size != elements) {
      const bool fits = elements <= std::numeric_limits<uint64_t>::max() / size;
      return InvalidArgument(Cat(where, ": constant holds ", bytes, " bytes; shape ",
                                 ShapeToString(t.shape), " ", DTypeName(t.dtype), " needs ",
                                 fits ? Cat(elements * size) : Cat(elements, " × ", size)));
    }
  }
  const FixedPoint& fp = t.fixed_point;
  if (fp.empty()) return OkStatus();
  if (fp.axis == -1) {
    if (fp.fraction_bits.size() == 1) return OkStatus();
    return InvalidArgument(Cat(where, ": per-tensor fixed point has ", fp.fraction_bits.size(),
                               " fraction lengths; expected 1"));
  }
  if (fp.axis < 0 || static_cast<size_t>(fp.axis) >= t.shape.size())
    return InvalidArgument(Cat(where, ": fixed-point axis ", fp.axis, " is out of range for shape ",
                               ShapeToString(t.shape)));
  if (static_cast<int64_t>(fp.fraction_bits.size()) != t.shape[static_cast<size_t>(fp.axis)])
    return InvalidArgument(
        Cat(where, ": fixed point has ", fp.fraction_bits.size(), " fraction lengths; expected ",
            t.shape[static_cast<size_t>(fp.axis)], " (extent of axis ", fp.axis, ")"));
  return OkStatus();
}

Status VerifyNode(const Graph& graph, NodeId id, std::vector<Origin>& origin) {
  const Node& node = graph.node(id);
  if (static_cast<int>(node.op) >= kNumOpKinds)
    return InvalidArgument(Cat("op ", static_cast<int>(node.op), " is unknown"));
  OPUC_RETURN_IF_ERROR(ValidateAttributes(node.op, node.attrs));
  // A fused node's function is a graph of its own, verified the same way.
  if ((node.op == OpKind::kFused) != (node.body != nullptr))
    return InvalidArgument(node.body ? "has a body; only fused nodes have one"
                                     : "has no body (a fused node carries its function)");
  if (node.body) OPUC_RETURN_IF_ERROR(Verify(*node.body).WithContext("body"));

  InferContext ctx;
  ctx.attrs = &node.attrs;
  ctx.body = node.body.get();
  for (size_t i = 0; i < node.inputs.size(); ++i) {
    const TensorId in = node.inputs[i];
    if (in == kNoTensor) {
      ctx.inputs.push_back(nullptr);
      continue;
    }
    if (!InRange(graph, in))
      return InvalidArgument(Cat("input ", i, " is tensor ", in, ", which does not exist (",
                                 graph.tensors.size(), " tensors)"));
    // Only densify reads the stored values of a sparse constant as such.
    if (graph.tensor(in).sparsity && node.op != OpKind::kDensify)
      return InvalidArgument(Cat("input ", i, " is sparse constant ", DescribeTensor(graph, in),
                                 "; only densify reads sparse constants"));
    if (origin[static_cast<size_t>(in)] == Origin::kUndefined)
      return InvalidArgument(Cat("input ", i, " is ", DescribeTensor(graph, in),
                                 ", which no earlier node produces and which is neither a"
                                 " graph input nor a constant (nodes must be in topological"
                                 " order)"));
    ctx.inputs.push_back(&graph.tensor(in));
  }
  const int want_outputs = GetOpInfo(node.op).def.num_outputs;
  if (static_cast<int>(node.outputs.size()) != want_outputs)
    return InvalidArgument(Cat("has ", node.outputs.size(), " outputs; expected ", want_outputs));
  for (TensorId out : node.outputs)
    ctx.outputs.push_back(InRange(graph, out) ? &graph.tensor(out) : nullptr);
  OPUC_ASSIGN_OR_RETURN(std::vector<TensorType> types, InferOutputTypes(node.op, ctx));
  if (types.size() != node.outputs.size())
    return InternalError(Cat("inference gave ", types.size(), " output types for ",
                             node.outputs.size(), " outputs"));

  for (size_t i = 0; i < node.outputs.size(); ++i) {
    const TensorId out = node.outputs[i];
    if (!InRange(graph, out))
      return InvalidArgument(Cat("output ", i, " is tensor ", out, ", which does not exist"));
    Origin& o = origin[static_cast<size_t>(out)];
    if (o == Origin::kNodeOutput)
      return InvalidArgument(Cat("output ", i, " ", DescribeTensor(graph, out),
                                 " is already produced by another node (tensors are SSA)"));
    if (o != Origin::kUndefined)
      return InvalidArgument(Cat("output ", i, " ", DescribeTensor(graph, out), " is a ",
                                 o == Origin::kInput ? "graph input" : "constant",
                                 "; a node cannot write it"));
    const Tensor& t = graph.tensor(out);
    if (!(t.type() == types[i]))
      return InvalidArgument(Cat("output ", i, " ", DescribeTensor(graph, out), " is declared ",
                                 DTypeName(t.dtype), ShapeToString(t.shape), "; inference gives ",
                                 DTypeName(types[i].dtype), ShapeToString(types[i].shape)));
    o = Origin::kNodeOutput;
  }
  return OkStatus();
}

Status VerifyIdList(const Graph& graph, const std::vector<TensorId>& ids, const char* what) {
  std::unordered_set<TensorId> seen;
  for (size_t i = 0; i < ids.size(); ++i) {
    if (!InRange(graph, ids[i]))
      return InvalidArgument(Cat("graph ", what, " ", i, " is tensor ", ids[i],
                                 ", which does not exist (", graph.tensors.size(), " tensors)"));
    if (!seen.insert(ids[i]).second)
      return InvalidArgument(
          Cat("graph ", what, " list names ", DescribeTensor(graph, ids[i]), " twice"));
  }
  return OkStatus();
}

}  // namespace

Status Verify(const Graph& graph) {
  std::unordered_set<std::string_view> names;
  std::vector<Origin> origin(graph.tensors.size(), Origin::kUndefined);
  for (size_t i = 0; i < graph.tensors.size(); ++i) {
    const auto id = static_cast<TensorId>(i);
    OPUC_RETURN_IF_ERROR(VerifyTensor(graph, id));
    if (!names.insert(graph.tensors[i].name).second)
      return InvalidArgument(Cat(DescribeTensor(graph, id), ": name is used by an earlier tensor"));
    if (graph.tensors[i].constant) origin[i] = Origin::kConstant;
  }
  OPUC_RETURN_IF_ERROR(VerifyIdList(graph, graph.inputs, "input"));
  OPUC_RETURN_IF_ERROR(VerifyIdList(graph, graph.outputs, "output"));
  for (TensorId in : graph.inputs) {
    if (origin[static_cast<size_t>(in)] == Origin::kConstant)
      return InvalidArgument(Cat("graph input ", DescribeTensor(graph, in), " is a constant"));
    origin[static_cast<size_t>(in)] = Origin::kInput;
  }
  for (size_t n = 0; n < graph.nodes.size(); ++n) {
    const auto id = static_cast<NodeId>(n);
    Status status = VerifyNode(graph, id, origin);
    if (!status.ok()) return status.WithContext(DescribeNode(graph, id));
  }
  for (size_t i = 0; i < origin.size(); ++i)
    if (origin[i] == Origin::kUndefined)
      return InvalidArgument(Cat(DescribeTensor(graph, static_cast<TensorId>(i)),
                                 " is dangling: neither a graph input, a constant, nor the"
                                 " output of a node"));
  return VerifyFixedPoints(graph);
}

}  // namespace opuc
