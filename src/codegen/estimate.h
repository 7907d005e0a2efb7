//===- src/codegen/estimate.h - Cycles a group should take ----*- C++ -*-===//
//
// An analytical model of the RTL's engines (docs/rtl.md, "Timing of each
// engine"), calibrated against it with bench/opu_efficiency_bench: a load costs
// the DRAM latency plus its bytes at the HwConfig's bandwidth (converted to
// bytes per clock), a chain of loads the latency once (loads in flight: the
// next asks for its beats while the one before waits for its own); a store
// one pixel a cycle, or its bytes at the bandwidth when that is slower
// (writes are posted: no latency); a Gemm one
// cycle per output pixel (the array takes one pixel's L x Co products per
// cycle), and its pipeline's depth once (ArrayPipelineCycles); the output,
// compare and pool stages one cycle per entry or tap, beside the array, the
// stages a pass streams together costing the pass once and a cycle each for
// the register between two, and each stage its pipeline (kPostStageCycles;
// the pool has none). Every instruction adds kInstructionCycles (its start, its last
// write, the hand-over to the next); a unit's Gemms wait kHandOverCycles for
// the token of its loads (given, seen, taken) but only kUnitCycles after the
// unit before's (and a cycle per post instruction of it, entering the post
// side's queue) when its loads are already there; a group starts after
// kStartCycles. With double buffering the engines run as the tokens order
// them, and Total() follows each engine's timeline unit by unit: a unit's
// loads wait for the buffer slot the unit two before computed from (a new
// input window's go first when the units before proved its half free), its
// Gemms for its loads, for the unit before's and for the accumulator slot
// the store two before emptied, its post stages for its Gemms and the unit
// before's stages, its store for both and the store before. The fetch unit
// reads the instructions from DRAM: the group's first comes a latency after
// its start, and each unit's instruction bytes take the DRAM before its
// loads (the fetch unit asks first). The fetch unit queues the words in
// program order, a unit's loads after the unit before's computation, and
// the compute engine's queue holds kQueueDepth: a unit with more compute
// instructions than that holds the next unit's loads back until its first
// ones have issued. Loads and stores share the DRAM, which takes a read or
// a write a cycle: where a load's reads (one a cycle, or paced to its
// writes with compact pixels) meet a store's writes (one a cycle, or one
// for the pixels that share a beat) and together want more than every
// cycle, a stream that wants at most one cycle in two keeps its pace and
// the other gets the rest, or each gets one in two; a store delayed delays
// the stores after it.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_CODEGEN_ESTIMATE_H
#define OPUC_SRC_CODEGEN_ESTIMATE_H

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <deque>
#include <utility>
#include <vector>

#include "opuc/isa/isa.h"
#include "opuc/opu/hw_config.h"

namespace opuc::codegen {

class CycleEstimate {
 public:
  explicit CycleEstimate(const HwConfig& hw)
      : bytes_per_cycle_(std::max(1e-9, hw.dram.bandwidth_gb_per_s * 1e3 / hw.array.clock_mhz)),
        latency_(hw.dram.latency_cycles),
        array_pipeline_(ArrayPipelineCycles(hw.array.input_channels)),
        word_bytes_(std::max<int64_t>(1, hw.dram.word_bits / 8)),
        table_fill_((2 * 257 + hw.array.input_channels - 1) /
                    std::max<int64_t>(1, hw.array.input_channels)) {}

