//===- src/cpu/fused_match.h - Which functions run as one kernel -*- C++ -*-===//
//
// A fused function's body that the CPU executor runs as one kernel (fused.cc):
// a chain of elementwise ops, each on the value before it (and one more
// operand at most, or a lookup_table's table), the last one the body's
// output; the chain starts either
// at an inner product (conv2d, depthwise_conv2d, fully_connected: the first
// node) or at an argument of the output's shape (an injective chain, which
// may end in a mean: TVM's injective ops fused into a reduction). Its
// values are all f32, or all quantized (i8, u8, i16) of one shape.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_CPU_FUSED_MATCH_H
#define OPUC_SRC_CPU_FUSED_MATCH_H

#include <optional>
#include <vector>

#include "chain_step.h"
#include "opuc/ir/graph.h"

namespace opuc::cpu {

/// relu, relu6 or relu_n1_to_1: an activation that is a clamp.
bool IsClamp(OpKind op);

struct FusedTail {
  bool integer = false;          ///< Quantized values (else f32).
  bool inner_product = false;    ///< Node 0 makes the first value (else `start` is an argument).
  TensorId start = kNoTensor;    ///< The value the first step reads.
  std::vector<NodeId> nodes;     ///< The steps' nodes, in order.
  std::vector<ChainStep> steps;  ///< Without their operands' data.
  std::vector<TensorId> others;  ///< Per step, its other operand (kNoTensor: none).
  /// The body's last node is a mean over the last step's value (its reduced
  /// axes one run of dimensions) and not a step: an injective chain reduced.
  bool mean = false;
};

/// The chain of the body, or nullopt when the body has another shape.
std::optional<FusedTail> MatchFusedTail(const Graph& body);

}  // namespace opuc::cpu

#endif  // OPUC_SRC_CPU_FUSED_MATCH_H
