//===- src/fsim/hazards.cc - Buffer accesses the tokens must order -----===//
#include "hazards.h"

#include <algorithm>
#include <type_traits>
#include <variant>

#include "support/format.h"

namespace opuc::fsim {
namespace {

std::string_view BufferRow(Buffer buffer) {
  switch (buffer) {
    case Buffer::kFeatureMap: return "feature-map row";
    case Buffer::kWeight: return "weight row";
    case Buffer::kParam: return "param row";
    case Buffer::kAccumulator: return "accumulator entry";
  }
  return "row";
}

void Add(std::vector<Access>& list, Buffer buffer, int64_t first, int64_t count, bool write) {
  if (count > 0) list.push_back({buffer, first, count, write});
}

void AccessesOfLoad(const isa::LoadInsn& i, std::vector<Access>& list) {
  if (i.buffer > 2) return;
  // An interleaved load's span, the other plane's rows between included.
  Add(list, static_cast<Buffer>(i.buffer), i.sram_addr, LoadedSpan(i), true);
}

void AccessesOfGemm(const isa::GemmInsn& i, std::vector<Access>& list) {
  const int64_t pixels = i.out_rows * i.out_cols;
  if (pixels == 0) return;
  // Each output row reads a run of feature-map rows (strided within it);
  // a depthwise window, such a run from each of its rows.
  const int64_t win_h = i.depthwise ? i.window_h + 1 : 1;
  // An i16 read whole takes each pixel's row and the next (its low plane).
  const int64_t win_w = i.depthwise ? i.window_w + 1 : 1, px = PixelRows(i);
  if (i.carry) {  // the rows below those its line slot holds, each once
    for (int64_t r = 0; r < WindowRowsRead(i); ++r)
      Add(list, Buffer::kFeatureMap, i.fm_addr + r * i.fm_pitch, WindowRowPixels(i) * px, false);
  } else {
    for (int64_t oy = 0; oy < i.out_rows; ++oy)
      for (int64_t ky = 0; ky < win_h; ++ky)
        Add(list, Buffer::kFeatureMap, i.fm_addr + (oy * i.stride_y + ky) * i.fm_pitch,
            ((i.out_cols - 1) * i.stride_x + win_w) * px, false);
  }
  Add(list, Buffer::kWeight, i.wgt_addr, 1, false);
  if (i.init == 1) Add(list, Buffer::kParam, i.param_addr, 1, false);
  Add(list, Buffer::kAccumulator, i.acc_addr, pixels, true);
}

void AccessesOfStore(const isa::StoreInsn& i, const OpuBufferUnits& units,
                     std::vector<Access>& list) {
  if (i.rows == 0 || i.cols == 0) return;
  const int64_t entries = i.pair ? (i.cols + 1) / 2 : i.cols;  // a pair's two pixels an entry
  for (int64_t k = 0; k <= i.extra_blocks; ++k)
    for (int64_t r = 0; r < i.rows; ++r)
      Add(list, Buffer::kAccumulator, units.StoreBlockEntry(i.acc_addr + r * i.acc_pitch, k),
          entries, false);
  // Into the feature-map buffer: a row of L bytes a pixel.
  if (i.to_fm)
    for (int64_t r = 0; r < i.rows; ++r)
      Add(list, Buffer::kFeatureMap, (i.dram_addr + r * i.dram_stride) / units.lanes, i.cols, true);
}

void AccessesOfPost(const isa::Instruction& insn, int64_t lanes, std::vector<Access>& list) {
  std::visit(
      [&list, lanes](const auto& i) {
        using T = std::decay_t<decltype(i)>;
        if constexpr (std::is_same_v<T, isa::OutputInsn> || std::is_same_v<T, isa::PReluInsn>) {
          if (i.count > 0) Add(list, Buffer::kParam, i.param_addr, 1, false);
          Add(list, Buffer::kAccumulator, i.acc_addr, i.count, true);
        }
        if constexpr (std::is_same_v<T, isa::ClampInsn>)
          Add(list, Buffer::kAccumulator, i.acc_addr, i.count, true);
        if constexpr (std::is_same_v<T, isa::TableInsn>) {
          // The rows its 256 or 257 16-bit entries fill.
          const int64_t entries = i.in_format == 2 ? 257 : 256;
          if (i.count > 0)
            Add(list, Buffer::kFeatureMap, i.table_addr, (2 * entries + lanes - 1) / lanes, false);
          Add(list, Buffer::kAccumulator, i.acc_addr, i.count, true);
        }
        if constexpr (std::is_same_v<T, isa::ResAddInsn>) {
          const int64_t rows = (i.broadcast ? 1 : i.count) * (i.res_format == 2 ? 2 : 1);
          if (i.res_lanes > 0 && i.count > 0)
            Add(list, Buffer::kFeatureMap, i.res_addr, rows, false);
          Add(list, Buffer::kAccumulator, i.acc_addr, i.count, true);
        }
        if constexpr (std::is_same_v<T, isa::PoolInsn>) {
          if (i.out_rows == 0 || i.out_cols == 0) return;
          Add(list, Buffer::kAccumulator, i.src_addr, i.src_rows * i.src_cols, false);
          Add(list, Buffer::kAccumulator, i.dst_addr, i.out_rows * i.out_cols, true);
        }
        if constexpr (std::is_same_v<T, isa::AverageInsn>) {
          if (i.rows == 0 || i.cols == 0) return;
          Add(list, Buffer::kAccumulator, i.acc_addr, (i.rows - 1) * i.pitch + i.cols, true);
        }
      },
      insn);
}

}  // namespace

std::vector<Access> AccessesOf(const isa::Instruction& insn, const OpuBufferUnits& units) {
  std::vector<Access> list;
  if (const auto* load = std::get_if<isa::LoadInsn>(&insn)) AccessesOfLoad(*load, list);
  if (const auto* gemm = std::get_if<isa::GemmInsn>(&insn)) AccessesOfGemm(*gemm, list);
  if (const auto* store = std::get_if<isa::StoreInsn>(&insn)) AccessesOfStore(*store, units, list);
  AccessesOfPost(insn, units.lanes, list);
  return list;
}

HazardTracker::HazardTracker(const OpuBufferUnits& units) {
  rows_[static_cast<size_t>(Buffer::kFeatureMap)].resize(static_cast<size_t>(units.fm_rows));
  rows_[static_cast<size_t>(Buffer::kWeight)].resize(static_cast<size_t>(units.weight_rows));
  rows_[static_cast<size_t>(Buffer::kParam)].resize(static_cast<size_t>(units.param_rows));
  rows_[static_cast<size_t>(Buffer::kAccumulator)].resize(static_cast<size_t>(units.acc_entries));
}

void HazardTracker::Start(int engine) {
  ++clocks_[static_cast<size_t>(engine)][static_cast<size_t>(engine)];
}

void HazardTracker::Push(int from, int to) {
  queues_[static_cast<size_t>(from * isa::kNumEngines + to)].push_back(
      clocks_[static_cast<size_t>(from)]);
}

void HazardTracker::Pop(int from, int to) {
  std::deque<Clock>& queue = queues_[static_cast<size_t>(from * isa::kNumEngines + to)];
  if (queue.empty()) return;  // the engines' own token counts refuse this first
  Clock& mine = clocks_[static_cast<size_t>(to)];
  for (size_t e = 0; e < mine.size(); ++e) mine[e] = std::max(mine[e], queue.front()[e]);
  queue.pop_front();
}

void HazardTracker::Fence(int64_t stores) {
  int64_t& heard =
      clocks_[static_cast<size_t>(isa::Engine::kLoad)][static_cast<size_t>(isa::Engine::kStore)];
  heard = std::max(heard, stores);
}

Status HazardTracker::OrderDram(int engine, int64_t index, std::string_view name, int64_t before) {
  if (before < 0) return OkStatus();
  const int other = engine == static_cast<int>(isa::Engine::kLoad)
                        ? static_cast<int>(isa::Engine::kStore)
                        : static_cast<int>(isa::Engine::kLoad);
  const size_t b = static_cast<size_t>(before);
  const int64_t ran = b < started_.size() ? started_[b] : 0;
  if (ran > 0 && Ordered(engine, other, Mark{ran, before})) return OkStatus();
  const bool load = other == static_cast<int>(isa::Engine::kStore);
  return InvalidArgument(Cat("instruction ", index, " (", name, ") ", load ? "reads" : "writes",
                             " DRAM bytes that instruction ", before, " (", load ? "Store" : "Load",
                             ") ", load ? "writes" : "reads", " before it in the program, with no ",
                             load ? "Fence or token" : "token",
                             " ordering the two: the result would depend on which engine "
                             "runs first"));
}

Status HazardTracker::Touch(int engine, int64_t index, std::string_view name,
                            const std::vector<Access>& accesses) {
  if (names_.size() <= static_cast<size_t>(index)) names_.resize(static_cast<size_t>(index) + 1);
  names_[static_cast<size_t>(index)] = name;
  const Mark now{clocks_[static_cast<size_t>(engine)][static_cast<size_t>(engine)], index};
  if (started_.size() <= static_cast<size_t>(index))
    started_.resize(static_cast<size_t>(index) + 1);
  started_[static_cast<size_t>(index)] = now.time;
  const auto race = [&](const Access& a, int64_t row, const Mark& other, const char* verb,
                        const char* other_verb) {
    return InvalidArgument(Cat("instruction ", index, " (", name, ") ", verb, " ",
                               BufferRow(a.buffer), " ", row, ", which instruction ", other.index,
                               " (", names_[static_cast<size_t>(other.index)], ") ", other_verb,
                               ", with no token ordering the two: the result would depend on "
                               "which engine runs first"));
  };
  for (const Access& a : accesses) {
    std::vector<Row>& rows = rows_[static_cast<size_t>(a.buffer)];
    const int64_t last = std::min<int64_t>(a.first + a.count, static_cast<int64_t>(rows.size()));
    for (int64_t r = std::max<int64_t>(a.first, 0); r < last; ++r) {
      Row& row = rows[static_cast<size_t>(r)];
      if (row.writer >= 0 && row.writer != engine && !Ordered(engine, row.writer, row.write))
        return race(a, r, row.write, a.write ? "writes" : "reads", "writes");
      if (!a.write) {
        row.reads[static_cast<size_t>(engine)] = now;
        continue;
      }
      for (int e = 0; e < isa::kNumEngines; ++e) {
        const Mark& read = row.reads[static_cast<size_t>(e)];
        if (e != engine && read.index >= 0 && !Ordered(engine, e, read))
          return race(a, r, read, "writes", "reads");
      }
      row.writer = static_cast<int8_t>(engine);
      row.write = now;
      row.reads = {};
    }
  }
  return OkStatus();
}

}  // namespace opuc::fsim
