//===- src/cpu/tiled_gemm.h - Register tiles for narrow products -*- C++ -*-===//
//
// out = A · Bᵀ for the shapes of a small network's layers: thousands of
// rows (output pixels), but few columns (output channels, up to a few
// hundred) and short reductions. Eigen's GEMM is built for large square
// products; on a 4096 × 28 × 24 pointwise conv it reaches a third of the
// machine's rate. Here B is packed once per call into panels of kPanel
// columns, k rows each (zero columns past n), and each tile of up to kTileRows
// rows × one panel is summed in registers over the whole reduction, the
// rows' elements broadcast — the microkernel shape of XNNPACK's GEMMs.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_CPU_TILED_GEMM_H
#define OPUC_SRC_CPU_TILED_GEMM_H

#include "gemm.h"

namespace opuc::cpu {

/// Whether TiledGemmABt is the faster path for a product of these extents
/// (measured: bench/cpu_layers_bench).
bool PrefersTiledGemm(int64_t rows, int64_t cols, int64_t k);

/// out (a.rows × b.rows, row-major, dense) = a · bᵀ; a.cols == b.cols ≥ 1.
/// Each element is summed over k in ascending order.
void TiledGemmABt(MatrixView a, MatrixView b, float* out);

}  // namespace opuc::cpu

#endif  // OPUC_SRC_CPU_TILED_GEMM_H
