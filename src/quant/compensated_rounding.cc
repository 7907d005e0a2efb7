//===- src/quant/compensated_rounding.cc - Weights rounded as a whole -----===//
//
// The factorization runs on Eigen's blocked Cholesky and triangular solve:
// a layer's dim is up to Kh·Kw·Ci (thousands), and the O(dim³) work is most
// of what quantizing a large model costs (bench/compile_speed_bench).
//
//===----------------------------------------------------------------------===//
#include "compensated_rounding.h"

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <algorithm>

namespace opuc::quant {

namespace {

using Matrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

/// Replaces the lower triangular `l` by its inverse, by halves:
/// inv([A 0; B C]) = [A⁻¹ 0; −C⁻¹ B A⁻¹ C⁻¹], the two products triangular
/// times dense: n³/3 multiply-adds, where a solve against the identity
/// would spend n³ on its zeros.
void InvertLowerInPlace(Eigen::Ref<Matrix> l) {
  const Eigen::Index n = l.rows();
  if (n <= 32) {
    Matrix inverse = Matrix::Identity(n, n);
    l.triangularView<Eigen::Lower>().solveInPlace(inverse);
    l = inverse;
    return;
  }
  const Eigen::Index h = n / 2;
  InvertLowerInPlace(l.topLeftCorner(h, h));
  InvertLowerInPlace(l.bottomRightCorner(n - h, n - h));
  Matrix b = l.bottomRightCorner(n - h, n - h).triangularView<Eigen::Lower>() *
             l.bottomLeftCorner(n - h, h);
  l.bottomLeftCorner(n - h, h).noalias() =
      -(b * l.topLeftCorner(h, h).triangularView<Eigen::Lower>());
}

}  // namespace

std::vector<double> CompensationFactor(const double* gram, int64_t dim) {
  // With P the reversal permutation, P(G + λI)P = L Lᵀ gives G + λI = R Rᵀ
  // for the upper triangular R = P L P; so (G + λI)⁻¹ = R⁻ᵀ R⁻¹ and
  // U = R⁻¹ = P L⁻¹ P: one Cholesky factorization and one triangular
  // inverse, both in the one matrix returned (a large layer's is tens of
  // megabytes: no copies).
  const auto n = static_cast<Eigen::Index>(dim);
  std::vector<double> u(static_cast<size_t>(dim * dim));
  Eigen::Map<Matrix> m(u.data(), n, n);
  const Eigen::Map<const Matrix> g(gram, n, n);
  const double mean = g.diagonal().mean();
  m = g.reverse();
  for (Eigen::Index i = 0; i < n; ++i) {
    double& diagonal = m(i, i);
    if (diagonal == 0.0) diagonal = 1.0;
    diagonal += kGramDamping * mean;
  }
  const Eigen::LLT<Eigen::Ref<Matrix>, Eigen::Lower> llt(m);  // in place: m's lower triangle is L
  if (llt.info() != Eigen::Success) return {};
  InvertLowerInPlace(m);
  m.triangularView<Eigen::StrictlyUpper>().setZero();
  m.reverseInPlace();             // P L⁻¹ P: upper triangular
  if (!m.allFinite()) return {};  // a non-finite input sum
  return u;
}

void RoundCompensatedRows(std::vector<double>& rows, int64_t count,
                          const std::vector<double>& factor,
                          const std::function<double(int64_t, double)>& round) {
  if (count <= 0) return;
  const auto dim = static_cast<Eigen::Index>(static_cast<int64_t>(rows.size()) / count);
  Eigen::Map<Matrix> w(rows.data(), static_cast<Eigen::Index>(count), dim);
  const Eigen::Map<const Matrix> u(factor.data(), dim, dim);
  Matrix errors(w.rows(), kRoundingBlock);
  for (Eigen::Index b0 = 0; b0 < dim; b0 += kRoundingBlock) {
    const Eigen::Index b1 = std::min<Eigen::Index>(b0 + kRoundingBlock, dim);
    for (Eigen::Index j = b0; j < b1; ++j) {
      for (Eigen::Index r = 0; r < w.rows(); ++r) {
        const double q = round(static_cast<int64_t>(r), w(r, j));
        const double scaled_error = (w(r, j) - q) / u(j, j);
        errors(r, j - b0) = scaled_error;
        w.row(r).segment(j + 1, b1 - j - 1) -= scaled_error * u.row(j).segment(j + 1, b1 - j - 1);
        w(r, j) = q;
      }
    }
    if (b1 < dim)
      w.rightCols(dim - b1).noalias() -=
          errors.leftCols(b1 - b0) * u.block(b0, b1, b1 - b0, dim - b1);
  }
}

}  // namespace opuc::quant
