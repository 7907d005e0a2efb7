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

#include "input_gram.h"
#include "opuc/ir/graph.h"
#include "opuc/quant/quantize.h"

namespace opuc::quant {

struct LowerContext {
  const Graph& source;                ///< The float graph (constants are read here).
  Graph& graph;                       ///< Being lowered; node `id` is rewritten.
  const std::vector<int>& bits;       ///< Activation fraction lengths (activation_bits.h).
  const std::vector<DType>& formats;  ///< Activation formats: i8, u8, i16 (formats.h).
  QuantizeReport& report;
  const std::map<NodeId, InputGram>& grams;  ///< Inputs of inner products (input_gram.h).
};

/// Rewrites node `id` of ctx.graph for integers (its tensors already have
/// their formats and fraction lengths). Errors name the node.
Status LowerNode(LowerContext& ctx, NodeId id);

}  // namespace opuc::quant

#endif  // OPUC_SRC_QUANT_LOWER_H
