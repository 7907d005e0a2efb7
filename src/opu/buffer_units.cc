//===- src/opu/buffer_units.cc - The OPU's buffers in their units ---------===//
#include "opuc/opu/buffer_units.h"

#include <algorithm>

namespace opuc {

OpuBufferUnits BufferUnits(const HwConfig& hw) {
  OpuBufferUnits u;
  u.lanes = hw.array.input_channels;
  u.out_lanes = hw.array.output_channels;
  const auto bytes = [](const BufferSpec& b) { return b.bytes_per_bank * b.banks; };
  u.fm_rows = bytes(hw.buffers.feature_map) / u.lanes;
  u.weight_rows = bytes(hw.buffers.weight) / (u.lanes * u.out_lanes);
  u.param_rows = bytes(hw.buffers.bias) / (u.out_lanes * 8);
  u.acc_entries = bytes(hw.buffers.partial_sum) / (u.out_lanes * 6);  // 48-bit lanes
  // As opu_shapes.svh sizes them: the window's rows but its last.
  const int64_t window_rows = u.lanes < 16 ? 1 : std::min<int64_t>(u.lanes / 8, 8);
  if (hw.ipa.depthwise_line > 1) {
    u.line_buffers = window_rows - 1;
    u.line_columns = hw.ipa.depthwise_line;
  }
  u.fm_pairs = FeatureMapPairs(hw);
  return u;
}

int64_t StoreBeatBytes(const isa::StoreInsn& s, const OpuBufferUnits& u) {
  if (s.to_fm) return 0;
  const int64_t beat = u.lanes, pixel = u.StorePixelBytes(s), copies = s.upsample ? 2 : 1;
  int64_t beats = 0;
  for (int64_t r = 0; r < s.rows * copies; ++r) {
    int64_t last = -1;  // the beat the row's previous pixel ended in
    for (int64_t c = 0; c < s.cols * copies; ++c) {
      const int64_t begin = s.dram_addr + r * s.dram_stride + c * pixel;
      const int64_t first = begin / beat, end = (begin + u.StorePixelLanes(s) - 1) / beat;
      beats += end - std::max(first - 1, last);
      last = end;
    }
  }
  return beats * beat;
}

bool StoreFmPairs(const isa::StoreInsn& s, const OpuBufferUnits& u, int64_t r, int64_t c) {
  const int64_t entry = s.acc_addr + r * s.acc_pitch + c;
  return s.to_fm && u.fm_pairs && !s.upsample && !s.pair && entry % 2 == 0 && c + 1 < s.cols &&
         entry + 1 < u.AccSumsBank();
}

bool StoreDramPairs(const isa::StoreInsn& s, const OpuBufferUnits& u, int64_t r, int64_t c) {
  const int64_t entry = s.acc_addr + r * s.acc_pitch + c;
  const int64_t pixel = u.StorePixelBytes(s);
  const int64_t at = (s.dram_addr + r * s.dram_stride + c * pixel) % u.lanes;
  return !s.to_fm && !s.upsample && !s.pair && s.extra_blocks == 0 && entry % 2 == 0 &&
         c + 1 < s.cols && entry + 1 < u.AccSumsBank() && at + pixel + s.lanes <= u.lanes;
}

int64_t StoreFmWrites(const isa::StoreInsn& s, const OpuBufferUnits& u) {
  if (!s.to_fm) return 0;
  int64_t writes = 0;
  for (int64_t r = 0; r < s.rows; ++r)
    for (int64_t c = 0; c < s.cols; ++writes) c += StoreFmPairs(s, u, r, c) ? 2 : 1;
  return writes;
}

int64_t StoreIssueCycles(const isa::StoreInsn& s, const OpuBufferUnits& u) {
  const int64_t pixel = u.StorePixelBytes(s), beat = u.lanes, co = u.out_lanes;
  if (s.upsample) return s.rows * s.cols * 4 * (1 + s.extra_blocks);
  if (!s.pair && s.extra_blocks == 0 && s.to_fm && !u.fm_pairs)
    return s.rows * s.cols;  // a read a pixel (the loop's)
  int64_t cycles = 0;
  for (int64_t r = 0; r < s.rows; ++r)
    for (int64_t c = 0; c < s.cols;) {
      const int64_t at = (s.dram_addr + r * s.dram_stride + c * pixel) % beat;
      if (s.pair) {  // both pixels of an entry where they share a beat, a read a block
        c += c % 2 == 0 && c + 1 < s.cols && at + pixel + u.StorePixelLanes(s) <= beat ? 2 : 1;
        cycles += 1 + s.extra_blocks;
        continue;
      }
      // Blocks 0 and 1 (2 and 3) in one read where both fall in one beat;
      // a fm pair's or a DRAM pair's two pixels in the same reads.
      const int64_t entry = s.acc_addr + r * s.acc_pitch + c;
      const bool fm_pair = StoreFmPairs(s, u, r, c) || StoreDramPairs(s, u, r, c);
      for (int64_t k = 0; k <= s.extra_blocks; ++cycles)
        k += k % 2 == 0 && k < s.extra_blocks && entry < u.AccSumsBank() &&
                     (at + k * co) % beat + 2 * co <= beat
                 ? 2
                 : 1;
      c += fm_pair ? 2 : 1;
    }
  return cycles;
}

}  // namespace opuc
