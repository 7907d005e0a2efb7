//===- src/quant/compensated_rounding.h - Weights rounded as a whole (private) -*- C++ -*-===//
//
// Rounding each weight to its nearest grid point minimizes the error of the
// weights, not of the output. With the Gram matrix G of the inputs
// (input_gram.h) the output's squared error over the calibration samples is
// (w − q)ᵀ G (w − q), and the rounding errors of correlated inputs can
// cancel: round the weights one at a time, and after each spread its error
// over the weights not yet rounded, as the least-squares solution for those
// weights prescribes (optimal brain surgeon's update, used for whole
// layers by Frantar et al., "OPTQ", ICLR 2023).
//
// OPTQ writes the update with U, the upper triangular factor of
// (G + λI)⁻¹ = UᵀU. Its inverse R = U⁻¹ is upper triangular too, with
// G + λI = R Rᵀ, and the same rounding reads: weight j is rounded from
//   w_j + Σ_{i<j} R[i][j] · (w_i − q_i) / R[j][j]
// (Chen et al., "GPTQ as Babai's nearest plane algorithm", 2025), so one
// factorization suffices and no inverse is made. The damping λ (1% of the
// mean diagonal) keeps R finite when inputs are (nearly) linearly
// dependent; an input that was always zero gets G = 1 on the diagonal, so
// its weight is simply rounded.
//
// When the samples are fewer than the inputs (a deep layer of a large
// model calibrated on one photograph: 64 positions of 1632 inputs),
// G = V Vᵀ for the dim × N matrix V of the patches, and R has a short form:
// R[i][j] = v_i · c_j above the diagonal, with N numbers c_j per column.
// Factoring then costs dim·N² instead of dim³/3, and rounding a row dim·N
// instead of dim².
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_QUANT_COMPENSATED_ROUNDING_H
#define OPUC_SRC_QUANT_COMPENSATED_ROUNDING_H

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace opuc::quant {

/// Relative damping λ / mean(diag G).
inline constexpr double kGramDamping = 0.01;

/// Columns rounded one at a time before their errors reach the rest at once.
inline constexpr int64_t kRoundingBlock = 64;

/// Whole factors up to this dim keep only their upper triangle: a large
/// model's depthwise channels hold tens of thousands of 9×9 and 25×25
/// factors (pose_landmark_heavy's, 107 MB of a 323 MB compile peak), each
/// half zeros below the diagonal; kept packed, the peak fell to 295 MB.
inline constexpr int64_t kPackedFactorDim = 64;

/// R for one Gram matrix, whole or in its short form; empty when the damped
/// matrix is numerically not positive definite or not finite (the caller
/// then rounds to nearest).
class RoundingFactor {
 public:
  RoundingFactor() = default;
  /// From the `dim` × `dim` Gram matrix `gram` (row-major).
  static RoundingFactor OfGram(const double* gram, int64_t dim);
  /// From the patches: `dim` × `samples`, row i input i on every sample
  /// (G = V Vᵀ), in the short form. Floats, as the activations hold them:
  /// kept so, they take half the bytes and lose nothing.
  static RoundingFactor OfPatches(const float* patches, int64_t dim, int64_t samples);

  bool empty() const { return dim_ == 0; }
  int64_t dim() const { return dim_; }
  bool short_form() const { return samples_ > 0; }
  /// R[i][j] (0 below the diagonal).
  double operator()(int64_t i, int64_t j) const;

  /// Rounds column values in place: values[r] (r < count) is row r's weight
  /// plus its compensation; each becomes the grid value it rounds to in
  /// that row (saturation included). One call per column, so that the
  /// rounding of a layer's channels can be one vector loop.
  using ColumnRounding = std::function<void(double* values, int64_t count)>;

  /// Rounds `count` rows of `dim` weights each (row-major in `rows`, every
  /// row in G's order, all reading the same inputs) in place, column by
  /// column with `round`, each weight from its value plus the compensation
  /// of the errors before it. Whole: the columns go in blocks of
  /// kRoundingBlock, the errors of the blocks before reaching a block in one
  /// matrix product (OPTQ's lazy batch updates: the same arithmetic, summed
  /// in another order). Short: the errors so far kept as one N-vector a row.
  void Round(std::vector<double>& rows, int64_t count, const ColumnRounding& round) const;

 private:
  /// A packed R as the dim × dim row-major matrix Round maps.
  std::vector<float> Unpacked() const;

  // R is computed in double and kept in float: half the bytes of a large
  // model's factors (tens of megabytes), and seven digits are more than
  // the Gram matrices it comes from hold (their sums are made in float).
  int64_t dim_ = 0, samples_ = 0;
  bool packed_ = false;           ///< Whole, dim <= kPackedFactorDim.
  std::vector<float> upper_;      ///< Whole: R, dim × dim row-major, or its upper triangle's rows.
  std::vector<double> diagonal_;  ///< Short: R[j][j].
  std::vector<float> basis_;      ///< Short: V, dim × N row-major.
  std::vector<float> columns_;    ///< Short: c_j, dim × N row-major.
};

}  // namespace opuc::quant

#endif  // OPUC_SRC_QUANT_COMPENSATED_ROUNDING_H
