//===- src/codegen/estimate.cc - The engines' timelines ---------------===//
//
// CycleEstimate::Total (estimate.h says what it models).
//
//===----------------------------------------------------------------------===//
#include "estimate.h"

#include <algorithm>
#include <deque>
#include <utility>
#include <vector>

namespace opuc::codegen {

int64_t CycleEstimate::Total(std::vector<int64_t>* unit_ends) const {
  if (units_.empty()) return 0;
  // The engines' timelines, unit by unit, as the tokens order them: a
  // unit's loads wait for the buffer slot the unit slots_ before computed
  // from, its computation for its loads, the unit before and the
  // accumulator slot the store acc_regions_ before emptied, its store for its
  // computation and the store before.
  const size_t n = units_.size();
  // compute_end: when the unit's last instruction gave its tokens, which
  // waits for every instruction before it (its post stages').
  std::vector<int64_t> load_end(n), gemm_end(n), post_end(n), compute_end(n);
  // freed: when the unit gave the token that frees its slots for the loads
  // slots_ units on (compute_end, or its last Gemm's retirement).
  std::vector<int64_t> freed(n);
  // When a group's last unit gave the token the next group's first loads
  // wait for (its last instruction's, or its last Gemm's: SeamAtGemm).
  std::vector<int64_t> seam(n);
  // When the unit's last post instruction entered the post side's queue,
  // where that waited for the passes before (0: it did not).
  std::vector<int64_t> post_queued(n, 0);
  StoreTimeline stores(n, kStoreDrainCycles);
  // When each compute instruction so far left the fetch unit's queue.
  std::vector<int64_t> issued;
  // When each store instruction so far started and ended.
  std::vector<int64_t> store_starts, store_ends;
  // The first instruction comes a DRAM latency after the start, unless the
  // fetch unit read it while the step before ran.
  const int64_t start =
      prefetched_ ? kPrefetchedStartCycles : kStartCycles + (units_[0].fetch > 0 ? latency_ : 0);
  // When the load engine may ask for the next load's first beat, and
  // when each load still in flight is written.
  int64_t requests_free = start;
  std::deque<int64_t> in_flight;
  int64_t writers_free = start;  // when the last load was written
  // When the load engine may start unit u's loads: after the loads
  // before, its instruction words, and its compute queue's room; or, when
  // its first load waits for the token, that too. -1: not known yet (the
  // queue's room waits on computation not yet placed).
  // When the token unit u's loads wait for comes: the unit `slots` before
  // finished with its slots; a chained pair's second group's first unit,
  // the first group's last computation (-1: no token).
  const auto waits = [&](size_t u) {
    const Unit& unit = units_[u];
    return u - unit.first >= unit.slots || (u == unit.first && u > 0);
  };
  const auto token = [&](size_t u) -> int64_t {
    const Unit& unit = units_[u];
    if (!waits(u)) return -1;
    return u - unit.first >= unit.slots ? freed[u - unit.slots] : seam[u - 1];
  };
  const auto loads_start = [&](size_t u, size_t computed) -> int64_t {
    const Unit& unit = units_[u];
    const bool waits_first = waits(u) && unit.waits_from == 0;
    int64_t t = std::max(requests_free, waits_first ? token(u) : int64_t{0});
    t += unit.fetch;
    // The unit before's last compute instruction entered the queue once
    // the one kQueueDepth before it issued; this unit's loads follow it.
    size_t queued = issued.size();
    for (size_t v = computed; v < u; ++v)
      queued += units_[v].gemms.size() + static_cast<size_t>(units_[v].post_insns);
    if (const size_t depth = kQueueDepth; queued > depth) {
      if (queued - 1 - depth >= issued.size()) return -1;
      t = std::max(t, issued[queued - 1 - depth] + kQueueCycles);
    }
    size_t stores_queued = store_starts.size();
    for (size_t v = computed; v < u; ++v) stores_queued += units_[v].store_cycles.size();
    if (const size_t depth = kQueueDepth; stores_queued > depth) {
      if (stores_queued - 1 - depth >= store_starts.size()) return -1;
      t = std::max(t, store_starts[stores_queued - 1 - depth] + kStoreQueueCycles);
    }
    return t;
  };
  // Unit u's loads [from, to), from `t`, each after its request turn;
  // those from its `waits_from` on after the token of unit u - slots_. Their
  // reads meet the writes of the first `placed` units' stores.
  const auto run_loads = [&](size_t u, size_t from, size_t to, size_t placed, int64_t& t,
                             int64_t& written, std::vector<LoadReads>* log = nullptr) {
    const Unit& unit = units_[u];
    for (size_t i = from; i < to; ++i) {
      const LoadBeats& load = unit.loads[i];
      if (waits(u) && i == static_cast<size_t>(unit.waits_from)) {
        t = std::max(t, token(u));
        written = std::max(written, t);
      }
      // The load the seam's second token orders (SeamAtGemm).
      if (load.after_seam && unit.first > 0) {
        t = std::max(t, compute_end[unit.first - 1]);
        written = std::max(written, t);
      }
      // A Fence passes once the stores it names are done.
      if (load.after_store > 0 && static_cast<size_t>(load.after_store) <= store_ends.size()) {
        t = std::max(t, store_ends[static_cast<size_t>(load.after_store) - 1] + kFenceCycles);
        written = std::max(written, t);
      }
      // Loads in flight: the next load asks for its first beat
      // kRequestCycles after this one's last; each is written a latency
      // after its last beat, in order, and a load waits for the one
      // kLoadsInFlight before it to be written.
      if (in_flight.size() == kLoadsInFlight) {
        t = std::max(t, in_flight.front());
        in_flight.pop_front();
      }
      const int64_t asked = t;
      // The reads share the DRAM with the stores' writes (MeetLoad); a
      // zero-inserted window's reads come first, its zeros after them.
      const int64_t reads = load.paced_reads < 0 ? load.window : load.paced_reads;
      const int64_t met =
          load.paced_reads < 0 && load.free > 0
              ? stores.MeetReads(t, t + load.window, placed, load.free)
              : stores.MeetLoad(t, t + load.window, placed, reads, 0, load.fm_writes);
      if (log)
        log->push_back(
            {t, t + load.window + met, reads, load.paced_reads, load.free, load.fm_writes});
      t += load.window + met;
      // The writers take the loads in order and write a unit a cycle, so
      // a load's zeros are hidden by its latency only when the load
      // before is written by then.
      written = std::max({written, load.empty ? int64_t{0} : t + latency_ + kInstructionCycles,
                          std::max(writers_free, asked) + load.writers});
      writers_free = written;
      in_flight.push_back(written + 1);
      t += kRequestCycles;
    }
  };
  // A unit's loads ahead of its token (a new window's), run before the
  // unit before computes: how many, and when they were written.
  std::vector<size_t> ahead(n, 0);
  std::vector<int64_t> ahead_written(n, 0);
  // The units with post stages so far: their pairs' banks alternate.
  std::vector<size_t> posted;
  for (size_t u = 0; u < n; ++u) {
    const Unit& unit = units_[u];
    int64_t t = ahead[u] > 0 ? requests_free : loads_start(u, u);
    int64_t written = ahead[u] > 0 ? ahead_written[u] : t;
    run_loads(u, ahead[u], unit.loads.size(), u, t, written);
    load_end[u] = written;
    requests_free = t;
    // The next unit's loads ahead of its token ask while this one
    // computes, so their reads meet the stores before this one's (which
    // the Gemms of this one may wait for), and, once it is placed, this
    // one's.
    std::vector<LoadReads> ahead_reads;
    if (const size_t next = u + 1; next < n && waits(next) && units_[next].waits_from > 0) {
      int64_t at = loads_start(next, u);
      if (at >= 0) {
        ahead[next] = static_cast<size_t>(units_[next].waits_from);
        ahead_written[next] = at;
        run_loads(next, 0, ahead[next], u, at, ahead_written[next], &ahead_reads);
        requests_free = at;
      }
    }
    // The array's first Gemm issues after the post stages of the unit
    // before entered their queue (one a cycle once its last Gemm is done).
    const int64_t begin = std::max(
        {load_end[u] + kHandOverCycles,
         u > 0 ? gemm_end[u - 1] + kUnitCycles + units_[u - 1].post_insns : int64_t{0},
         u > 0 ? post_queued[u - 1] + kUnitCycles : int64_t{0},
         unit.store_wait >= 0 ? stores.end[static_cast<size_t>(unit.store_wait)]
         : unit.store_wait == -2 && u - unit.first >= unit.regions ? stores.end[u - unit.regions]
         : unit.store_wait == -2 && u == unit.first && u > 0       ? stores.end[u - 1]
                                                                   : int64_t{0},
         // The bank rule: the pair two before, in this one's bank,
         // has done its post stages (with two slots its loads waited
         // for them already).
         unit.bank_back > 0 && posted.size() >= unit.bank_back
             ? post_end[posted[posted.size() - unit.bank_back]] + kBankCycles
             : int64_t{0}});
    gemm_end[u] = begin + unit.compute;
    // The post stages, and what waits for the unit's computation, wait for
    // its last Gemm's pixels to leave the array's pipeline.
    const int64_t drained = gemm_end[u] + (unit.gemms.empty() ? 0 : DrainCycles());
    // A Gemm issues as the one before issues its last pixel; the post instructions
    // enter the post side's queue one a cycle after the last.
    int64_t issue = begin;
    for (int64_t cycles : unit.gemms) {
      issued.push_back(issue);
      issue += cycles;
    }
    for (int64_t p = 0; p < unit.post_insns; ++p) issued.push_back(gemm_end[u] + 1 + p);
    const int64_t post_before = u > 0 ? post_end[u - 1] : int64_t{0};
    post_end[u] = unit.post_insns > 0
                      ? std::max(drained + kPostStartCycles, post_before) + unit.post
                      : post_before;
    compute_end[u] = std::max(drained, post_end[u]);
    const int64_t at_gemm = std::max(drained, u > 0 ? post_end[u - 1] : int64_t{0});
    freed[u] = unit.frees_at_gemm ? at_gemm : compute_end[u];
    seam[u] = unit.seam_at_gemm ? at_gemm : compute_end[u];
    if (unit.post_insns > 0) posted.push_back(u);
    // In slices, more post instructions than the post queue holds: the
    // last enters as the slice holding the one kPostQueue before it starts.
    if (const int64_t past = unit.post_insns - kPostQueue; past > 0 && unit.post_marks.size() > 1) {
      size_t k = 0;
      while (k + 1 < unit.post_insn_marks.size() && unit.post_insn_marks[k] < past) ++k;
      post_queued[u] = post_end[u] - unit.post + (k > 0 ? unit.post_marks[k - 1] : 0);
    }
    // In slices, each slice's store waits for its stages, not the tile's.
    std::vector<std::pair<int64_t, int64_t>> slices;
    if (unit.post_marks.size() > 1 && unit.store_marks.size() == unit.post_marks.size()) {
      const int64_t post_begin = post_end[u] - unit.post;
      for (size_t k = 0; k < unit.post_marks.size(); ++k)
        slices.emplace_back(post_begin + unit.post_marks[k],
                            unit.store_marks[k] - (k > 0 ? unit.store_marks[k - 1] : 0));
    }
    stores.Place(u, slices.empty() ? compute_end[u] : slices[0].first, unit.store, unit.store_words,
                 unit.store_pixels, slices, unit.store_to_fm);
    // When each of its store instructions starts: one after another, a
    // slice's first once its stages are done.
    int64_t at = stores.begin[u];
    for (size_t j = 0, slice = 0; j < unit.store_cycles.size(); ++j) {
      if (!slices.empty() && j > 0 && j == static_cast<size_t>(unit.store_insn_marks[slice]))
        ++slice;
      if (!slices.empty()) at = std::max(at, slices[slice].first);
      store_starts.push_back(at);
      at += unit.store_cycles[j];
      store_ends.push_back(j + 1 == unit.store_cycles.size() ? std::max(at, stores.end[u]) : at);
    }
    int64_t later = 0;
    for (const LoadReads& r : ahead_reads)
      later += r.paced_reads < 0 && r.free > 0
                   ? stores.MeetReads(r.from + later, r.to + later, u + 1, r.free, u)
                   : stores.MeetLoad(r.from + later, r.to + later, u + 1, r.reads, u, r.fm_writes);
    if (later > 0) {
      ahead_written[u + 1] += later;
      requests_free += later;
    }
  }
  if (unit_ends != nullptr) *unit_ends = stores.end;
  return stores.end[n - 1];
}

}  // namespace opuc::codegen
