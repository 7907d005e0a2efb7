//===- src/quant/compensated_rounding.cc - Weights rounded as a whole -----===//
//
// The whole factor runs on Eigen's blocked Cholesky: a layer's dim is up to
// Kh·Kw·Ci (thousands), and the O(dim³) work is much of what quantizing a
// large model costs (bench/compile_speed_bench); the short form avoids it
// where the samples allow.
//
//===----------------------------------------------------------------------===//
#include "compensated_rounding.h"

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <algorithm>
#include <cmath>

namespace opuc::quant {

namespace {

using Matrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Vector = Eigen::VectorXd;

/// What the damping adds to a diagonal entry g of G: λ, and 1 where g is 0.
double Damping(double g, double mean) { return (g == 0.0 ? 1.0 : 0.0) + kGramDamping * mean; }

}  // namespace

RoundingFactor RoundingFactor::OfGram(const double* gram, int64_t dim) {
  // With P the reversal permutation, P(G + λI)P = L Lᵀ gives G + λI = R Rᵀ
  // for the upper triangular R = P L P: one Cholesky factorization, in
  // place in the matrix kept (a large layer's is tens of megabytes).
  RoundingFactor f;
  const auto n = static_cast<Eigen::Index>(dim);
  f.upper_.resize(static_cast<size_t>(dim * dim));
  Eigen::Map<Matrix> m(f.upper_.data(), n, n);
  const Eigen::Map<const Matrix> g(gram, n, n);
  const double mean = g.diagonal().mean();
  m = g.reverse();
  for (Eigen::Index i = 0; i < n; ++i) m(i, i) += Damping(m(i, i), mean);
  const Eigen::LLT<Eigen::Ref<Matrix>, Eigen::Lower> llt(m);  // m's lower triangle is L
  if (llt.info() != Eigen::Success) return {};
  m.triangularView<Eigen::StrictlyUpper>().setZero();
  m.reverseInPlace();             // P L P: upper triangular
  if (!m.allFinite()) return {};  // a non-finite input sum
  f.dim_ = dim;
  return f;
}

RoundingFactor RoundingFactor::OfPatches(const double* patches, int64_t dim, int64_t samples) {
  // Eliminating the inputs from the last: what remains of G + λI after
  // columns j+1.. is D + V S Vᵀ on inputs 0..j (D the damping, S = I at
  // first), so column j of R is (D_j + v_j·S v_j)^½ on the diagonal and
  // v_i · c_j above it with c_j = S v_j / R[j][j]; then S −= c_j c_jᵀ.
  RoundingFactor f;
  const auto n = static_cast<Eigen::Index>(dim), k = static_cast<Eigen::Index>(samples);
  const Eigen::Map<const Matrix> v(patches, n, k);
  const Vector norms = v.rowwise().squaredNorm();
  const double mean = norms.mean();
  f.diagonal_.resize(static_cast<size_t>(dim));
  f.columns_.resize(static_cast<size_t>(dim * samples));
  Eigen::Map<Matrix> c(f.columns_.data(), n, k);
  Matrix s = Matrix::Identity(k, k);
  for (Eigen::Index j = n - 1; j >= 0; --j) {
    const Vector sv = s * v.row(j).transpose();
    const double pivot = Damping(norms(j), mean) + v.row(j).dot(sv);
    if (!(pivot > 0.0) || !std::isfinite(pivot)) return {};
    const double r = std::sqrt(pivot);
    f.diagonal_[static_cast<size_t>(j)] = r;
    c.row(j) = sv.transpose() / r;
    s.noalias() -= c.row(j).transpose() * c.row(j);
  }
  if (!c.allFinite()) return {};
  f.basis_.assign(patches, patches + dim * samples);
  f.dim_ = dim;
  f.samples_ = samples;
  return f;
}

double RoundingFactor::operator()(int64_t i, int64_t j) const {
  if (i > j) return 0.0;
  if (!short_form()) return upper_[static_cast<size_t>(i * dim_ + j)];
  if (i == j) return diagonal_[static_cast<size_t>(j)];
  double sum = 0.0;
  for (int64_t s = 0; s < samples_; ++s)
    sum += basis_[static_cast<size_t>(i * samples_ + s)] *
           columns_[static_cast<size_t>(j * samples_ + s)];
  return sum;
}

void RoundingFactor::Round(std::vector<double>& rows, int64_t count,
                           const std::function<double(int64_t, double)>& round) const {
  if (count <= 0 || empty()) return;
  if (short_form())
    RoundShort(rows.data(), count, round);
  else
    RoundWhole(rows.data(), count, round);
}

void RoundingFactor::RoundWhole(double* weights, int64_t count,
                                const std::function<double(int64_t, double)>& round) const {
  const auto n = static_cast<Eigen::Index>(dim_), rows = static_cast<Eigen::Index>(count);
  Eigen::Map<Matrix> w(weights, rows, n);
  const Eigen::Map<const Matrix> r(upper_.data(), n, n);
  Eigen::MatrixXd errors(rows, n);                // w_i − q_i of the columns rounded
  Eigen::MatrixXd pending(rows, kRoundingBlock);  // Σ_{i<j} R[i][j]·(w_i − q_i)
  for (Eigen::Index b0 = 0; b0 < n; b0 += kRoundingBlock) {
    const Eigen::Index b1 = std::min<Eigen::Index>(b0 + kRoundingBlock, n), size = b1 - b0;
    if (b0 == 0)
      pending.setZero();
    else
      pending.leftCols(size).noalias() = errors.leftCols(b0) * r.block(0, b0, b0, size);
    for (Eigen::Index j = b0; j < b1; ++j) {
      for (Eigen::Index i = 0; i < rows; ++i) {
        const double q = round(static_cast<int64_t>(i), w(i, j) + pending(i, j - b0) / r(j, j));
        errors(i, j) = w(i, j) - q;
        w(i, j) = q;
      }
      pending.middleCols(j - b0 + 1, b1 - j - 1).noalias() +=
          errors.col(j) * r.row(j).segment(j + 1, b1 - j - 1);
    }
  }
}

void RoundingFactor::RoundShort(double* weights, int64_t count,
                                const std::function<double(int64_t, double)>& round) const {
  const auto n = static_cast<Eigen::Index>(dim_), rows = static_cast<Eigen::Index>(count);
  const auto k = static_cast<Eigen::Index>(samples_);
  Eigen::Map<Matrix> w(weights, rows, n);
  const Eigen::Map<const Matrix> v(basis_.data(), n, k), c(columns_.data(), n, k);
  Matrix sums = Matrix::Zero(rows, k);  // per row, Σ_{i<j} (w_i − q_i) v_i
  Vector pending(rows), errors(rows);
  for (Eigen::Index j = 0; j < n; ++j) {
    pending.noalias() = sums * c.row(j).transpose();
    const double diagonal = diagonal_[static_cast<size_t>(j)];
    for (Eigen::Index i = 0; i < rows; ++i) {
      const double q = round(static_cast<int64_t>(i), w(i, j) + pending(i) / diagonal);
      errors(i) = w(i, j) - q;
      w(i, j) = q;
    }
    sums.noalias() += errors * v.row(j);
  }
}

}  // namespace opuc::quant
