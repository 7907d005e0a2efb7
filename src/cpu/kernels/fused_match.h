//===- src/cpu/kernels/fused_match.h - Which functions run as one kernel -*- C++ -*-===//
//
// A fused function's body that the CPU executor runs as one kernel (fused.cc):
// its first node a float conv2d, depthwise_conv2d or fully_connected, every
// other node an elementwise op on the value before it (and one more
// operand at most), the last one the body's output.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_CPU_KERNELS_FUSED_MATCH_H
#define OPUC_SRC_CPU_KERNELS_FUSED_MATCH_H

#include <optional>
#include <vector>

#include "chain_step.h"
#include "opuc/ir/graph.h"

namespace opuc::cpu {

struct FusedTail {
  std::vector<ChainStep> steps;  ///< Without their operands' data.
  std::vector<TensorId> others;  ///< Per step, its other operand (kNoTensor: none).
};

/// The tail after the body's inner product, or nullopt when the body has
/// another shape.
std::optional<FusedTail> MatchFusedTail(const Graph& body);

}  // namespace opuc::cpu

#endif  // OPUC_SRC_CPU_KERNELS_FUSED_MATCH_H
