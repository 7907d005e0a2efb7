//===- src/codegen/depthwise_window.cc - Depthwise on the array -------===//
#include "depthwise_window.h"

#include <algorithm>

namespace opuc::codegen {
namespace {
constexpr int64_t kMaxWindowSide = 8;  // Gemm.window_h, window_w: 3 bits, minus one
constexpr int64_t kMaxLane = 127;      // Gemm.lane: 7 bits
}  // namespace

int64_t DepthwiseWindowRows(const HwConfig& hw, int64_t lanes, int64_t kw) {
  if (kw > kMaxWindowSide || kw > lanes) return 0;
  return std::min({hw.ipa.depthwise_window, kMaxWindowSide, (lanes - kw) / kTapRow + 1});
}

void ChooseDepthwiseWindow(InnerProductGroup& g, const HwConfig& hw, const OpuBufferUnits& u) {
  g.window_rows = 0;
  const bool fits = g.depthwise && !g.identity && g.kh * g.kw > 1 && g.dy == 1 && g.dx == 1 &&
                    g.sx <= g.kw && (g.multiplier == 1 || g.multiplier == 2) &&
                    u.out_lanes % g.multiplier == 0 && u.lanes - 1 <= kMaxLane;
  if (fits) g.window_rows = std::min(g.kh, DepthwiseWindowRows(hw, u.lanes, g.kw));
}

bool UsesWindowPairs(const InnerProductGroup& g, const OpuBufferUnits& u) {
  const bool rows_fit = g.kh * kTapRow <= u.lanes / 2 || PacksWindowRows(g, u);
  return g.window_rows >= g.kh && rows_fit && g.kw + 1 <= kMaxWindowSide && g.sx == 1 &&
         g.in_format != DType::kI16 && !g.i16_whole && u.fm_pairs && u.line_columns > 1;
}

bool UsesBlockPairs(const InnerProductGroup& g, const OpuBufferUnits& u) {
  const int64_t blocks = (g.out_c + u.out_lanes - 1) / u.out_lanes;
  return g.window_rows >= g.kh && g.kh * kTapRow <= u.lanes / 2 &&
         g.kh - 1 + u.WindowHalfRows() <= u.line_buffers && g.kw % 2 == 1 && g.sx == 2 &&
         g.multiplier == 1 && g.in_format != DType::kI16 && !g.i16_whole && u.fm_pairs &&
         u.line_columns > 1 && u.lanes % (2 * u.out_lanes) == 0 && blocks >= 2 &&
         blocks + blocks / 2 <= u.param_rows;
}

int64_t ResidentParamRows(const InnerProductGroup& g, int64_t out_blocks) {
  return out_blocks + (g.block_pairs ? out_blocks / 2 : 0);
}

bool PacksWindowRows(const InnerProductGroup& g, const OpuBufferUnits& u) {
  return g.kh == 5 && g.kw == 5 && g.kh * kTapRow > u.lanes / 2 &&
         g.kh * kPackedTapRow <= u.lanes / 2;
}

int64_t WindowTapRowOf(const InnerProductGroup& g, const OpuBufferUnits& u) {
  return g.window_pairs && PacksWindowRows(g, u) ? kPackedTapRow : kTapRow;
}

bool EvenColumnsFit(const InnerProductGroup& g) {
  const bool residual_tiles = std::any_of(g.residuals.begin(), g.residuals.end(),
                                          [](const auto& r) { return r.constant.empty(); });
  return g.window_pairs && !g.pool && g.upsampled == kNoTensor && g.Phases() == 1 && !g.packed &&
         g.store_output && !residual_tiles;
}

std::vector<Span> EvenSpans(std::vector<Span> spans) {
  for (Span& s : spans) s.size += s.size % 2;
  return spans;
}

bool WindowPairsFit(const InnerProductGroup& g, const Tiling& t, const OpuBufferUnits& u) {
  if (!g.window_pairs || !PacksWindowRows(g, u)) return true;
  return std::all_of(t.cols.begin(), t.cols.end(), [&](const Span& c) {
    return c.size % 2 == 0 && c.size + g.kw + 1 <= u.line_columns;
  });
}

}  // namespace opuc::codegen
