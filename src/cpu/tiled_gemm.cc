//===- src/cpu/tiled_gemm.cc - Register tiles for narrow products -===//
#include "tiled_gemm.h"

#include <Eigen/Core>
#include <algorithm>
#include <array>
#include <utility>
#include <vector>

#include "kept_buffer.h"
#include "vector_width.h"

namespace opuc::cpu {
namespace {

/// The widest panel: two vector registers (vector_width.h). A tile of
/// kTileRows such rows stays in registers with the panel's two and a
/// broadcast (15 of SSE's and AVX's 16 registers).
constexpr int kWidestPanel = 2 * kFloatLanes;
constexpr int kTileRows = 6;

struct PackedWeights;

/// Rows [0, R) of a tile: out(r, j) = Σ_p a(r, p) · panel(p, j) for the
/// first `cols` of the panel's W columns.
template <int W, int R>
void Tile(const float* a, int64_t lda, const float* panel, int64_t k, float* out, int64_t ldo,
          int64_t cols) {
  using Lanes = Eigen::Array<float, W, 1>;
  Lanes acc[static_cast<size_t>(R > 0 ? R : 1)];  // (R = 0: the unused first entry)
  for (int r = 0; r < R; ++r) acc[r] = Lanes::Zero();
  for (int64_t p = 0; p < k; ++p) {
    const Lanes w = Eigen::Map<const Lanes>(panel + p * W);
    for (int r = 0; r < R; ++r) acc[r] += a[r * lda + p] * w;
  }
  for (int r = 0; r < R; ++r) {
    if (cols == W) {
      Eigen::Map<Lanes>(out + r * ldo) = acc[r];
      continue;
    }
    for (int64_t j = 0; j < cols; ++j) out[r * ldo + j] = acc[r](static_cast<Eigen::Index>(j));
  }
}

using TileFn = void (*)(const float*, int64_t, const float*, int64_t, float*, int64_t, int64_t);

template <int W, size_t... R>
constexpr std::array<TileFn, sizeof...(R)> TilesOf(std::index_sequence<R...>) {
  return {&Tile<W, static_cast<int>(R)>...};
}

/// out = a · bᵀ in panels of W columns: b packed k × W per panel (zeros past
/// its n rows), each tile of kTileRows rows of a summed against one panel.
template <int W>
void PanelGemm(MatrixView a, MatrixView b, float* out) {
  static constexpr auto kTiles = TilesOf<W>(std::make_index_sequence<kTileRows + 1>());
  const int64_t n = b.rows, k = a.cols;
  const int64_t panels = (n + W - 1) / W;
  std::vector<float>& packed = KeptBuffer<float, PackedWeights>();
  packed.assign(static_cast<size_t>(panels * k * W), 0.0f);
  for (int64_t c = 0; c < n; ++c) {
    float* column = packed.data() + (c / W) * k * W + c % W;
    const float* row = b.data + c * b.stride;
    for (int64_t p = 0; p < k; ++p) column[p * W] = row[p];
  }
  for (int64_t r = 0; r < a.rows; r += kTileRows) {
    const auto rows = static_cast<size_t>(std::min<int64_t>(kTileRows, a.rows - r));
    for (int64_t j = 0; j < panels; ++j)
      kTiles[rows](a.data + r * a.stride, a.stride, packed.data() + j * k * W, k,
                   out + r * n + j * W, n, std::min<int64_t>(W, n - j * W));
  }
}

}  // namespace

bool PrefersTiledGemm(int64_t rows, int64_t cols, int64_t k) {
  // A panel of the reduction stays in L1 (k · W floats within 32 KB) and
  // the packing (cols · k) is small beside the work. Under 4 columns most of
  // the narrowest panel would be zeros: Eigen's product is faster there
  // (pose_landmark_full's last conv, 1 channel: 1.8 ms tiled, 1.2 on Eigen).
  return cols >= 4 && cols <= 256 && k <= 256 && rows >= kTileRows;
}

void TiledGemmABt(MatrixView a, MatrixView b, float* out) {
  // The narrowest panel that holds every column, so a layer of a few
  // channels does not sum a whole register of zeros.
  const int64_t n = b.rows;
  if (n <= 4) return PanelGemm<4>(a, b, out);
  if (n <= 8 || kWidestPanel == 8) return PanelGemm<8>(a, b, out);
  if (n <= 16 || kWidestPanel == 16) return PanelGemm<16>(a, b, out);
  return PanelGemm<kWidestPanel>(a, b, out);
}

}  // namespace opuc::cpu
