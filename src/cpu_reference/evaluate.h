//===- src/cpu_reference/evaluate.h - Kernel tables -------------*- C++ -*-===//
//
// EvaluateNode checks a node's inputs and recomputes its output types around
// a kernel from a table with one entry per op of ops.def. The reference's
// table defines the results; the CPU executor (src/cpu/) brings its
// own, made from this one with faster entries, and gets the same checks.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_CPU_REFERENCE_EVALUATE_H
#define OPUC_SRC_CPU_REFERENCE_EVALUATE_H

#include <array>
#include <vector>

#include "kernel.h"
#include "opuc/cpu_reference/reference.h"
#include "opuc/ir/op_kind.h"

namespace opuc::reference {

/// Whether `id` names one of the graph's tensors (kNoTensor does not).
inline bool InRange(TensorId id, const Graph& graph) {
  return id >= 0 && static_cast<size_t>(id) < graph.tensors.size();
}

using KernelTable = std::array<KernelFn, static_cast<size_t>(kNumOpKinds)>;

/// The reference kernels, indexed by OpKind.
const KernelTable& ReferenceKernels();

/// The checks EvaluateNode makes before a kernel runs: each present input
/// has its graph tensor's type, and inference gives the declared output
/// types, which it returns. Errors do not name the node (the caller does).
Expected<std::vector<TensorType>> CheckedOutputTypes(const Graph& graph, NodeId node,
                                                     const std::vector<const HostTensor*>& inputs);

/// The second half of those checks, which depends on the graph alone: the
/// output types inference gives, which must be the declared ones.
Expected<std::vector<TensorType>> InferredOutputTypes(const Graph& graph, NodeId node);

/// The first half of those checks, which depends on the values: each
/// present input has its graph tensor's type. (The output types depend on
/// the graph alone, so a prepared node keeps them.)
Status CheckInputTypes(const Graph& graph, NodeId node,
                       const std::vector<const HostTensor*>& inputs);

/// What EvaluateNodeWith does after its checks: the node's kernel, with
/// `types` the node's output types (CheckedOutputTypes), and the check that
/// the kernel made them. `outputs` is resized, its entries replaced.
Status RunKernelWith(const KernelTable& kernels, const Graph& graph, NodeId node,
                     const std::vector<const HostTensor*>& inputs,
                     const std::vector<TensorType>& types, std::vector<HostTensor>* outputs,
                     const OutputAllocator* allocator = nullptr);

/// EvaluateNode (opuc/cpu_reference/reference.h) with the kernels of `kernels`, the
/// outputs taken from `allocator` when given.
Status EvaluateNodeWith(const KernelTable& kernels, const Graph& graph, NodeId node,
                        const std::vector<const HostTensor*>& inputs,
                        std::vector<HostTensor>* outputs,
                        const OutputAllocator* allocator = nullptr);

/// RunReference's walk (opuc/cpu_reference/reference.h) with `evaluate` in place of
/// EvaluateNode.
using NodeEvaluatorFn = std::function<Status(
    const Graph&, NodeId, const std::vector<const HostTensor*>&, std::vector<HostTensor>*)>;
Expected<std::vector<HostTensor>> RunGraphWith(const Graph& graph,
                                               const std::vector<HostTensor>& inputs,
                                               const TensorObserver& observe,
                                               const NodeEvaluatorFn& evaluate);

}  // namespace opuc::reference

#endif  // OPUC_SRC_CPU_REFERENCE_EVALUATE_H
