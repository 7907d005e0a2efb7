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
using FloatMatrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Vector = Eigen::VectorXd;

/// What the damping adds to a diagonal entry g of G: λ, and 1 where g is 0.
double Damping(double g, double mean) { return (g == 0.0 ? 1.0 : 0.0) + kGramDamping * mean; }

}  // namespace

RoundingFactor RoundingFactor::OfGram(const double* gram, int64_t dim) {
  // With P the reversal permutation, P(G + λI)P = L Lᵀ gives G + λI = R Rᵀ
  // for the upper triangular R = P L P: one Cholesky factorization, in
  // double, then kept in float.
  const auto n = static_cast<Eigen::Index>(dim);
  const Eigen::Map<const Matrix> g(gram, n, n);
  const double mean = g.diagonal().mean();
  Matrix m = g.reverse();
  for (Eigen::Index i = 0; i < n; ++i) m(i, i) += Damping(m(i, i), mean);
  const Eigen::LLT<Eigen::Ref<Matrix>, Eigen::Lower> llt(m);  // m's lower triangle is L
  if (llt.info() != Eigen::Success) return {};
  m.triangularView<Eigen::StrictlyUpper>().setZero();
  m.reverseInPlace();             // P L P: upper triangular
  if (!m.allFinite()) return {};  // a non-finite input sum
  RoundingFactor f;
  f.dim_ = dim;
  f.packed_ = dim <= kPackedFactorDim;
  if (f.packed_) {
    f.upper_.reserve(static_cast<size_t>(dim * (dim + 1) / 2));
    for (Eigen::Index i = 0; i < n; ++i)
      for (Eigen::Index j = i; j < n; ++j) f.upper_.push_back(static_cast<float>(m(i, j)));
  } else {
    f.upper_.resize(static_cast<size_t>(dim * dim));
    Eigen::Map<FloatMatrix>(f.upper_.data(), n, n) = m.cast<float>();
  }
  return f;
}

RoundingFactor RoundingFactor::OfPatches(const float* patches, int64_t dim, int64_t samples) {
  // Eliminating the inputs from the last: what remains of G + λI after
  // columns j+1.. is D + V S Vᵀ on inputs 0..j (D the damping, S = I at
  // first), so column j of R is (D_j + v_j·S v_j)^½ on the diagonal and
  // v_i · c_j above it with c_j = S v_j / R[j][j]; then S −= c_j c_jᵀ.
  RoundingFactor f;
  const auto n = static_cast<Eigen::Index>(dim), k = static_cast<Eigen::Index>(samples);
  const Matrix v = Eigen::Map<const FloatMatrix>(patches, n, k).cast<double>();
  const Vector norms = v.rowwise().squaredNorm();
  const double mean = norms.mean();
  f.diagonal_.resize(static_cast<size_t>(dim));
  Matrix c(n, k);
  Matrix s = Matrix::Identity(k, k);
  // By blocks of columns from the last, S as it was before the block: the
  // block's own c_i come off S v_j one by one, the block off S at once.
  for (Eigen::Index j1 = n; j1 > 0; j1 -= kRoundingBlock) {
    const Eigen::Index j0 = std::max<Eigen::Index>(0, j1 - kRoundingBlock);
    const Matrix products = v.middleRows(j0, j1 - j0) * s;  // row j − j0: (S v_j)ᵀ
    for (Eigen::Index j = j1 - 1; j >= j0; --j) {
      const auto later = c.middleRows(j + 1, j1 - j - 1);
      const Vector sv =
          products.row(j - j0).transpose() - later.transpose() * (later * v.row(j).transpose());
      const double pivot = Damping(norms(j), mean) + v.row(j).dot(sv);
      if (!(pivot > 0.0) || !std::isfinite(pivot)) return {};
      const double r = std::sqrt(pivot);
      f.diagonal_[static_cast<size_t>(j)] = r;
      c.row(j) = sv.transpose() / r;
    }
    s.noalias() -= c.middleRows(j0, j1 - j0).transpose() * c.middleRows(j0, j1 - j0);
  }
  if (!c.allFinite()) return {};
  f.columns_.resize(static_cast<size_t>(dim * samples));
  Eigen::Map<FloatMatrix>(f.columns_.data(), n, k) = c.cast<float>();
  f.basis_.assign(patches, patches + dim * samples);
  f.dim_ = dim;
  f.samples_ = samples;
  return f;
}