  /// What every instruction costs besides its work, as the RTL measures it.
  static constexpr int64_t kInstructionCycles = 3;
  /// What a token costs to pass from one engine to another (given, seen,
  /// taken, the next instruction started), what the compute engine spends
  /// between two units whose loads are already there, and what starting the
  /// group costs (the fetch units' first words), as the RTL measures them.
  /// (kHandOverCycles was 14 while each load waited for the one before: it
  /// also held the cycles that chain took beyond what Total() counted.)
  static constexpr int64_t kHandOverCycles = 8;
  static constexpr int64_t kUnitCycles = 3;
  static constexpr int64_t kStartCycles = 7;
  /// Each engine's instruction queue (opu_fetch.sv's DEPTH), and what a
  /// word takes from the issue that made room for it to the next unit's
  /// first load starting, as the RTL measures it.
  static constexpr int64_t kQueueDepth = 16;
  static constexpr int64_t kQueueCycles = 0;
  /// The post side's queue (opu_compute_engine.sv's QUEUE): a unit's post
  /// instructions past it enter only as the passes before leave it, and the
  /// next unit's Gemms, after them in program order, wait for that.
  static constexpr int64_t kPostQueue = 8;
  /// The load engine's instructions in flight (opu_top.sv's
  /// LOADS_IN_FLIGHT), and what it takes from a load's last request to the
  /// next one's first (the shell sees it free, starts it), as the RTL
  /// measures them.
  static constexpr size_t kLoadsInFlight = 4;
  static constexpr int64_t kRequestCycles = 2;
  /// What the pool stage spends before its first tap (opu_pool.sv: its
  /// windows come from two registers ahead of the walk).
  static constexpr int64_t kPoolSetupCycles = 2;
  /// What a post-processing instruction costs besides its entries, and
  /// what the first of a unit waits after the unit's last Gemm (its
  /// retirement, the queue, the start), as the RTL measures them.
  static constexpr int64_t kPostInstructionCycles = 3;
  static constexpr int64_t kPostStartCycles = 1;
  /// How long an entry takes through one post stage (POST_STAGE_CYCLES in
  /// opu_shapes.svh: operands, product or sum, the value to round, its
  /// shift, each registered); the pool (opu_pool.sv) has no such pipeline
  /// (kPoolSetupCycles instead).
  static constexpr int64_t kPostStageCycles = 4;
  /// What an Average spends on its divisor's reciprocal before its first
  /// entry (opu_average_recip.sv: one quotient bit a cycle).
  static constexpr int64_t kAverageSetupCycles = 20;
  /// An Average's own pipeline (AVERAGE_CYCLES in opu_shapes.svh).
  static constexpr int64_t kAverageCycles = 7;
  /// How much later a pixel's sums reach the accumulator than they would
  /// with no pipeline (opu_ipa.sv, IPA_STAGES in opu_shapes.svh): the
  /// products' register, then L's adder tree, two levels a register.
  static int64_t ArrayPipelineCycles(int64_t input_channels) {
    int64_t levels = 0;
    while ((int64_t{1} << levels) < input_channels) ++levels;
    return 1 + (levels > 1 ? (levels + 1) / 2 : 1);
  }

