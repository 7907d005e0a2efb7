//===- src/fsim/hazards.cc - Buffer accesses the tokens must order -----===//
#include "hazards.h"

#include <algorithm>
#include <type_traits>
#include <variant>

#include "support/format.h"

namespace opuc::fsim {
namespace {

std::string_view BufferRow(OnChip buffer) {
  switch (buffer) {
    case OnChip::kFeatureMap: return "feature-map row";
    case OnChip::kWeight: return "weight row";
    case OnChip::kParam: return "param row";
    case OnChip::kAccumulator: return "accumulator entry";
  }
  return "row";
}

}  // namespace

HazardTracker::HazardTracker(const OpuBufferUnits& units) {
  rows_[static_cast<size_t>(OnChip::kFeatureMap)].resize(static_cast<size_t>(units.fm_rows));
  rows_[static_cast<size_t>(OnChip::kWeight)].resize(static_cast<size_t>(units.weight_rows));
  rows_[static_cast<size_t>(OnChip::kParam)].resize(static_cast<size_t>(units.param_rows));
  rows_[static_cast<size_t>(OnChip::kAccumulator)].resize(static_cast<size_t>(units.acc_entries));
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
                            const std::vector<BufferAccess>& accesses) {
  if (names_.size() <= static_cast<size_t>(index)) names_.resize(static_cast<size_t>(index) + 1);
  names_[static_cast<size_t>(index)] = name;
  const Mark now{clocks_[static_cast<size_t>(engine)][static_cast<size_t>(engine)], index};
  if (started_.size() <= static_cast<size_t>(index))
    started_.resize(static_cast<size_t>(index) + 1);
  started_[static_cast<size_t>(index)] = now.time;
  const auto race = [&](const BufferAccess& a, int64_t row, const Mark& other, const char* verb,
                        const char* other_verb) {
    return InvalidArgument(Cat("instruction ", index, " (", name, ") ", verb, " ",
                               BufferRow(a.buffer), " ", row, ", which instruction ", other.index,
                               " (", names_[static_cast<size_t>(other.index)], ") ", other_verb,
                               ", with no token ordering the two: the result would depend on "
                               "which engine runs first"));
  };
  for (const BufferAccess& a : accesses) {
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
