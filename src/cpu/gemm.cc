//===- src/cpu/gemm.cc - Matrix products on Eigen -----------------===//
#include "gemm.h"

#include <Eigen/Core>
#include <algorithm>

#include "tiled_gemm.h"

namespace opuc::cpu {
namespace {

using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Strided = Eigen::Map<const Matrix, 0, Eigen::OuterStride<>>;

/// Our extents as Eigen's index (int on 32-bit targets; the extents of a
/// tensor that was allocated fit in it).
Eigen::Index Idx(int64_t v) { return static_cast<Eigen::Index>(v); }

Strided View(MatrixView m) {
  return Strided(m.data, Idx(m.rows), Idx(m.cols), Eigen::OuterStride<>(Idx(m.stride)));
}

/// Columns [begin, begin + count) of m.
MatrixView Columns(MatrixView m, int64_t begin, int64_t count) {
  return {m.data + begin, m.rows, count, m.stride};
}

}  // namespace

void GemmABt(MatrixView a, MatrixView b, float* out) {
  Eigen::Map<Matrix> result(out, Idx(a.rows), Idx(b.rows));
  if (a.cols == 0) {
    result.setZero();
    return;
  }
  if (PrefersTiledGemm(a.rows, b.rows, a.cols)) return TiledGemmABt(a, b, out);
  result.noalias() = View(a) * View(b).transpose();
}

int64_t ExactChunk(int64_t max_a, int64_t max_b) {
  constexpr int64_t kExact = int64_t{1} << 24;  // float's integers are exact up to here
  const int64_t product = std::max<int64_t>(max_a * max_b, 1);
  return std::max<int64_t>(kExact / product, 1);
}

void AccumulateExact(MatrixView a, MatrixView b, int64_t max_a, int64_t max_b, int64_t scale,
                     int64_t* acc, std::vector<float>& scratch) {
  const int64_t chunk = ExactChunk(max_a, max_b);
  const int64_t cells = a.rows * b.rows;
  scratch.resize(static_cast<size_t>(cells));
  for (int64_t k = 0; k < a.cols; k += chunk) {
    const int64_t count = std::min(chunk, a.cols - k);
    GemmABt(Columns(a, k, count), Columns(b, k, count), scratch.data());
    for (size_t i = 0; i < scratch.size(); ++i) acc[i] += scale * static_cast<int64_t>(scratch[i]);
  }
}

}  // namespace opuc::cpu
