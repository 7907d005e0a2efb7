//===- src/quant/compensated_rounding.cc - Weights rounded as a whole -----===//
#include "compensated_rounding.h"

#include <cmath>

namespace opuc::quant {
namespace {

size_t At(int64_t dim, int64_t i, int64_t j) { return static_cast<size_t>(i * dim + j); }

/// Lower triangular L with L Lᵀ = a (dim × dim, row-major); false when a
/// pivot is not positive.
bool Cholesky(const std::vector<double>& a, int64_t dim, std::vector<double>& l) {
  l.assign(static_cast<size_t>(dim * dim), 0.0);
  for (int64_t i = 0; i < dim; ++i) {
    for (int64_t j = 0; j <= i; ++j) {
      double sum = a[At(dim, i, j)];
      for (int64_t k = 0; k < j; ++k) sum -= l[At(dim, i, k)] * l[At(dim, j, k)];
      if (i != j) {
        l[At(dim, i, j)] = sum / l[At(dim, j, j)];
      } else if (sum > 0.0) {
        l[At(dim, i, i)] = std::sqrt(sum);
      } else {
        return false;
      }
    }
  }
  return true;
}

/// The inverse of the lower triangular `l`, row by row (each row a sum of
/// earlier rows, so the inner loop runs along contiguous memory).
std::vector<double> InvertLower(const std::vector<double>& l, int64_t dim) {
  std::vector<double> inv(static_cast<size_t>(dim * dim), 0.0);
  for (int64_t i = 0; i < dim; ++i) {
    double* row = inv.data() + i * dim;
    for (int64_t k = 0; k < i; ++k) {
      const double lik = l[At(dim, i, k)];
      const double* earlier = inv.data() + k * dim;
      for (int64_t j = 0; j <= k; ++j) row[j] -= lik * earlier[j];
    }
    row[i] = 1.0;
    const double pivot = l[At(dim, i, i)];
    for (int64_t j = 0; j <= i; ++j) row[j] /= pivot;
  }
  return inv;
}

}  // namespace

std::vector<double> CompensationFactor(const double* gram, int64_t dim) {
  // With P the reversal permutation, P(G + λI)P = L Lᵀ gives G + λI = R Rᵀ
  // for the upper triangular R = P L P; so (G + λI)⁻¹ = R⁻ᵀ R⁻¹ and
  // U = R⁻¹ = P L⁻¹ P: one Cholesky factorization and one triangular inverse.
  double mean = 0.0;
  for (int64_t i = 0; i < dim; ++i) mean += gram[At(dim, i, i)];
  mean /= static_cast<double>(dim);
  std::vector<double> reversed(static_cast<size_t>(dim * dim));
  for (int64_t i = 0; i < dim; ++i)
    for (int64_t j = 0; j < dim; ++j)
      reversed[At(dim, i, j)] = gram[At(dim, dim - 1 - i, dim - 1 - j)];
  for (int64_t i = 0; i < dim; ++i) {
    double& diagonal = reversed[At(dim, i, i)];
    if (diagonal == 0.0) diagonal = 1.0;
    diagonal += kGramDamping * mean;
  }
  std::vector<double> l;
  if (!Cholesky(reversed, dim, l)) return {};
  const std::vector<double> l_inv = InvertLower(l, dim);
  std::vector<double> u(static_cast<size_t>(dim * dim), 0.0);
  for (int64_t i = 0; i < dim; ++i)
    for (int64_t j = i; j < dim; ++j) {
      u[At(dim, i, j)] = l_inv[At(dim, dim - 1 - i, dim - 1 - j)];
      if (!std::isfinite(u[At(dim, i, j)])) return {};  // a non-finite input sum
    }
  return u;
}

}  // namespace opuc::quant
