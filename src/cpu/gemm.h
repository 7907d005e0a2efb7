//===- src/cpu/gemm.h - Matrix products on Eigen --------*- C++ -*-===//
//
// Every inner product of the CPU executor ends here: out = A · Bᵀ with A the
// rows of input patches and B the weights, one row per output channel, both
// row-major as NHWC tensors and OHWI weights lie, so neither is transposed in
// memory. Integer products run on the same float GEMM, exactly: a float sum
// of integers is exact while every partial sum stays within 2^24, so the
// reduction is cut into chunks short enough for that and the chunks are
// added in int64 (docs/cpu-executor.md).
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_CPU_GEMM_H
#define OPUC_SRC_CPU_GEMM_H

#include <cstdint>
#include <vector>

namespace opuc::cpu {

/// A row-major matrix view: element (r, c) at data[r · stride + c].
struct MatrixView {
  const float* data = nullptr;
  int64_t rows = 0, cols = 0, stride = 0;
};

/// out (a.rows × b.rows, row-major, dense) = a · bᵀ; a.cols == b.cols.
void GemmABt(MatrixView a, MatrixView b, float* out);

/// The longest reduction whose float sums are exact when |a| ≤ max_a and
/// |b| ≤ max_b elementwise (at least 1).
int64_t ExactChunk(int64_t max_a, int64_t max_b);

/// acc[r · b.rows + c] += scale · Σ_k a(r, k) · b(c, k), exactly, for
/// integer-valued a and b bounded by max_a and max_b. `scratch` is reused.
void AccumulateExact(MatrixView a, MatrixView b, int64_t max_a, int64_t max_b, int64_t scale,
                     int64_t* acc, std::vector<float>& scratch);

}  // namespace opuc::cpu

#endif  // OPUC_SRC_CPU_GEMM_H
