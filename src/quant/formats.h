//===- src/quant/formats.h - i8, u8 or i16 for each activation (private) -*- C++ -*-===//
//
// docs/numerics.md §1b: every activation is i8, u8 or i16. The formats are
// chosen per tensor, within the unified groups of activation_bits.h (whose
// members share one binary point):
//
//   - i16 for every member of a group the mixed-precision search
//     (mixed_precision.h) or --precision int16 widens; never a softmax input;
//   - else u8 for a tensor the graph itself proves non-negative
//     (relu/relu6/sigmoid/softmax outputs, and pools, moves, concats, adds
//     and products of such) or that is a relu's only input (the relu
//     removes the negative values anyway): one more bit than i8;
//   - i8 otherwise.
//
// An 8-bit group keeps its i8 length (so u8 is headroom: twice the range at
// the same resolution), except a u8 group of relu6 outputs (and their
// inputs), which cannot pass 6: it takes at least kRelu6U8Bits, the finest
// length that holds 6; a widened group's is the largest that does not clip.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_QUANT_FORMATS_H
#define OPUC_SRC_QUANT_FORMATS_H

#include <cstdint>
#include <vector>

#include "calibrate.h"
#include "opuc/ir/graph.h"

namespace opuc::quant {

/// Which tensors are non-negative whatever the inputs (indexed by TensorId).
std::vector<bool> ProveNonNegative(const Graph& graph);

/// A unified group of activations and what choosing its format needs.
struct FormatGroup {
  std::vector<TensorId> members;
  bool may_widen = true;  ///< False when a softmax reads a member (8-bit inputs only).
  /// MACs of the inner products that take a second pass where a member is
  /// i16: every one reading a member, or with an array that reads an i16
  /// whole (QuantizeOptions::i16_in_one_pass) the depthwise ones of kernels
  /// wider than 4 taps.
  int64_t extra_macs = 0;
  double noise = 0.0;   ///< Σ squared error at the 8-bit format and length (voters).
  double signal = 0.0;  ///< Σ x² (voters).
};

/// Every activation's format and fraction length (kF32 / kNoBits elsewhere).
/// Bits of range an i16 tensor keeps above the largest value calibration
/// saw: 8 bits are too few to spare one, 16 are not. New photographs exceed
/// the calibrated ranges (docs/quantization.md): with none,
/// face_detection_short_range's classificators stopped at 16.8 dB in
/// int16 (values clipped on the evaluation photographs); with one, 23.1.
inline constexpr int kWideHeadroomBits = 1;

/// An i16 tensor only sigmoid and tanh read needs no range past ±16: the
/// functions are within 1.2e-7 of their limits there (one step of i16's
/// finest length, 2^-23, is 1.19e-7), and the 257 knots of its table
/// (numerics.md §1b) then lie 1/8 apart instead of spreading over the
/// logits' whole range (selfie_segmentation's mask logits pass ±512: knots
/// 8 apart).
inline constexpr double kSaturatedTableInput = 16.0;

/// An i16 tensor a hard_swish table reads takes this many bits of range
/// less than calibration saw: the function curves between the table's 257
/// knots, which span the format's range, so one bit halves their spacing
/// and quarters the interpolation error on every value, while only values
/// in the top half of the calibrated range (the tails of the views) clip.
/// Measured with least-squares knots (tables.h): the selfie mask on
/// evaluation/ 21.3 → 27.8 dB; two bits clip too much (docs/quantization.md).
inline constexpr int kCurvedTableFinerBits = 1;

/// The finest u8 length that holds a relu6's output: 255 · 2^-5 = 7.97 >= 6
/// (2^-6 holds 3.98). A group of relu6 outputs cannot clip there, so the
/// bit i8's length keeps as headroom goes to resolution (hand_landmark_lite's
/// default: +151% -> +129% array passes, docs/quantization.md).
inline constexpr int kRelu6U8Bits = 5;

struct ActivationFormats {
  std::vector<DType> format;
  std::vector<int> bits;
};

class FormatPlanner {
 public:
  /// `bits8`: the i8 lengths (ChooseActivationBits, maybe refined);
  /// `allow_unsigned`: u8 where proved (else every 8-bit tensor is i8);
  /// `i16_in_one_pass`: QuantizeOptions::i16_in_one_pass.
  FormatPlanner(const Graph& graph, const std::vector<TensorStats>& stats, std::vector<int> bits8,
                bool allow_unsigned, bool i16_in_one_pass,
                const std::vector<TensorId>& partial_sums = {});

  const std::vector<FormatGroup>& groups() const { return groups_; }
  /// MACs of every inner product of the graph (one pass each).
  int64_t total_macs() const { return total_macs_; }
  /// The formats when the groups marked in `wide` (one flag per group) are i16.
  ActivationFormats Plan(const std::vector<bool>& wide) const;

 private:
  const std::vector<TensorStats>& stats_;
  std::vector<int> bits8_;
  std::vector<bool> votes_;             ///< ActivationGroups::votes
  std::vector<bool> unsigned_;          ///< u8 when 8-bit.
  std::vector<bool> relu6_bounded_;     ///< A relu6's output, or its input that does not vote.
  std::vector<bool> table_input_;       ///< Read by a lookup table (tables.h).
  std::vector<bool> saturating_input_;  ///< Read by sigmoid and tanh only.
  std::vector<bool> curved_input_;      ///< Read by a hard_swish table.
  std::vector<FormatGroup> groups_;
  int64_t total_macs_ = 0;
};

}  // namespace opuc::quant

#endif  // OPUC_SRC_QUANT_FORMATS_H
