//===- src/quant/activation_bits.h - Fraction lengths of activations -*- C++ -*-===//
//
// Each activation gets the fraction length with the least calibration error,
// then lengths are unified where the datapath needs one binary point:
//
//   - concat: every input and the output (the OPU reads them as one tensor);
//   - moves (reshape, pad, depth_to_space, resize, max/avg pool): input and
//     output, so a move never rescales;
//   - add/sub of two activations (residual add): both operands;
//   - a clamp (relu, relu6, relu_n1_to_1) that is the only reader of its
//     input: the input takes the clamp's length — the values the clamp
//     removes need no range — so the output stage can clamp in place.
//
// A unified group takes the smallest length its members chose (nobody
// saturates more than it asked for); a clamp's input does not vote.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_QUANT_ACTIVATION_BITS_H
#define OPUC_SRC_QUANT_ACTIVATION_BITS_H

#include <vector>

#include "calibrate.h"
#include "opuc/ir/graph.h"

namespace opuc::quant {

/// Marks a tensor that is not an f32 activation (a constant, an integer).
inline constexpr int kNoBits = -1000;

/// Which activations must share a length: `group[t]` is the same for every
/// member of a unified group (and unique otherwise); `votes[t]` is false for
/// a clamp's input, and for the `partial_sums` of a split layer
/// (split_weights.h) whose sum is one: they then take the clamp's length,
/// as the layer's output had it before the split.
struct ActivationGroups {
  std::vector<size_t> group;
  std::vector<bool> votes;
};
ActivationGroups UnifyActivations(const Graph& graph,
                                  const std::vector<TensorId>& partial_sums = {});

/// The fraction length of every tensor (kNoBits where none applies).
std::vector<int> ChooseActivationBits(const Graph& graph, const std::vector<TensorStats>& stats,
                                      const std::vector<TensorId>& partial_sums = {});

}  // namespace opuc::quant

#endif  // OPUC_SRC_QUANT_ACTIVATION_BITS_H
