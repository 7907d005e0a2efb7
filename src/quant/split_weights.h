//===- src/quant/split_weights.h - 16-bit weights as two 8-bit inner products (private) -*- C++
//-*-===//
//
// The OPU's array multiplies 8-bit weights. A layer that needs more is
// rewritten, on the float graph before calibration, into two int8 inner
// products over the same input and an add (docs/numerics.md §1c):
//
//   y = act(x·w + b)   →   y = act(x·w_hi + b  +  x·w_lo)
//
// w_hi is each output channel's weights rounded to nearest at the longest
// fraction length f at which none clips int8, so the quantizer later finds
// them exactly on its grid; w_lo = w − w_hi (|w_lo| ≤ 2^-(f+1)), which the
// quantizer rounds to int8 at its own length, about f + 8, with
// compensation like any weights. Together they are a 16-bit weight; every
// executor, the OPU's included, runs the pieces as the ordinary nodes they
// are. The price is a second pass of the array over the input and the
// partial sum x·w_hi + b written and read as an i16 tensor.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_QUANT_SPLIT_WEIGHTS_H
#define OPUC_SRC_QUANT_SPLIT_WEIGHTS_H

#include <set>
#include <string>
#include <vector>

#include "opuc/ir/graph.h"
#include "opuc/status.h"

namespace opuc::quant {

/// What SplitWeights made, per layer split: the two inner products.
struct SplitLayer {
  NodeId high = 0;  ///< x·w_hi + b, into the partial sum.
  NodeId low = 0;   ///< x·w_lo.
};

/// The partial sums of `layers`: two per layer, which choose their own
/// length unless their sum is a clamp's input, whose length they then take
/// (UnifyActivations, activation_bits.h).
std::vector<TensorId> PartialSums(const Graph& graph, const std::vector<SplitLayer>& layers);

/// Splits every conv2d, depthwise, transposed conv2d and fully connected node of
/// `graph` whose weights are a dense f32 constant (the others are left as
/// they are); nodes keep their order, each split layer's three in its
/// place. Node ids change: the result names the new ones. The outputs keep
/// their tensors and names; the partial sums are named "<output>/high" and
/// "<output>/low", the weights "<weights>/high" and "<weights>/low", the
/// nodes "<node>/high", "<node>/low" and "<node>/sum". With `only`, just the
/// nodes of those names (wide weights per layer, mixed_precision.h).
Expected<std::vector<SplitLayer>> SplitWeights(Graph& graph,
                                               const std::set<std::string>* only = nullptr);

}  // namespace opuc::quant

#endif  // OPUC_SRC_QUANT_SPLIT_WEIGHTS_H
