//===- opuc/cpu/executor.h - The CPU executor -------------------*- C++ -*-===//
//
// Runs graphs on the host as fast as it can with the reference's contract
// (opuc/cpu_reference/reference.h): integer results equal the integer reference's bit
// for bit; float results may differ from the float reference's by the
// rounding of a different summation order, within the tolerance
// docs/cpu-executor.md states and the tests check. Inner products run as
// Eigen GEMMs (src/cpu/); ops without a kernel of their own run on
// the reference's.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_CPU_EXECUTOR_H
#define OPUC_CPU_EXECUTOR_H

#include <vector>

#include "opuc/cpu_reference/reference.h"

namespace opuc {

/// EvaluateNode's contract, on the CPU executor's kernels.
Status EvaluateNodeOnCpu(const Graph& graph, NodeId node,
                         const std::vector<const HostTensor*>& inputs,
                         std::vector<HostTensor>* outputs);

/// One node prepared to run many times, as TFLite prepares a graph once and
/// invokes it often: what EvaluateNodeOnCpu infers on every call (the
/// output types, from the graph) is found once. Each Run checks its inputs'
/// types (a comparison) and runs the kernel; an output already of its type
/// is written in place, its storage reused (as a set-up XNNPACK operator
/// writes into its output), so it must not share storage with an input.
/// The graph must outlive the prepared node.
class PreparedCpuNode {
 public:
  /// Errors: a node that does not exist, or the checks' errors (shape
  /// inference disagrees with the graph), naming the node.
  static Expected<PreparedCpuNode> Prepare(const Graph& graph, NodeId node);

  /// EvaluateNodeOnCpu's contract.
  Status Run(const std::vector<const HostTensor*>& inputs, std::vector<HostTensor>* outputs) const;

 private:
  PreparedCpuNode(const Graph& graph, NodeId node, std::vector<TensorType> types)
      : graph_(&graph), node_(node), types_(std::move(types)) {}

  const Graph* graph_;
  NodeId node_;
  std::vector<TensorType> types_;
};

/// RunReference's contract, on the CPU executor's kernels; `observe` (may be
/// empty) sees every value as RunReference's observer does, and must copy
/// what it keeps: every value but the graph's outputs lives in one arena
/// (PlanCpuMemory), its bytes reused once the value is dead.
Expected<std::vector<HostTensor>> RunCpu(const Graph& graph, const std::vector<HostTensor>& inputs,
                                         const TensorObserver& observe = {});

/// How RunCpu lays out the values a run makes.
struct CpuMemoryPlan {
  int64_t arena_bytes = 0;  ///< The one allocation.
  /// The most bytes of those values alive at one node (each rounded up to
  /// 64): no layout of them needs less.
  int64_t live_bound = 0;
  int64_t values = 0;  ///< How many values the arena holds.
};
CpuMemoryPlan PlanCpuMemory(const Graph& graph);

}  // namespace opuc

#endif  // OPUC_CPU_EXECUTOR_H
