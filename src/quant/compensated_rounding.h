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
// With U the upper triangular factor of (G + λI)⁻¹ = UᵀU, rounding weight j
// to q_j moves every later weight k by −(w_j − q_j) · U[j][k] / U[j][j].
// The damping λ (1% of the mean diagonal) keeps U finite when inputs are
// (nearly) linearly dependent; an input that was always zero gets G = 1 on
// the diagonal, so its weight is simply rounded.
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

/// U (dim × dim, row-major, upper triangular) for the `dim` × `dim` Gram
/// matrix `gram`; empty when the damped matrix is numerically not positive
/// definite or not finite (the caller then rounds to nearest).
std::vector<double> CompensationFactor(const double* gram, int64_t dim);

/// Columns rounded one at a time before their errors reach the rest at once.
inline constexpr int64_t kRoundingBlock = 64;

/// Rounds `count` rows of `dim` weights each (row-major in `rows`, every
/// row in G's order, all reading the same inputs) in place with
/// `round(row, x)`, which returns the grid value x rounds to in that row
/// (saturation included), compensating each error on the row's weights not
/// yet rounded. The columns go in blocks of kRoundingBlock: inside a block
/// one column at a time, then the block's errors reach every later column in
/// one matrix product (OPTQ's lazy batch updates: the same arithmetic,
/// summed in another order).
void RoundCompensatedRows(std::vector<double>& rows, int64_t count,
                          const std::vector<double>& factor,
                          const std::function<double(int64_t, double)>& round);

}  // namespace opuc::quant

#endif  // OPUC_SRC_QUANT_COMPENSATED_ROUNDING_H
