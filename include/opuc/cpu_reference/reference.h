//===- opuc/cpu_reference/reference.h - The float reference executor ------*- C++ -*-===//
//
// Plain loops, one op per file (src/cpu_reference/), that define what every
// float op computes: TFLite's float reference semantics, written out in
// docs/op-semantics.md. Other executors are tested against it, and the
// FoldConstant pass evaluates constant nodes with EvaluateNode.
//
// Arithmetic is float32 throughout (sums accumulate in float, in the order
// docs/op-semantics.md states) and the library is built with
// -ffp-contract=off, so results do not depend on whether the target fuses
// multiply-adds.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_CPU_REFERENCE_REFERENCE_H
#define OPUC_CPU_REFERENCE_REFERENCE_H

#include <functional>
#include <vector>

#include "opuc/ir/graph.h"
#include "opuc/status.h"
#include "opuc/tensor_io/host_tensor.h"

namespace opuc {

/// Evaluates one node. `inputs` are in node-input order, nullptr for an
/// absent optional input; a sparse constant input (DENSIFY's) is read from
/// the graph, so its entry may be nullptr. Each present input must have the
/// dtype and shape its graph tensor declares. `outputs` is replaced by the
/// node's outputs, allocated here. The node's output types are recomputed
/// with shape inference and must equal the declared ones, so a kernel never
/// trusts an unverified graph. Errors name the node; an op or dtype without
/// a kernel is Unsupported naming the node, the op and the dtype.
Status EvaluateNode(const Graph& graph, NodeId node, const std::vector<const HostTensor*>& inputs,
                    std::vector<HostTensor>* outputs);

/// Runs the whole graph. `inputs` are in graph-input order and must match the
/// declared dtype and shape of each (errors name the input). Constants are
/// used in place, and each intermediate tensor is freed after its last use.
/// Returns the graph outputs in order.
Expected<std::vector<HostTensor>> RunReference(const Graph& graph,
                                               const std::vector<HostTensor>& inputs);

/// Sees every value a run makes: each graph input before the first node, then
/// each node output right after its node. An error stops the run and is
/// returned. Calibration (opuc/quant) collects activation statistics this way.
using TensorObserver = std::function<Status(TensorId, const HostTensor&)>;

/// RunReference, calling `observe` for each value as described above.
Expected<std::vector<HostTensor>> RunReference(const Graph& graph,
                                               const std::vector<HostTensor>& inputs,
                                               const TensorObserver& observe);

/// What evaluates one node: EvaluateNode, or another executor's function
/// with its contract (EvaluateNodeOnCpu, opuc/cpu/executor.h).
using NodeEvaluator = Status (*)(const Graph& graph, NodeId node,
                                 const std::vector<const HostTensor*>& inputs,
                                 std::vector<HostTensor>* outputs);

}  // namespace opuc

#endif  // OPUC_CPU_REFERENCE_REFERENCE_H
