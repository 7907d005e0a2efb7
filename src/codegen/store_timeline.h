//===- src/codegen/store_timeline.h - The store engine's timeline -*- C++ -*-===//
//
// Part of the cycle estimator (estimate.h): the stores of a group's units
// on the DRAM they share with the loads, and how the two delay each other.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_CODEGEN_STORE_TIMELINE_H
#define OPUC_SRC_CODEGEN_STORE_TIMELINE_H

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

namespace opuc::codegen {

/// The store engine's timeline: when each unit's store begins and ends,
/// and when its DRAM writes end (one a cycle from its start, or spread
/// over its pixels at `pace`, delayed by the reads they meet). A store
/// begins `drain` cycles after the one before ends at the earliest (that
/// one's last pixel through the store's pipeline).
struct StoreTimeline {
  StoreTimeline(size_t n, int64_t drain_cycles)
      : begin(n), end(n), write_end(n), pace(n, 1.0), yields(n, false), drain(drain_cycles) {}
  std::vector<int64_t> begin, end, write_end;
  std::vector<double> pace;  ///< Writes a cycle while a store writes.
  /// Stores into the feature-map buffer (Store.to_fm): their writes take
  /// the buffer's write port only where the loads' writes leave it (the
  /// loads go first), so the loads they meet keep their pace.
  std::vector<bool> yields;
  size_t writing = 0;  ///< The first store whose writes may not have ended.
  int64_t drain;

  /// Unit u's store, after its computation and the store before; in
  /// `slices` (when each is ready, its cycles), each slice after its
  /// stages, which may leave the store waiting between slices.
  void Place(size_t u, int64_t computed, int64_t cycles, int64_t words, int64_t pixels,
             const std::vector<std::pair<int64_t, int64_t>>& slices, bool to_fm = false) {
    yields[u] = to_fm;
    begin[u] = std::max(computed, u > 0 ? end[u - 1] + drain : int64_t{0});
    int64_t waited = begin[u];
    for (const auto& [ready, slice_cycles] : slices)
      waited = std::max(waited, ready) + slice_cycles;
    end[u] = std::max(begin[u] + cycles, waited);
    // Pixels that share a beat (compact pixels) are written one write
    // for several, so the writes are spread over the pixels' cycles.
    pace[u] = words < pixels ? static_cast<double>(words) / static_cast<double>(pixels) : 1.0;
    write_end[u] = end[u] - cycles + std::max(words, pixels);
  }

  /// The writes of the stores of the units before `u` (from the
  /// `first`th on) that fall in the
  /// reads from `from` to `to`: the cycles they add to the reads, which
  /// then end as many cycles later and may meet the next store's writes.
  /// Each such store's writes, and the store, end as many cycles later,
  /// and a store that then ends after the next one was to begin moves
  /// that one too. Any store of a unit before may still be writing (when
  /// the stores are what limits); those before `writing` ended before
  /// `from`, and so before every later read. The first `free` writes met
  /// fall in cycles without a read (a zero-inserted window's zeros, after
  /// its reads) and delay nothing.
  int64_t MeetReads(int64_t from, int64_t to, size_t u, int64_t free = 0, size_t first = 0) {
    while (writing < u && write_end[writing] <= from && end[writing] <= from) ++writing;
    int64_t writes = 0;
    for (size_t v = std::max(writing, first); v < u; ++v) {
      // After the store before, which reads met since may have delayed.
      if (v > 0 && end[v - 1] + drain > begin[v]) Delay(v, end[v - 1] + drain - begin[v]);
      const int64_t writing_there =
          std::max<int64_t>(0, std::min(to + writes, write_end[v]) - std::max(from, begin[v]));
      const int64_t met = std::max<int64_t>(0, writing_there - free);
      free = std::max<int64_t>(0, free - writing_there);
      if (yields[v]) {  // the store waits for the reads instead
        const int64_t waits =
            std::max<int64_t>(0, std::min(to, write_end[v]) - std::max(from, begin[v]));
        write_end[v] += waits;
        end[v] += waits;
        continue;
      }
      write_end[v] += met;
      end[v] += met;
      writes += met;
    }
    return writes;
  }

  /// The cycles a load's `reads`, at an even pace from `from` to `to`
  /// (one a cycle, or fewer where compact pixels pace them to its
  /// writes), wait for the writes of the units before `u` they meet, as
  /// MeetReads. Where a read and a write both want the DRAM, a stream at
  /// most half its cycles keeps its pace and the other takes the rest,
  /// or each gets every second cycle (sim/dram_model.h: both start while
  /// the budget is positive, and the pair costs it two cycles' bytes).
  /// A store into the feature-map buffer (`yields`) meets the load's
  /// `fm_writes` there instead: the load keeps its pace, the store waits.
  int64_t MeetLoad(int64_t from, int64_t to, size_t u, int64_t reads, size_t first = 0,
                   int64_t fm_writes = 0) {
    while (writing < u && write_end[writing] <= from && end[writing] <= from) ++writing;
    const double span = static_cast<double>(std::max<int64_t>(1, to - from));
    const double read_pace = static_cast<double>(reads) / span;
    const double write_pace = std::min(1.0, static_cast<double>(fm_writes) / span);
    int64_t delay = 0;
    for (size_t v = std::max(writing, first); v < u; ++v) {
      const double load_pace = yields[v] ? write_pace : read_pace;
      if (load_pace <= 0) continue;
      if (v > 0 && end[v - 1] + drain > begin[v]) Delay(v, end[v - 1] + drain - begin[v]);
      const int64_t meet_from = std::max(from, begin[v]);
      const double reads_left = load_pace * static_cast<double>(to + delay - meet_from);
      const double writes_left = pace[v] * static_cast<double>(write_end[v] - meet_from);
      if (reads_left <= 0 || writes_left <= 0 || load_pace + pace[v] <= 1.0) continue;
      const double load_kept =
          yields[v] ? load_pace : std::min(load_pace, std::max(0.5, 1.0 - pace[v]));
      const double store_kept = std::min(pace[v], std::max(yields[v] ? 0.0 : 0.5, 1.0 - load_pace));
      if (store_kept <= 0) {  // the load takes every cycle while it reads
        const auto waits = static_cast<int64_t>(std::lround(reads_left / load_kept));
        write_end[v] += waits;
        end[v] += waits;
        continue;
      }
      // Until the reads or the writes left are done.
      const double shared = std::min(reads_left / load_kept, writes_left / store_kept);
      const auto writes_later =
          static_cast<int64_t>(std::lround(shared * (1.0 - store_kept / pace[v])));
      write_end[v] += writes_later;
      end[v] += writes_later;
      delay += static_cast<int64_t>(std::lround(shared * (1.0 - load_kept / load_pace)));
    }
    return delay;
  }

  void Delay(size_t v, int64_t cycles) {
    begin[v] += cycles;
    write_end[v] += cycles;
    end[v] += cycles;
  }
};

}  // namespace opuc::codegen

#endif  // OPUC_SRC_CODEGEN_STORE_TIMELINE_H
