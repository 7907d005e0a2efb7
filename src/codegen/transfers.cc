//===- src/codegen/transfers.cc - A tile's loads and stores -----------===//
#include "transfers.h"

#include <algorithm>

#include "opuc/opu/buffer_units.h"

namespace opuc::codegen {

AxisLoad LoadAlong(int64_t first, int64_t n, int64_t extent, int64_t gap) {
  const int64_t lo = std::max<int64_t>(0, first), hi = std::min(extent, first + n);
  const int64_t p0 = (lo + gap - 1) / gap, p1 = hi > 0 ? (hi - 1) / gap + 1 : 0;
  if (hi <= lo || p1 <= p0) return {0, 0, n, 0};
  return {p0, p1 - p0, p0 * gap - first, first + n - ((p1 - 1) * gap + 1)};
}

int64_t ReadBytes(const isa::LoadInsn& fm, int64_t L, int64_t Co) {
  if (fm.granules == 0) return fm.rows * fm.cols * L;
  // Whole beats (opu_load.sv): from the beat of a row's first byte to that
  // of its last.
  int64_t bytes = 0;
  for (int64_t r = 0; r < fm.rows && fm.cols > 0; ++r) {
    const int64_t first = fm.dram_addr + r * fm.dram_stride;
    const int64_t last = first + fm.cols * fm.granules * Co - 1;
    bytes += (last / L - first / L + 1) * L;
  }
  return bytes;
}

int64_t PixelWrites(const isa::LoadInsn& fm, bool pairs) {
  return fm.rows * (pairs && fm.zeros_x == 0 ? (fm.cols + 1) / 2 : fm.cols);
}

int64_t Written(const isa::LoadInsn& fm, int64_t beats, int64_t L, int64_t Co, bool pairs) {
  if (fm.granules == 0) return 0;
  // opu_load.sv's credits: `granules` a cycle (twice that for pairs), a
  // request costs L / Co, and the first request has its credits banked.
  const int64_t paced = fm.granules * (pairs && fm.zeros_x == 0 ? 2 : 1);
  const int64_t last_request = ((beats - 1) * (L / Co) + 1 + paced - 1) / paced;
  return std::max(PixelWrites(fm, pairs), last_request);
}

void EstimateLoad(const isa::LoadInsn& fm, int64_t L, int64_t Co, int64_t units,
                  CycleEstimate& estimate) {
  const int64_t bytes = ReadBytes(fm, L, Co);
  const bool pairs = estimate.FeatureMapPairs() && fm.granules > 0 && !fm.interleave;
  // The writers fill the frame a unit a cycle, its pixels a pair a cycle.
  const int64_t frame = LoadedUnits(fm) - fm.rows * fm.cols + PixelWrites(fm, pairs);
  estimate.Load(bytes, units, Written(fm, bytes / L, L, Co, pairs), frame, LoadedRows(fm));
}

isa::LoadInsn WholeRowsLoad(int64_t sram_row, int64_t dram, int64_t rows, int64_t L,
                            CycleEstimate& estimate) {
  isa::LoadInsn load;
  load.buffer = isa::LoadInsn::kFeatureMap;
  load.sram_addr = sram_row;
  load.dram_addr = dram;
  load.rows = 1;
  load.cols = rows;
  load.dram_stride = rows * L;
  estimate.Load(rows * L);
  return load;
}

int64_t StoreWrites(const isa::StoreInsn& s, int64_t pixel_bytes, int64_t L) {
  if (s.granules == 0) return s.rows * s.cols * (s.upsample ? 4 : 1);
  const int64_t copies = s.upsample ? 2 : 1;
  int64_t writes = 0, beat = -1;
  for (int64_t r = 0; r < s.rows; ++r)
    for (int64_t c = 0; c < s.cols; ++c)
      for (int64_t i = 0; i < copies; ++i)
        for (int64_t k = 0; k < copies; ++k) {
          const int64_t at =
              s.dram_addr + (copies * r + i) * s.dram_stride + (copies * c + k) * pixel_bytes;
          if (at / L != beat) ++writes;
          beat = at / L;
        }
  return writes;
}

void StoreTile(const ActivationLayout& layout, const TileRect& tile, int64_t c0, int64_t lanes,
               int64_t y0, int64_t x0, CycleEstimate& estimate,
               std::vector<isa::Instruction>& store, StoreShape shape) {
  const bool upsample = shape == StoreShape::kUpsample;
  const int64_t L = layout.lanes, copies = upsample ? 4 : 1, block = c0 / L;
  const int64_t pixel = layout.PixelBytes(block);
  for (int64_t p = 0; p < layout.planes(); ++p) {
    isa::StoreInsn s;
    s.acc_addr = tile.acc_addr;
    s.acc_pitch = tile.pitch > 0 ? tile.pitch : tile.cols;
    s.rows = tile.rows;
    s.cols = tile.cols;
    s.lanes = lanes;
    s.dram_addr =
        layout.PixelAddress(p, block, upsample ? 2 * y0 : y0, upsample ? 2 * x0 : x0) + c0 % L;
    s.dram_stride = layout.width * pixel;
    s.granules = layout.Granules(block);
    s.high_byte = layout.planes() == 2 && p == 0;
    s.upsample = upsample;
    s.pair = shape == StoreShape::kPairs;
    s.extra_blocks = tile.extra_blocks;
    s.to_fm = shape == StoreShape::kToFeatureMap;
    // Into the feature-map buffer a row a pixel (a fm pair's two in one
    // write), through the write port the loads take first: writes that
    // wait for the loads'.
    const int64_t fm_writes = StoreFmWrites(s, estimate.buffer_units());
    estimate.Store(
        StoreIssueCycles(s, estimate.buffer_units()),
        s.to_fm ? fm_writes * L
                : copies * tile.rows * tile.cols * (tile.extra_blocks * tile.block_lanes + lanes),
        s.to_fm ? fm_writes : StoreWrites(s, pixel, L), s.to_fm);
    store.push_back(s);
  }
}

}  // namespace opuc::codegen
