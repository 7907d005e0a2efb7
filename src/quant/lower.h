//===- src/quant/lower.h - Rewriting nodes to integers (private) -*- C++ -*-===//
//
// The graph keeps its tensor ids while it is lowered: activations change
// dtype in place, and constants a node reads are replaced by new integer
// constants (the float ones are dropped once nothing reads them).
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_QUANT_LOWER_H
#define OPUC_SRC_QUANT_LOWER_H

#include <map>
#include <vector>

#include <optional>
#include "input_gram.h"

#include "opuc/ir/graph.h"
#include "opuc/quant/quantize.h"
#include "weights.h"

namespace opuc::quant {

struct LowerContext {
  const Graph& source;                ///< The float graph (constants are read here).
  Graph& graph;                       ///< Being lowered; node `id` is rewritten.
  const std::vector<int>& bits;       ///< Activation fraction lengths (activation_bits.h).
  const std::vector<DType>& formats;  ///< Activation formats: i8, u8, i16 (formats.h).
  QuantizeReport& report;
  const std::map<NodeId, InputGram>& grams;  ///< Inputs of inner products (input_gram.h).
  /// Per node, its inner product's weights when RoundAllWeights made them
  /// ahead (else LowerNode rounds them itself).
  std::vector<std::optional<Expected<QuantizedWeights>>> weights = {};
};

/// Rounds the weights of every inner product of ctx.source into ctx.weights,
/// on up to `threads` threads (0: one per core): they are independent of
/// each other, and the same whichever thread makes them.
void RoundAllWeights(LowerContext& ctx, int threads);

/// Rewrites node `id` of ctx.graph for integers (its tensors already have
/// their formats and fraction lengths). Errors name the node.
Status LowerNode(LowerContext& ctx, NodeId id);

}  // namespace opuc::quant

#endif  // OPUC_SRC_QUANT_LOWER_H
