//===- opuc/cpu/executor.h - The CPU executor -------------------*- C++ -*-===//
//
// Runs graphs on the host as fast as it can with the reference's contract
// (opuc/cpu/reference.h): integer results equal the integer reference's bit
// for bit; float results may differ from the float reference's by the
// rounding of a different summation order, within the tolerance
// docs/cpu-executor.md states and the tests check. Inner products run as
// Eigen GEMMs (src/cpu/kernels/); ops without a kernel of their own run on
// the reference's.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_CPU_EXECUTOR_H
#define OPUC_CPU_EXECUTOR_H

#include <vector>

#include "opuc/cpu/reference.h"

namespace opuc {

/// EvaluateNode's contract, on the CPU executor's kernels.
Status EvaluateNodeOnCpu(const Graph& graph, NodeId node,
                         const std::vector<const HostTensor*>& inputs,
                         std::vector<HostTensor>* outputs);

/// RunReference's contract, on the CPU executor's kernels; `observe` (may be
/// empty) sees every value as RunReference's observer does.
Expected<std::vector<HostTensor>> RunCpu(const Graph& graph, const std::vector<HostTensor>& inputs,
                                         const TensorObserver& observe = {});

}  // namespace opuc

#endif  // OPUC_CPU_EXECUTOR_H
