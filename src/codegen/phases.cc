//===- src/codegen/phases.cc - Transposed convolutions as phases ------===//
#include "phases.h"

#include <algorithm>

#include "transfers.h"

namespace opuc::codegen {

void UsePhases(InnerProductGroup& g) {
  if (g.op != OpKind::kTransposeConv2D || g.gap_y < 2 || g.gap_x < 2) return;
  if (g.kh != g.gap_y || g.kw != g.gap_x) return;
  // Uncropped: the zero-inserted window starts kh - 1 rows before the
  // input, and the output is the stride times the input.
  const int64_t in_h = (g.in_h - 1) / g.gap_y + 1, in_w = (g.in_w - 1) / g.gap_x + 1;
  if (g.pad_top != g.kh - 1 || g.pad_left != g.kw - 1) return;
  if (g.out_h != in_h * g.kh || g.out_w != in_w * g.kw) return;
  // A residual tensor, pool or upsample would read the output's grid, not
  // the phases' (a per-channel constant reads no pixel).
  const bool tensor = std::any_of(g.residuals.begin(), g.residuals.end(),
                                  [](const ResidualStep& r) { return r.constant.empty(); });
  if (tensor || g.pool || g.upsampled != kNoTensor || !g.store_output) return;
  g.phases_y = g.gap_y;
  g.phases_x = g.gap_x;
  g.in_h = g.out_h = in_h;
  g.in_w = g.out_w = in_w;
  g.gap_y = g.gap_x = 1;
  g.pad_top = g.pad_left = 0;
  g.dy = g.dx = 0;
}

void StorePhases(const InnerProductGroup& g, const ActivationLayout& layout, int64_t acc_base,
                 int64_t rows, int64_t cols, int64_t kept_rows, int64_t kept_cols, int64_t c0,
                 int64_t lanes, int64_t y0, int64_t x0, CycleEstimate& estimate,
                 std::vector<isa::Instruction>& store) {
  const int64_t L = layout.lanes, block = c0 / L;
  const int64_t pixel = layout.PixelBytes(block), granules = layout.Granules(block);
  const int64_t row_bytes = layout.width * pixel;
  for (int64_t ky = 0; ky < g.phases_y; ++ky) {
    for (int64_t kx = 0; kx < g.phases_x; ++kx) {
      // The weights are read turned (Weight()): sub-tile (ky, kx) is phase
      // (s - 1 - ky, s - 1 - kx). (With packed rows the phases along x
      // lie inside a pixel: phases_x is 1.)
      const int64_t sub = acc_base + (ky * g.phases_x + kx) * rows * cols;
      const int64_t oy = g.phases_y * (y0 + 1) - 1 - ky, ox = g.phases_x * (x0 + 1) - 1 - kx;
      for (int64_t p = 0; p < layout.planes(); ++p) {
        isa::StoreInsn s;
        s.lanes = lanes;
        s.high_byte = layout.planes() == 2 && p == 0;
        s.granules = granules;
        const int64_t at = layout.PixelAddress(p, block, oy, ox) + c0 % L;
        if (granules > 0 && g.phases_x * granules <= 3) {
          // A compact map's pixels `phases_x` apart are `phases_x` times
          // its granules apart: one Store, its rows phases_y map rows apart.
          s.acc_addr = sub;
          s.acc_pitch = cols;
          s.rows = kept_rows;
          s.cols = kept_cols;
          s.dram_addr = at;
          s.dram_stride = g.phases_y * row_bytes;
          s.granules = g.phases_x * granules;
          const int64_t pixels = kept_rows * kept_cols;
          estimate.Store(StoreIssueCycles(s, estimate.buffer_units()), pixels * lanes,
                         StoreWrites(s, g.phases_x * pixel, L));
          store.push_back(s);
          continue;
        }
        // Else a Store per tile row, its pixels as the Store's rows, one
        // pixel each, phases_x pixels apart: a write a pixel.
        for (int64_t r = 0; r < kept_rows; ++r) {
          s.acc_addr = sub + r * cols;
          s.acc_pitch = 1;
          s.rows = kept_cols;
          s.cols = 1;
          s.dram_addr = at + r * g.phases_y * row_bytes;
          s.dram_stride = g.phases_x * pixel;
          estimate.Store(kept_cols, kept_cols * lanes, kept_cols);
          store.push_back(s);
        }
      }
    }
  }
}

}  // namespace opuc::codegen
