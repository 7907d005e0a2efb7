//===- src/codegen/constants.cc - Packing weights and params ----------===//
#include "constants.h"

#include <algorithm>

#include "depthwise_window.h"

namespace opuc::codegen {
namespace {

void Align(std::vector<uint8_t>& blob, int64_t align) {
  while (static_cast<int64_t>(blob.size()) % align != 0) blob.push_back(0);
}

void PutLe(std::vector<uint8_t>& blob, size_t at, uint64_t value, int bytes) {
  for (int i = 0; i < bytes; ++i)
    blob[at + static_cast<size_t>(i)] = static_cast<uint8_t>(value >> (8 * i));
}

// A depthwise window's weight rows of output block `ob`: row r takes the
// kernel rows from r x window_rows, output j's tap (ky, kx) of them on
// lane 8 ky + kx (Gemm.depthwise), and on lane 8 ky + kx + 4 too for an
// i16 read whole (its low bytes'), or in pairs on L / 2 + 8 ky + kx + 1
// (packed pairs: 6 ky, WindowTapRowOf); with block pairs, an even block's
// rows hold the next block's taps on L / 2 + 8 ky + kx.
void PackWindowRows(const InnerProductGroup& g, const Tiling& t, const OpuBufferUnits& u,
                    int64_t ob, uint8_t* weights) {
  const int64_t L = u.lanes, Co = u.out_lanes, tap_row = WindowTapRowOf(g, u);
  for (int64_t r = 0; r < t.rows_per_out_block; ++r) {
    uint8_t* w = weights + (ob * t.rows_per_out_block + r) * Co * L;
    const int64_t ky0 = r * g.window_rows, rows = std::min(g.window_rows, g.kh - ky0);
    for (int64_t j = 0; j < Co && ob * Co + j < g.out_c; ++j)
      for (int64_t ky = 0; ky < rows; ++ky)
        for (int64_t kx = 0; kx < g.kw; ++kx)
          for (int64_t plane = 0; plane < (g.i16_whole ? 2 : 1); ++plane) {
            const auto weight = static_cast<uint8_t>(g.Weight(ob * Co + j, ky0 + ky, kx, 0));
            w[j * L + ky * tap_row + plane * kTapRow / 2 + kx] = weight;
            // In pairs, pixel 2i + 1's: its window a column on.
            if (g.window_pairs) w[j * L + L / 2 + ky * tap_row + kx + 1] = weight;
            const int64_t next = (ob + 1) * Co + j;  // block pairs: the second block's
            if (g.block_pairs && ob % 2 == 0 && next < g.out_c)
              w[j * L + L / 2 + ky * tap_row + kx] =
                  static_cast<uint8_t>(g.Weight(next, ky0 + ky, kx, 0));
          }
  }
}

// The group's weight rows, from `weights` on (zeroed before).
void WriteWeightRows(const InnerProductGroup& g, const Tiling& t, const OpuBufferUnits& u,
                     uint8_t* weights) {
  const int64_t L = u.lanes, Co = u.out_lanes, row_bytes = WeightRowBytes(g, u);
  const bool compact = CompactWeightRows(g, u);
  for (int64_t ob = 0; ob < t.out_blocks && g.window_rows > 0; ++ob)
    PackWindowRows(g, t, u, ob, weights);
  for (int64_t ob = 0; ob < t.out_blocks && g.window_rows == 0; ++ob) {
    for (int64_t tap = 0; tap < t.taps; ++tap) {
      const int64_t ky = tap / g.kw, kx = tap % g.kw;
      for (int64_t bl = 0; bl < t.blocks; ++bl) {
        const int64_t row = ob * t.rows_per_out_block + tap * t.blocks + bl;
        uint8_t* w = weights + row * row_bytes;
        const int64_t block = InputBlock(g, u, ob, bl);
        for (int64_t j = 0; j < Co; ++j) {
          const int64_t o = ob * Co + j;
          if (o >= g.out_c) break;
          if (g.depthwise) {
            const int64_t l = o / g.multiplier - block * L;
            w[(compact ? 0 : j * L) + l] = static_cast<uint8_t>(g.Weight(o, ky, kx, 0));
            continue;
          }
          const InputBlockSource& from = t.sources[static_cast<size_t>(block)];
          // In pairs (dense_pairs.h), pixel 2i + 1's again L / 2 on.
          for (int64_t l = 0; l < from.lanes; ++l)
            for (int64_t half = 0; half < (g.dense_pairs ? 2 : 1); ++half)
              w[j * L + half * L / 2 + l] =
                  static_cast<uint8_t>(g.Weight(o, ky, kx, from.first_channel + l));
        }
      }
    }
  }
}

}  // namespace

int64_t InputBlock(const InnerProductGroup& g, const OpuBufferUnits& u, int64_t ob,
                   int64_t block_row) {
  // Depthwise: Co divides L, so a block of Co outputs reads inside one input block.
  return g.depthwise ? (ob * u.out_lanes / g.multiplier) / u.lanes : block_row;
}

ConstantPlacement PackConstants(const InnerProductGroup& g, const Tiling& t,
                                const OpuBufferUnits& u, int64_t align,
                                std::vector<uint8_t>& blob) {
  const int64_t L = u.lanes, Co = u.out_lanes, row_bytes = WeightRowBytes(g, u);
  ConstantPlacement at;
  Align(blob, align);
  at.weights = static_cast<int64_t>(blob.size());
  blob.resize(blob.size() + static_cast<size_t>(t.out_blocks * t.rows_per_out_block * row_bytes),
              0);
  WriteWeightRows(g, t, u, blob.data() + at.weights);
  Align(blob, align);
  at.params = static_cast<int64_t>(blob.size());
  blob.resize(blob.size() + static_cast<size_t>(ResidentParamRows(g, t.out_blocks) * Co * 8), 0);
  for (int64_t o = 0; o < g.out_c; ++o) {
    const auto lane = static_cast<size_t>(at.params + o * 8);
    PutLe(blob, lane, static_cast<uint32_t>(g.bias[static_cast<size_t>(o)]), 4);
    PutLe(blob, lane + 4, 1, 2);  // M = 1
    PutLe(blob, lane + 6,
          static_cast<uint8_t>(static_cast<int8_t>(g.shift[static_cast<size_t>(o)])), 1);
    if (!g.alpha.empty())
      PutLe(blob, lane + 7, static_cast<uint8_t>(g.alpha[static_cast<size_t>(o)]), 1);
  }
  // Block pairs: after the blocks' rows, a row per pair of blocks 2k and
  // 2k + 1, lane j the biases of both (bytes 0-3, 4-7: Gemm block pairs).
  for (int64_t k = 0; g.block_pairs && 2 * k + 1 < t.out_blocks; ++k)
    for (int64_t j = 0; j < Co; ++j)
      for (int64_t half = 0; half < 2; ++half) {
        const int64_t o = (2 * k + half) * Co + j;
        if (o >= g.out_c) continue;
        PutLe(blob, static_cast<size_t>(at.params + ((t.out_blocks + k) * Co + j) * 8 + 4 * half),
              static_cast<uint32_t>(g.bias[static_cast<size_t>(o)]), 4);
      }
  if (!g.table.empty()) {
    Align(blob, align);
    at.table = static_cast<int64_t>(blob.size());
    blob.resize(blob.size() + static_cast<size_t>(t.table_rows * L), 0);
    for (size_t k = 0; k < g.table.size(); ++k)
      PutLe(blob, static_cast<size_t>(at.table) + 2 * k, static_cast<uint16_t>(g.table[k]), 2);
  }
  if (t.constant_rows > 0) {  // per block of L channels, a row per plane (an i16's high first)
    Align(blob, align);
    at.channel_constants = static_cast<int64_t>(blob.size());
    blob.resize(blob.size() + static_cast<size_t>(t.constant_rows * L), 0);
    for (size_t k = 0; k < g.residuals.size(); ++k) {
      const ResidualStep& r = g.residuals[k];
      const int64_t planes = r.format == DType::kI16 ? 2 : 1;
      const int64_t first = at.channel_constants + ConstantRowsBefore(g, k, L) * L;
      for (size_t c = 0; c < r.constant.size(); ++c) {
        const auto v = static_cast<uint32_t>(r.constant[c]);
        const int64_t row = static_cast<int64_t>(c) / L * planes,
                      lane = static_cast<int64_t>(c) % L;
        const auto at_plane = [&](int64_t p) {
          return static_cast<size_t>(first + (row + p) * L + lane);
        };
        if (planes == 2) {
          blob[at_plane(0)] = static_cast<uint8_t>(v >> 8);
          blob[at_plane(1)] = static_cast<uint8_t>(v);
        } else {
          blob[at_plane(0)] = static_cast<uint8_t>(v);
        }
      }
    }
  }
  return at;
}

void RepackWeights(const InnerProductGroup& g, const Tiling& t, const OpuBufferUnits& u,
                   const ConstantPlacement& at, std::vector<uint8_t>& blob) {
  const int64_t bytes = t.out_blocks * t.rows_per_out_block * WeightRowBytes(g, u);
  std::fill_n(blob.data() + at.weights, static_cast<size_t>(bytes), uint8_t{0});
  WriteWeightRows(g, t, u, blob.data() + at.weights);
}

}  // namespace opuc::codegen
