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
#include <vector>

namespace opuc::quant {

/// Relative damping λ / mean(diag G).
inline constexpr double kGramDamping = 0.01;

/// U (dim × dim, row-major, upper triangular) for the `dim` × `dim` Gram
/// matrix `gram`; empty when the damped matrix is numerically not positive
/// definite or not finite (the caller then rounds to nearest).
std::vector<double> CompensationFactor(const double* gram, int64_t dim);

/// Rounds `weights` (dim values in G's order) in place with `round(x)`, which
/// returns the grid value x rounds to (saturation included), compensating
/// each error on the weights not yet rounded.
template <typename Round>
void RoundCompensated(std::vector<double>& weights, const std::vector<double>& factor,
                      Round round) {
  const auto dim = static_cast<int64_t>(weights.size());
  for (int64_t j = 0; j < dim; ++j) {
    const double q = round(weights[static_cast<size_t>(j)]);
    const double* u = factor.data() + j * dim;
    const double scaled_error = (weights[static_cast<size_t>(j)] - q) / u[j];
    for (int64_t k = j + 1; k < dim; ++k) weights[static_cast<size_t>(k)] -= scaled_error * u[k];
    weights[static_cast<size_t>(j)] = q;
  }
}

}  // namespace opuc::quant

#endif  // OPUC_SRC_QUANT_COMPENSATED_ROUNDING_H
