//===- src/codegen/packed_rows.cc - A one-channel head, rows packed ---===//
#include "packed_rows.h"

#include <algorithm>

namespace opuc::codegen {
namespace {

int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

}  // namespace

bool UsePackedRows(InnerProductGroup& g, const OpuBufferUnits& u, bool compact) {
  const int64_t co = u.out_lanes;
  if (!compact || u.lanes % co != 0 || co % (u.lanes / co) != 0 || u.lanes / co < 2) return false;
  // A transposed convolution as phases (phases.h) packs too: its phases
  // along x then lie inside an output pixel.
  const bool phased = g.op == OpKind::kTransposeConv2D && g.Phases() > 1;
  if ((g.op != OpKind::kConv2D && !phased) || g.identity || g.depthwise || g.diagonal ||
      !g.pieces.empty())
    return false;
  if (g.out_c != 1 || g.in_c > co || g.in_format == DType::kI16 || g.out_format == DType::kI16)
    return false;
  const int64_t taps_x = phased ? 0 : 1;  // dy = dx = 0 as phases, else no dilation
  if (g.sy != 1 || g.sx != 1 || g.dy != taps_x || g.dx != taps_x || g.gap_y != 1 || g.gap_x != 1)
    return false;
  if (g.bias.size() != 1 || g.shift.size() != 1) return false;
  if (!g.residuals.empty() || g.pool || g.upsampled != kNoTensor || !g.store_output) return false;
  const int64_t in_pack = u.lanes / co;  // input pixels a packed input pixel
  // Input pixels an output pixel of Co reads from: Co, or Co / s as phases.
  const int64_t per_out = phased ? co / g.phases_x : co;
  if (per_out < in_pack || per_out % in_pack != 0 || (phased && co % g.phases_x != 0) ||
      g.out_w != g.in_w || g.in_w % per_out != 0)
    return false;
  const int64_t stride = per_out / in_pack;  // packed input pixels an output pixel
  const int64_t left = g.pad_left, right = g.kw - 1 - g.pad_left;
  g.packed = InnerProductGroup::PackedRows{g.kw, g.in_c, left, in_pack, co};
  if (phased) {
    g.phases_x = 1;
    g.kw = stride;
    g.dx = 1;
  } else {
    g.pad_left = CeilDiv(left, in_pack);
    g.kw = stride + g.pad_left + CeilDiv(right, in_pack);
  }
  g.sx = stride;
  g.out_w = g.in_w / per_out;
  g.in_w /= in_pack;
  g.in_c = u.lanes;
  g.out_c = co;
  g.bias.assign(static_cast<size_t>(co), g.bias[0]);
  g.shift.assign(static_cast<size_t>(co), g.shift[0]);
  if (!g.alpha.empty()) g.alpha.assign(static_cast<size_t>(co), g.alpha[0]);
  return true;
}

ActivationLayout PackedInput(const ActivationLayout& input, const OpuBufferUnits& u) {
  ActivationLayout view = input;
  const int64_t in_pack = u.lanes / u.out_lanes;
  view.width = input.width / in_pack;
  view.channels = u.lanes;
  view.granule = 0;
  return view;
}

}  // namespace opuc::codegen
