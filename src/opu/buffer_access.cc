//===- src/opu/buffer_access.cc - The on-chip rows an instruction touches ===//
#include "opuc/opu/buffer_access.h"

#include <type_traits>
#include <variant>

namespace opuc {
namespace {

void Add(std::vector<BufferAccess>& list, OnChip buffer, int64_t first, int64_t count, bool write) {
  if (count > 0) list.push_back({buffer, first, count, write});
}

void AccessesOfLoad(const isa::LoadInsn& i, std::vector<BufferAccess>& list) {
  if (i.buffer > 2) return;
  // An interleaved load's span, the other plane's rows between included.
  Add(list, static_cast<OnChip>(i.buffer), i.sram_addr, LoadedSpan(i), true);
}

void AccessesOfGemm(const isa::GemmInsn& i, const OpuBufferUnits& units,
                    std::vector<BufferAccess>& list) {
  const int64_t pixels = i.out_rows * i.out_cols;
  if (pixels == 0) return;
  // Each output row reads a run of feature-map rows (strided within it);
  // a depthwise window, such a run from each of its rows.
  const int64_t win_h = i.depthwise ? i.window_h + 1 : 1;
  // An i16 read whole takes each pixel's row and the next (its low plane).
  const int64_t win_w = i.depthwise ? i.window_w + 1 : 1, px = PixelRows(i);
  if (i.carry) {  // the rows below those its line slot holds, each once
    for (int64_t r = 0; r < WindowRowsRead(i); ++r)
      Add(list, OnChip::kFeatureMap, i.fm_addr + r * i.fm_pitch, WindowRowPixels(i) * px, false);
  } else {
    for (int64_t oy = 0; oy < i.out_rows; ++oy)
      for (int64_t ky = 0; ky < win_h; ++ky)
        Add(list, OnChip::kFeatureMap, i.fm_addr + (oy * i.stride_y + ky) * i.fm_pitch,
            ((i.out_cols - 1) * i.stride_x + win_w) * px, false);
  }
  Add(list, OnChip::kWeight, i.wgt_addr, 1, false);
  if (i.init == isa::GemmInsn::kFromBias || i.init == isa::GemmInsn::kPairsFromBias)
    Add(list, OnChip::kParam, i.param_addr, 1, false);
  Add(list, OnChip::kAccumulator, i.acc_addr, pixels, true);
  if (BlockPairs(i))
    Add(list, OnChip::kAccumulator, units.StoreBlockEntry(i.acc_addr, 1), pixels, true);
}

void AccessesOfStore(const isa::StoreInsn& i, const OpuBufferUnits& units,
                     std::vector<BufferAccess>& list) {
  if (i.rows == 0 || i.cols == 0) return;
  const int64_t entries = i.pair ? (i.cols + 1) / 2 : i.cols;  // a pair's two pixels an entry
  for (int64_t k = 0; k <= i.extra_blocks; ++k)
    for (int64_t r = 0; r < i.rows; ++r)
      Add(list, OnChip::kAccumulator, units.StoreBlockEntry(i.acc_addr + r * i.acc_pitch, k),
          entries, false);
  // Into the feature-map buffer: a row of L bytes a pixel.
  if (i.to_fm)
    for (int64_t r = 0; r < i.rows; ++r)
      Add(list, OnChip::kFeatureMap, (i.dram_addr + r * i.dram_stride) / units.lanes, i.cols, true);
}

void AccessesOfPost(const isa::Instruction& insn, int64_t lanes, std::vector<BufferAccess>& list) {
  std::visit(
      [&list, lanes](const auto& i) {
        using T = std::decay_t<decltype(i)>;
        if constexpr (std::is_same_v<T, isa::OutputInsn> || std::is_same_v<T, isa::PReluInsn>) {
          if (i.count > 0) Add(list, OnChip::kParam, i.param_addr, 1, false);
          Add(list, OnChip::kAccumulator, i.acc_addr, i.count, true);
        }
        if constexpr (std::is_same_v<T, isa::ClampInsn>)
          Add(list, OnChip::kAccumulator, i.acc_addr, i.count, true);
        if constexpr (std::is_same_v<T, isa::TableInsn>) {
          // The rows its 256 or 257 16-bit entries fill.
          const int64_t entries = i.in_format == 2 ? 257 : 256;
          if (i.count > 0)
            Add(list, OnChip::kFeatureMap, i.table_addr, (2 * entries + lanes - 1) / lanes, false);
          Add(list, OnChip::kAccumulator, i.acc_addr, i.count, true);
        }
        if constexpr (std::is_same_v<T, isa::ResAddInsn>) {
          const int64_t rows = (i.broadcast ? 1 : i.count) * (i.res_format == 2 ? 2 : 1);
          if (i.res_lanes > 0 && i.count > 0)
            Add(list, OnChip::kFeatureMap, i.res_addr, rows, false);
          Add(list, OnChip::kAccumulator, i.acc_addr, i.count, true);
        }
        if constexpr (std::is_same_v<T, isa::PoolInsn>) {
          if (i.out_rows == 0 || i.out_cols == 0) return;
          Add(list, OnChip::kAccumulator, i.src_addr, i.src_rows * i.src_cols, false);
          Add(list, OnChip::kAccumulator, i.dst_addr, i.out_rows * i.out_cols, true);
        }
        if constexpr (std::is_same_v<T, isa::AverageInsn>) {
          if (i.rows == 0 || i.cols == 0) return;
          Add(list, OnChip::kAccumulator, i.acc_addr, (i.rows - 1) * i.pitch + i.cols, true);
        }
      },
      insn);
}

}  // namespace

std::vector<BufferAccess> BufferAccessesOf(const isa::Instruction& insn,
                                           const OpuBufferUnits& units) {
  std::vector<BufferAccess> list;
  if (const auto* load = std::get_if<isa::LoadInsn>(&insn)) AccessesOfLoad(*load, list);
  if (const auto* gemm = std::get_if<isa::GemmInsn>(&insn)) AccessesOfGemm(*gemm, units, list);
  if (const auto* store = std::get_if<isa::StoreInsn>(&insn)) AccessesOfStore(*store, units, list);
  AccessesOfPost(insn, units.lanes, list);
  return list;
}

}  // namespace opuc