  void BeginUnit() { units_.emplace_back(); }
  /// The unit's instructions, `words` of them, read from DRAM by the fetch
  /// unit (opu_fetch.sv).
  void Fetch(int64_t words) { units_.back().fetch = Bandwidth(words * isa::kWordBits / 8); }
  /// A load of `bytes` that writes `units` on chip when that, not the
  /// DRAM, may bound it (a zero-inserted window: the load engine writes a
  /// unit a cycle; the DRAM's latency hides an ordinary border's zeros),
  /// and `written` units a cycle each from its beats (compact pixels,
  /// several a beat: their reads are paced to the writes).
  /// The load engine's writers write every unit of its frame (`frame`,
  /// zeros too; at least a unit a beat or a pixel), spend a cycle at the
  /// end of each of its `frame_rows` and one to finish (opu_load.sv).
  void Load(int64_t bytes, int64_t units = 0, int64_t written = 0, int64_t frame = 0,
            int64_t frame_rows = 1) {
    const int64_t reads = Bandwidth(bytes);
    const int64_t window = std::max({reads, units - latency_, written});
    units_.back().loads.push_back({window, window - reads, written > 0 ? reads : -1,
                                   std::max({frame, reads, written}) + frame_rows + 1});
  }
  /// The unit's loads from the `index`th on wait for the buffer slots the
  /// unit two before used (its token); those before go first (a window
  /// whose half the units before already proved free).
  void LoadsWaitFrom(int64_t index) { units_.back().waits_from = index; }
  /// A store of `pixels` in `writes` DRAM writes (fewer than the pixels
  /// where compact pixels share a beat; -1: one a pixel).
  void Store(int64_t pixels, int64_t bytes, int64_t writes = -1) {
    units_.back().store += std::max(pixels, Bandwidth(bytes)) + kInstructionCycles;
    units_.back().store_pixels += std::max(pixels, Bandwidth(bytes));
    // Each write costs the words it touches.
    const int64_t per_pixel = pixels > 0 ? (bytes / pixels + word_bytes_ - 1) / word_bytes_ : 0;
    units_.back().store_words +=
        Bandwidth((writes < 0 ? pixels : writes) * per_pixel * word_bytes_);
  }
  /// The array's instructions, and the post-processing stages' (which run
  /// beside the array: the next unit's Gemms overlap this unit's stages).
  void Compute(int64_t cycles) {
    Unit& unit = units_.back();
    unit.gemms.push_back(cycles + kInstructionCycles + array_pipeline_);
    unit.compute += unit.gemms.back();
  }
  /// A stage that `joins` the pass before streams through with it (the
  /// pass then takes its slowest stage's cycles, and one more for the
  /// register before the stage; opu_compute_engine.sv, opu_post.sv), and
  /// each stage its `latency`.
  void Post(int64_t cycles, bool joins = false, int64_t latency = kPostStageCycles) {
    Unit& unit = units_.back();
    ++unit.post_insns;
    if (joins) {
      unit.post += std::max<int64_t>(0, cycles - unit.pass) + 1 + latency;
      unit.pass = std::max(unit.pass, cycles);
      return;
    }
    unit.post += cycles + kPostInstructionCycles + latency;
    unit.pass = cycles;
  }
  /// The post instructions so far end a slice of the unit's tile, and the
  /// stores so far store it: that slice's store waits only for its own
  /// stages (Tiling::post_slices).
  void EndPostSlice() {
    units_.back().post_marks.push_back(units_.back().post);
    units_.back().post_insn_marks.push_back(units_.back().post_insns);
  }
  void EndStoreSlice() { units_.back().store_marks.push_back(units_.back().store); }
  /// A Table's pass first copies its table (257 entries of two bytes)
  /// from the feature map into the chain's one table, a row of L bytes a
  /// cycle (opu_post.sv's TABLE_ROWS).
  void TableFill() { units_.back().post += table_fill_; }
  int64_t Total() const {
    if (units_.empty()) return 0;
    // The engines' timelines, unit by unit, as the tokens order them: a
    // unit's loads wait for the buffer slot the unit two before computed
    // from, its computation for its loads, the unit before and the
    // accumulator slot the store two before emptied, its store for its
    // computation and the store before.
    const size_t n = units_.size();
    // compute_end: when the unit's last instruction gave its tokens, which
    // waits for every instruction before it (its post stages').
    std::vector<int64_t> load_end(n), gemm_end(n), post_end(n), compute_end(n);
    // When the unit's last post instruction entered the post side's queue,
    // where that waited for the passes before (0: it did not).
    std::vector<int64_t> post_queued(n, 0);
    StoreTimeline stores(n);
    // When each compute instruction so far left the fetch unit's queue.
    std::vector<int64_t> issued;
    // The first instruction comes a DRAM latency after the start.
    const int64_t start = kStartCycles + (units_[0].fetch > 0 ? latency_ : 0);
    // When the load engine may ask for the next load's first beat, and
    // when each load still in flight is written.
    int64_t requests_free = start;
    std::deque<int64_t> in_flight;
    int64_t writers_free = start;  // when the last load was written
    // When the load engine may start unit u's loads: after the loads
    // before, its instruction words, and its compute queue's room; or, when
    // its first load waits for the token, that too. -1: not known yet (the
    // queue's room waits on computation not yet placed).
    const auto loads_start = [&](size_t u, size_t computed) -> int64_t {
      const Unit& unit = units_[u];
      const bool waits_first = u > 1 && unit.waits_from == 0;
      int64_t t = std::max(requests_free, waits_first ? compute_end[u - 2] : int64_t{0});
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
      return t;
    };
    // Unit u's loads [from, to), from `t`, each after its request turn;
    // those from its `waits_from` on after the token of unit u - 2. Their
    // reads meet the writes of the first `placed` units' stores.
    const auto run_loads = [&](size_t u, size_t from, size_t to, size_t placed, int64_t& t,
                               int64_t& written, std::vector<LoadReads>* log = nullptr) {
      const Unit& unit = units_[u];
      for (size_t i = from; i < to; ++i) {
        const LoadBeats& load = unit.loads[i];
        if (u > 1 && i == static_cast<size_t>(unit.waits_from)) {
          t = std::max(t, compute_end[u - 2]);
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
        const int64_t met = load.paced_reads < 0 && load.free > 0
                                ? stores.MeetReads(t, t + load.window, placed, load.free)
                                : stores.MeetLoad(t, t + load.window, placed, reads);
        if (log) log->push_back({t, t + load.window + met, reads, load.paced_reads, load.free});
        t += load.window + met;
        // The writers take the loads in order and write a unit a cycle, so
        // a load's zeros are hidden by its latency only when the load
        // before is written by then.
        written = std::max({written, t + latency_ + kInstructionCycles,
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
      if (const size_t next = u + 1; next < n && next > 1 && units_[next].waits_from > 0) {
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
      const int64_t begin =
          std::max({load_end[u] + kHandOverCycles,
                    u > 0 ? gemm_end[u - 1] + kUnitCycles + units_[u - 1].post_insns : int64_t{0},
                    u > 0 ? post_queued[u - 1] + kUnitCycles : int64_t{0},
                    u > 1 ? stores.end[u - 2] : int64_t{0}});
      gemm_end[u] = begin + unit.compute;
      // A Gemm issues when the one before is done; the post instructions
      // enter the post side's queue one a cycle after the last.
      int64_t issue = begin;
      for (int64_t cycles : unit.gemms) {
        issued.push_back(issue);
        issue += cycles;
      }
      for (int64_t p = 0; p < unit.post_insns; ++p) issued.push_back(gemm_end[u] + 1 + p);
      const int64_t post_before = u > 0 ? post_end[u - 1] : int64_t{0};
      post_end[u] = unit.post_insns > 0
                        ? std::max(gemm_end[u] + kPostStartCycles, post_before) + unit.post
                        : post_before;
      compute_end[u] = std::max(gemm_end[u], post_end[u]);
      // In slices, more post instructions than the post queue holds: the
      // last enters as the slice holding the one kPostQueue before it starts.
      if (const int64_t past = unit.post_insns - kPostQueue;
          past > 0 && unit.post_marks.size() > 1) {
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
      stores.Place(u, slices.empty() ? compute_end[u] : slices[0].first, unit.store,
                   unit.store_words, unit.store_pixels, slices);
      int64_t later = 0;
      for (const LoadReads& r : ahead_reads)
        later += r.paced_reads < 0 && r.free > 0
                     ? stores.MeetReads(r.from + later, r.to + later, u + 1, r.free, u)
                     : stores.MeetLoad(r.from + later, r.to + later, u + 1, r.reads, u);
      if (later > 0) {
        ahead_written[u + 1] += later;
        requests_free += later;
      }
    }
    return stores.end[n - 1];
  }

 private:
  /// A load's reads as they ran: from, to, how many, and its LoadBeats'
  /// paced_reads and free.
  struct LoadReads {
    int64_t from, to, reads, paced_reads, free;
  };
  struct LoadBeats {
    int64_t window = 0;       ///< The load's DRAM cycles.
    int64_t free = 0;         ///< Of those, the cycles without a read.
    int64_t paced_reads = 0;  ///< Its reads when paced to its writes (compact pixels), or -1.
    int64_t writers = 0;      ///< Its writers' cycles (its frame's units and rows).
  };
  struct Unit {
    int64_t compute = 0, post = 0, post_insns = 0, store = 0;
    std::vector<int64_t> gemms;    ///< Each Gemm's cycles, in order.
    int64_t fetch = 0;             ///< The DRAM cycles its instruction words take.
    int64_t waits_from = 0;        ///< Its first load that waits for the unit two before.
    int64_t pass = 0;              ///< The cycles of the post side's latest pass.
    std::vector<LoadBeats> loads;  ///< In order.
    int64_t store_words = 0;       ///< The DRAM cycles its stores' writes take.
    int64_t store_pixels = 0;      ///< The cycles its stores' pixels take, one a cycle.
    /// With post slices: `post` and `store` at the end of each slice.
    std::vector<int64_t> post_marks, store_marks, post_insn_marks;
  };

  /// The store engine's timeline: when each unit's store begins and ends,
  /// and when its DRAM writes end (one a cycle from its start, or spread
  /// over its pixels at `pace`, delayed by the reads they meet).
  struct StoreTimeline {
    explicit StoreTimeline(size_t n) : begin(n), end(n), write_end(n), pace(n, 1.0) {}
    std::vector<int64_t> begin, end, write_end;
    std::vector<double> pace;  ///< Writes a cycle while a store writes.
    size_t writing = 0;        ///< The first store whose writes may not have ended.

    /// Unit u's store, after its computation and the store before; in
    /// `slices` (when each is ready, its cycles), each slice after its
    /// stages, which may leave the store waiting between slices.
    void Place(size_t u, int64_t computed, int64_t cycles, int64_t words, int64_t pixels,
               const std::vector<std::pair<int64_t, int64_t>>& slices) {
      begin[u] = std::max(computed, u > 0 ? end[u - 1] : int64_t{0});
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
        if (v > 0 && end[v - 1] > begin[v]) Delay(v, end[v - 1] - begin[v]);
        const int64_t writing_there =
            std::max<int64_t>(0, std::min(to + writes, write_end[v]) - std::max(from, begin[v]));
        const int64_t met = std::max<int64_t>(0, writing_there - free);
        free = std::max<int64_t>(0, free - writing_there);
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
    int64_t MeetLoad(int64_t from, int64_t to, size_t u, int64_t reads, size_t first = 0) {
      while (writing < u && write_end[writing] <= from && end[writing] <= from) ++writing;
      const double load_pace =
          static_cast<double>(reads) / static_cast<double>(std::max<int64_t>(1, to - from));
      int64_t delay = 0;
      for (size_t v = std::max(writing, first); v < u && load_pace > 0; ++v) {
        if (v > 0 && end[v - 1] > begin[v]) Delay(v, end[v - 1] - begin[v]);
        const int64_t meet_from = std::max(from, begin[v]);
        const double reads_left = load_pace * static_cast<double>(to + delay - meet_from);
        const double writes_left = pace[v] * static_cast<double>(write_end[v] - meet_from);
        if (reads_left <= 0 || writes_left <= 0 || load_pace + pace[v] <= 1.0) continue;
        const double load_kept = std::min(load_pace, std::max(0.5, 1.0 - pace[v]));
        const double store_kept = std::min(pace[v], std::max(0.5, 1.0 - load_pace));
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

  int64_t Bandwidth(int64_t bytes) const {
    return static_cast<int64_t>(std::ceil(static_cast<double>(bytes) / bytes_per_cycle_));
  }
  double bytes_per_cycle_;
  int64_t latency_;
  int64_t array_pipeline_;
  int64_t word_bytes_;
  int64_t table_fill_;
  std::vector<Unit> units_;
};

}  // namespace opuc::codegen

#endif  // OPUC_SRC_CODEGEN_ESTIMATE_H