std::vector<float> RoundingFactor::Unpacked() const {
  std::vector<float> full(static_cast<size_t>(dim_ * dim_), 0.0f);
  auto packed = upper_.begin();
  for (int64_t i = 0; i < dim_; ++i) {
    const auto row = full.begin() + static_cast<std::ptrdiff_t>(i * dim_ + i);
    const auto length = static_cast<std::ptrdiff_t>(dim_ - i);
    std::copy(packed, packed + length, row);
    packed += length;
  }
  return full;
}

double RoundingFactor::operator()(int64_t i, int64_t j) const {
  if (i > j) return 0.0;
  // Row i of the packed triangle starts after rows 0..i-1: i·dim − i(i−1)/2.
  if (packed_) return upper_[static_cast<size_t>(i * dim_ - i * (i - 1) / 2 + (j - i))];
  if (!short_form()) return upper_[static_cast<size_t>(i * dim_ + j)];
  if (i == j) return diagonal_[static_cast<size_t>(j)];
  double sum = 0.0;
  for (int64_t s = 0; s < samples_; ++s)
    sum += static_cast<double>(basis_[static_cast<size_t>(i * samples_ + s)]) *
           static_cast<double>(columns_[static_cast<size_t>(j * samples_ + s)]);
  return sum;
}

void RoundingFactor::Round(std::vector<double>& rows, int64_t count,
                           const ColumnRounding& round) const {
  if (count <= 0 || empty()) return;
  const auto n = static_cast<Eigen::Index>(dim_), m = static_cast<Eigen::Index>(count);
  const auto k = static_cast<Eigen::Index>(samples_);
  Eigen::Map<Matrix> w(rows.data(), m, n);
  const std::vector<float> unpacked = packed_ ? Unpacked() : std::vector<float>();
  const Eigen::Map<const FloatMatrix> r(packed_ ? unpacked.data() : upper_.data(),
                                        short_form() ? 0 : n, short_form() ? 0 : n);
  const Eigen::Map<const FloatMatrix> basis(basis_.data(), n, k), c(columns_.data(), n, k);
  const Eigen::Index widest = std::min<Eigen::Index>(kRoundingBlock, n);
  Eigen::MatrixXd errors(m, n);        // w_i − q_i of the columns rounded
  Eigen::MatrixXd pending(m, widest);  // Σ_{i<j} R[i][j]·(w_i − q_i)
  Matrix block(widest, widest);        // R on the block's columns (a depthwise channel's: 9×9)
  Matrix sums = Matrix::Zero(m, k);    // short: Σ_{i<b0} (w_i − q_i) v_i
  Vector column(m);                    // the column being rounded
  for (Eigen::Index b0 = 0; b0 < n; b0 += kRoundingBlock) {
    const Eigen::Index b1 = std::min<Eigen::Index>(b0 + kRoundingBlock, n), size = b1 - b0;
    auto before = pending.leftCols(size);
    auto within = block.topLeftCorner(size, size);
    if (short_form()) {
      const Matrix columns = c.middleRows(b0, size).cast<double>();
      before.noalias() = sums * columns.transpose();
      within.noalias() = basis.middleRows(b0, size).cast<double>() * columns.transpose();
    } else {
      if (b0 == 0)
        before.setZero();
      else
        before.noalias() = errors.leftCols(b0) * r.block(0, b0, b0, size).cast<double>();
      within = r.block(b0, b0, size, size).cast<double>();
    }
    for (Eigen::Index j = b0; j < b1; ++j) {
      const double diagonal =
          short_form() ? diagonal_[static_cast<size_t>(j)] : within(j - b0, j - b0);
      for (Eigen::Index i = 0; i < m; ++i) column(i) = w(i, j) + pending(i, j - b0) / diagonal;
      round(column.data(), count);
      for (Eigen::Index i = 0; i < m; ++i) {
        errors(i, j) = w(i, j) - column(i);
        w(i, j) = column(i);
      }
      pending.middleCols(j - b0 + 1, b1 - j - 1).noalias() +=
          errors.col(j) * within.row(j - b0).segment(j - b0 + 1, b1 - j - 1);
    }
    if (short_form())
      sums.noalias() += errors.middleCols(b0, size) * basis.middleRows(b0, size).cast<double>();
  }
}

}  // namespace opuc::quant
