//===- src/quant/weights.h - Inner-product weights and biases (private) -*- C++ -*-===//
//
// Per output channel c, the weights get the fraction length f_w[c] with the
// least squared error among those that do not clip more than rounding does
// (and up to three finer ones, which clip the largest weights but resolve
// the rest better). Then f_w[c] is lowered, one step at a time, until the
// bias fits int32 and the accumulation bound of docs/numerics.md §2 holds:
//
//   Σ_taps m·|q_w| + |b|  <=  2^31 − 1
//
// with m the largest input magnitude one pass of the array sees: 128 for an
// i8 input, 255 for u8 and for each pass of an i16 one (numerics.md §1b).
//
// At that f_w[c] the channel's weights are rounded as a whole when the Gram
// matrix of the node's inputs is known (compensated_rounding.h), as long as
// the bound still holds; otherwise each to nearest.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_QUANT_WEIGHTS_H
#define OPUC_SRC_QUANT_WEIGHTS_H

#include <cstdint>
#include <map>
#include <vector>

#include "input_gram.h"
#include "opuc/ir/graph.h"
#include "opuc/status.h"

namespace opuc::quant {

/// Weight fraction lengths the OPU allows (docs/numerics.md §1).
inline constexpr int kMinWeightBits = -8;
inline constexpr int kMaxWeightBits = 23;

struct QuantizedWeights {
  std::vector<int8_t> weights;  ///< Same layout as the float weights.
  std::vector<int32_t> bits;    ///< f_w[c] per output channel.
  int axis = 0;                 ///< The output-channel axis of the weights.
  std::vector<int32_t> bias;    ///< One per channel, at f_in + f_w[c]; empty without bias.
  int64_t saturated = 0;        ///< Weights that did not fit int8 (clipped).
  int64_t lowered = 0;          ///< Channels whose f_w was lowered for the bias or the bound.
  int64_t compensated = 0;      ///< Channels rounded with compensation (compensated_rounding.h).
};

/// Quantizes the weights (input 1) and bias (input 2, optional) of the
/// inner-product node `id` for an input at fraction length `input_bits`
/// whose passes reach |q| <= `input_magnitude` (128 for i8, 255 otherwise).
/// With the Gram matrix of its inputs (input_gram.h; ignored when its size
/// does not match the weights) the weights of each channel are rounded with
/// compensation (at the same f_w), else each to nearest. An error names
/// the channel (the caller adds the node) when even f_w = −8 cannot satisfy
/// the bias and bound.
Expected<QuantizedWeights> QuantizeInnerProduct(const Graph& graph, NodeId id, int input_bits,
                                                const InputGram* gram = nullptr,
                                                int input_magnitude = 128);

/// `graph` with each inner product's weights and bias replaced by the float
/// values their integers stand for (QuantizeInnerProduct with the activation
/// lengths `bits` and the Gram matrices `grams`): what the integer graph
/// computes with. Errors name the node.
Expected<Graph> WithRoundedWeights(const Graph& graph, const std::vector<int>& bits,
                                   const std::map<NodeId, InputGram>& grams);

/// The largest fraction length in [lo, hi] at which every value of `values`
/// rounds into int8 without clipping (hi when all are zero).
int NoClipBits(const float* values, int64_t count, int64_t stride, int lo, int hi);

}  // namespace opuc::quant

#endif  // OPUC_SRC_QUANT_WEIGHTS_H
