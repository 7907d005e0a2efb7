//===- src/codegen/packed_rows.cc - A one-channel head, rows packed ---===//
#include "packed_rows.h"

#include <algorithm>

#include "transfers.h"

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

bool UsePackedPixels(InnerProductGroup& g, const OpuBufferUnits& u, bool compact) {
  const int64_t co = u.out_lanes, in_pack = u.lanes / co;
  if (!compact || u.lanes % co != 0 || in_pack < 2) return false;
  // An identity pass (a group without an inner product) packs as a dense
  // 1x1 product with weight 1 on each pixel's own channels.
  const bool dense = g.op == OpKind::kConv2D && !g.identity && !g.depthwise;
  if ((!dense && !g.identity) || g.diagonal || !g.pieces.empty() || g.packed) return false;
  if (g.in_c > co || g.out_c > co || g.in_format == DType::kI16 || g.out_format == DType::kI16)
    return false;
  if (g.sy != 1 || g.sx != 1 || g.dy != 1 || g.dx != 1 || g.gap_y != 1 || g.gap_x != 1)
    return false;
  if (g.out_w != g.in_w || g.in_w % in_pack != 0 || g.pool || g.upsampled != kNoTensor ||
      !g.store_output)
    return false;
  // Worth it where the loads outrun the array: a unit a pixel for the
  // input and each residual against kh x kw passes, on a map large enough
  // that four pairs a tile cost little.
  int64_t tensors = 1;
  for (const ResidualStep& r : g.residuals) {
    // A residual tile of two planes lies a whole tile after its high one;
    // a per-channel constant's rows hold every block's lanes.
    if ((r.constant.empty() && r.format == DType::kI16) || r.channels > co) return false;
    tensors += r.constant.empty() ? 1 : 0;
  }
  if (tensors < g.kh * g.kw || g.out_h * g.out_w < kPackedPixelsLeast) return false;
  const int64_t left = g.pad_left, right = g.kw - 1 - g.pad_left;
  g.packed = InnerProductGroup::PackedRows{g.kw, g.in_c, left, in_pack, 1, g.out_c};
  g.depthwise = false;  // an identity pass: dense weight rows (Weight())
  g.pad_left = CeilDiv(left, in_pack);
  g.kw = 1 + g.pad_left + CeilDiv(right, in_pack);
  g.in_w /= in_pack;
  g.out_w /= in_pack;
  g.in_c = u.lanes;
  // Output block k is pixel k: its channels' constants again, zero past them.
  const auto spread = [&](auto& v) {
    auto one = v;
    one.resize(static_cast<size_t>(co), 0);
    v.clear();
    for (int64_t k = 0; k < in_pack; ++k) v.insert(v.end(), one.begin(), one.end());
  };
  spread(g.bias);
  spread(g.shift);
  if (!g.alpha.empty()) spread(g.alpha);
  for (ResidualStep& r : g.residuals)
    if (!r.constant.empty()) spread(r.constant);
  g.out_c = in_pack * co;
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

void StorePackedPixels(const InnerProductGroup& g, const ActivationLayout& output, int64_t acc_addr,
                       int64_t rows, int64_t cols, int64_t pitch, int64_t block, int64_t y0,
                       int64_t x0, CycleEstimate& estimate, std::vector<isa::Instruction>& store,
                       int64_t extra_blocks) {
  const int64_t in_pack = g.packed->in_pack, lanes = g.packed->out_c;
  const int64_t L = output.lanes, block_lanes = L / in_pack;
  for (int64_t p = 0; p < output.planes(); ++p) {
    isa::StoreInsn s;
    s.acc_addr = acc_addr;
    s.acc_pitch = pitch;
    s.rows = rows;
    s.cols = cols;
    s.lanes = lanes;
    s.dram_addr = output.PixelAddress(p, 0, y0, in_pack * x0 + block);
    s.dram_stride = output.width * output.PixelBytes(0);
    s.granules = 0;  // in_pack compact pixels: L bytes
    s.high_byte = output.planes() == 2 && p == 0;
    s.extra_blocks = extra_blocks;
    estimate.Store(StoreIssueCycles(s, estimate.buffer_units()),
                   rows * cols * (extra_blocks * block_lanes + lanes), StoreWrites(s, L, L));
    store.push_back(s);
  }
}

}  // namespace opuc::codegen
