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
// cycle) and kGemmGapCycles, the next issuing while its pixels drain the
// array's pipeline (ArrayPipelineCycles), which the unit's post stages
// wait for after its last Gemm (DrainCycles); the output,
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
// loads wait for the buffer slot the unit `slots` before computed from (a new
// input window's go first when the units before proved its half free), its
// Gemms for its loads, for the unit before's and for the accumulator slot
// the store two (or four: Tiling::acc_regions; or a whole-pixel store group's, StoreWait) before
// emptied, its post stages for its Gemms and the unit before's stages, its store for both and
// the store before. The fetch unit reads the
// instructions from DRAM: the group's first comes a latency after its start, and each unit's
// instruction bytes take the DRAM before its loads (the fetch unit asks first). The fetch unit
// queues the words in program order, a unit's loads after the unit before's computation, and the
// compute engine's queue holds kQueueDepth: a unit with more compute instructions than that holds
// the next unit's loads back until its first ones have issued. Loads and stores share the DRAM,
// which takes a read or a write a cycle: where a load's reads (one a cycle, or paced to its writes
// with compact pixels) meet a store's writes (one a cycle, or one for the pixels that share a beat)
// and together want more than every cycle, a stream that wants at most one cycle in two keeps its
// pace and the other gets the rest, or each gets one in two; a store delayed delays the stores
// after it.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_CODEGEN_ESTIMATE_H
#define OPUC_SRC_CODEGEN_ESTIMATE_H

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "opuc/isa/isa.h"
#include "opuc/opu/buffer_units.h"
#include "opuc/opu/hw_config.h"
#include "store_timeline.h"

namespace opuc::codegen {

class CycleEstimate {
 public:
  explicit CycleEstimate(const HwConfig& hw)
      : bytes_per_cycle_(std::max(1e-9, hw.dram.bandwidth_gb_per_s * 1e3 / hw.array.clock_mhz)),
        latency_(hw.dram.latency_cycles),
        array_pipeline_(ArrayPipelineCycles(hw.array.input_channels)),
        word_bytes_(std::max<int64_t>(1, hw.dram.word_bits / 8)),
        table_fill_((2 * 257 + hw.array.input_channels - 1) /
                    std::max<int64_t>(1, hw.array.input_channels)),
        fm_pairs_(opuc::FeatureMapPairs(hw)),
        buffer_units_(BufferUnits(hw)) {}

  /// The OPU's buffers, in the units its instructions count.
  const OpuBufferUnits& buffer_units() const { return buffer_units_; }

  /// Whether the feature-map buffer takes a pair of units a cycle
  /// (FeatureMapPairs): a compact load's pixels go two at a time.
  bool FeatureMapPairs() const { return fm_pairs_; }

  /// What every instruction costs besides its work, as the RTL measures it.
  static constexpr int64_t kInstructionCycles = 3;
  /// What a Gemm costs besides its pixels when another follows: the next
  /// one's first pixel issues two cycles after its last, the cycle between
  /// its start (opu_gemm.sv's accept_o), as the RTL measures it.
  static constexpr int64_t kGemmGapCycles = 1;
  /// From a unit's last Gemm's last pixel issued (and the gap) to its last
  /// write retired: the array's pipeline, the done, the retirement.
  int64_t DrainCycles() const { return kInstructionCycles + array_pipeline_ - kGemmGapCycles; }
  /// What a token costs to pass from one engine to another (given, seen,
  /// taken, the next instruction started), what the compute engine spends
  /// between two units whose loads are already there, and what starting the
  /// group costs (the fetch units' first words), as the RTL measures them.
  /// (kHandOverCycles was 14 while each load waited for the one before: it
  /// also held the cycles that chain took beyond what Total() counted.)
  static constexpr int64_t kHandOverCycles = 8;
  static constexpr int64_t kUnitCycles = 3;
  /// From the post side's last entry of a bank to the array's first Gemm
  /// into it (docs/rtl.md's bank rule), as the RTL measures it.
  static constexpr int64_t kBankCycles = 1;
  static constexpr int64_t kStartCycles = 7;
  /// The same where the first words were prefetched (opu_fetch.sv): the
  /// first load asks three cycles after the start (the word's decode, its
  /// queue, the shell's start), as the RTL measures it.
  static constexpr int64_t kPrefetchedStartCycles = 3;
  /// Each engine's instruction queue (opu_fetch.sv's DEPTH), and what a
  /// word takes from the issue that made room for it to the next unit's
  /// first load starting, as the RTL measures it.
  static constexpr int64_t kQueueDepth = 16;
  static constexpr int64_t kQueueCycles = 0;
  /// The same for the store engine's queue (as deep): a unit's loads come
  /// after the stores before in program order, so with more stores queued
  /// than it holds they wait for the one kQueueDepth before the last to
  /// start, and kStoreQueueCycles more, as the RTL measures it.
  static constexpr int64_t kStoreQueueCycles = 3;
  /// The post side's queue (opu_compute_engine.sv's QUEUE): a unit's post
  /// instructions past it enter only as the passes before leave it, and the
  /// next unit's Gemms, after them in program order, wait for that.
  static constexpr int64_t kPostQueue = 8;
  /// What a unit's second and later stores wait besides kInstructionCycles:
  /// the one before's last pixel through the store's pipeline (the RTL
  /// takes a store of n pixels in n + 5 cycles and starts the next 2
  /// later). A unit's first store waits so only where it follows the
  /// store before at once; after its computation, the drain hides behind
  /// the hand-over.
  static constexpr int64_t kStoreDrainCycles = 4;
  /// The load engine's instructions in flight (opu_top.sv's
  /// LOADS_IN_FLIGHT), and what it takes from a load's last request to the
  /// next one's first (the shell sees it free, starts it), as the RTL
  /// measures them.
  static constexpr size_t kLoadsInFlight = 4;
  static constexpr int64_t kRequestCycles = 2;
  /// What the pool stage spends besides its taps (opu_pool.sv): two
  /// cycles before its first (its windows come from two registers ahead of
  /// the walk), and one after its last (each tap's value is registered
  /// before it is combined).
  static constexpr int64_t kPoolPipelineCycles = 3;
  /// From a Fence's last store done to its load's start: the count's
  /// comparison is registered (opu_top.sv's fence_met_q).
  static constexpr int64_t kFenceCycles = 1;
  /// A 2x2 window tail's end: its last window finishes the cycle after the
  /// pass's last entry, waits a cycle in the queue, is written, then done.
  static constexpr int64_t kWindowTailCycles = 4;
  /// What a post-processing instruction costs besides its entries, and
  /// what the first of a unit waits after the unit's last Gemm (its
  /// retirement, the queue, the start), as the RTL measures them.
  static constexpr int64_t kPostInstructionCycles = 3;
  static constexpr int64_t kPostStartCycles = 1;
  /// How long an entry takes through one post stage (POST_STAGE_CYCLES in
  /// opu_shapes.svh: operands, product or sum, the value to round, its
  /// shift, each registered); the pool (opu_pool.sv) has no such pipeline
  /// (kPoolPipelineCycles instead).
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

  /// The accumulator regions the units take in turn (Tiling::acc_regions):
  /// a unit's Gemms wait for the store `regions` units before, and for the
  /// post stages of the pair two before, which hold its bank (the bank
  /// rule; with two slots its loads waited for them already).
  void AccRegions(int64_t regions) { acc_regions_ = static_cast<size_t>(regions); }
  /// Units' loads wait for the token of the unit `slots` before
  /// (Tiling::slots), not two.
  void UnitSlots(int64_t slots) { slots_ = static_cast<size_t>(slots); }
  void BeginUnit() {
    Unit& unit = units_.emplace_back();
    unit.first = group_first_;
    unit.slots = slots_;
    unit.regions = acc_regions_;
  }
  /// The units from here on are the second group of a chained pair
  /// (docs/codegen.md, "Chained pairs"): its first loads wait for the last
  /// computation of the group before, its first Gemms for that group's last
  /// store, and its slots and regions turn from its own first unit.
  void BeginGroup() { group_first_ = units_.size(); }
  /// Room for `units` more units (a group's, known before its first).
  void Reserve(int64_t units) { units_.reserve(units_.size() + static_cast<size_t>(units)); }
  int64_t UnitCount() const { return static_cast<int64_t>(units_.size()); }
  /// The unit's Gemms wait for the store of unit `unit` (a whole-pixel
  /// store's tile two before), or for none (-1), not `regions` units
  /// before.
  void StoreWait(int64_t unit) { units_.back().store_wait = unit; }
  /// The bank rule for the unit begun last: its Gemms wait for the post
  /// stages of the unit with post stages `back` before (2: the pair two
  /// before, in its bank; block pairs take a pair's two units in one bank);
  /// 0 for none (a unit without Gemms).
  void BankWait(int64_t back) { units_.back().bank_back = static_cast<size_t>(back); }
  /// The fetch unit's buffer (opu_fetch.sv's BUFFER): chunks of a DRAM
  /// beat or a word, whichever is wider.
  static constexpr int64_t kFetchBuffer = 8;
  /// The words the fetch unit reads of a program named next while the one
  /// before runs (opu_fetch.sv, "Prefetch"): its buffer's.
  static int64_t PrefetchWords(int64_t beat_bytes) {
    return kFetchBuffer * std::max<int64_t>(1, beat_bytes / (isa::kWordBits / 8));
  }
  /// The group's first `words` were read while the step before ran (the
  /// runtime named this step next): they wait for no DRAM. Before Fetch.
  void Prefetched(int64_t words) {
    prefetched_ = words > 0;
    prefetched_left_ = words;
  }
  /// The unit's instructions, `words` of them, read from DRAM by the fetch
  /// unit (opu_fetch.sv), but for those prefetched.
  void Fetch(int64_t words) {
    const int64_t early = std::min(words, prefetched_left_);
    prefetched_left_ -= early;
    units_.back().fetch = Bandwidth((words - early) * isa::kWordBits / 8);
  }
  /// A load of `bytes` that writes `units` on chip when that, not the
  /// DRAM, may bound it (a zero-inserted window: the load engine writes a
  /// unit a cycle; the DRAM's latency hides an ordinary border's zeros),
  /// and `written` cycles of writes from its beats (compact pixels, several
  /// a beat, one or a pair a cycle: their reads are paced to the writes).
  /// The load engine's writers take `frame` cycles over its frame (a unit
  /// a cycle, zeros too, its pixels a pair a cycle where they go so; at
  /// least a unit a beat or a pixel), spend a cycle at the
  /// end of each of its `frame_rows` and one to finish (opu_load.sv).
  void Load(int64_t bytes, int64_t units = 0, int64_t written = 0, int64_t frame = 0,
            int64_t frame_rows = 1) {
    const int64_t reads = Bandwidth(bytes);
    const int64_t window = std::max({reads, units - latency_, written});
    units_.back().loads.push_back({window, window - reads, written > 0 ? reads : -1,
                                   std::max({frame, reads, written}) + frame_rows + 1, frame});
  }
  /// A load of nothing, which only carries the unit's tokens: it asks the
  /// DRAM nothing, so it waits for no latency (its writers finish it).
  void TokenLoad() { units_.back().loads.push_back({0, 0, -1, 2, 0, true}); }
  /// A Fence before the unit's `load`th load so far: it waits for the end
  /// of the group's (or run's) `stores`th store instruction, then passes
  /// as a Load of nothing (opu_top.sv); the load the token waits for stays
  /// the same.
  void FenceBefore(size_t load, int64_t stores) {
    Unit& unit = units_.back();
    LoadBeats fence{0, 0, -1, 2, 0, true};
    fence.after_store = stores;
    unit.loads.insert(unit.loads.begin() + static_cast<std::ptrdiff_t>(load), fence);
    if (static_cast<int64_t>(load) <= unit.waits_from) ++unit.waits_from;
  }
  /// The unit's loads from the `index`th on wait for the buffer slots the
  /// unit two before used (its token); those before go first (a window
  /// whose half the units before already proved free).
  void LoadsWaitFrom(int64_t index) { units_.back().waits_from = index; }
  /// Unit `unit`, a group's last, gives the token the next group's first
  /// loads wait for at its last Gemm, not its last instruction (docs/
  /// codegen.md, "Runs"), as FreesAtGemm does; and unit `late_unit`'s
  /// `late_load`th load (-1: none) waits for its last instruction.
  void SeamAtGemm(int64_t unit, int64_t late_unit, int64_t late_load) {
    units_[static_cast<size_t>(unit)].seam_at_gemm = true;
    if (late_unit >= 0)
      units_[static_cast<size_t>(late_unit)].loads[static_cast<size_t>(late_load)].after_seam =
          true;
  }
  /// The unit's last Gemm gives the token its loads' slots wait for
  /// (Tiling::frees_at_gemm): it retires once the unit before's post
  /// stages are done too, not after its own.
  void FreesAtGemm() { units_.back().frees_at_gemm = true; }
  /// A store of `pixels` in `writes` DRAM writes (fewer than the pixels
  /// where compact pixels share a beat; -1: one a pixel).
  /// `to_fm`: into the feature-map buffer (Store.to_fm), each pixel a
  /// write of its port, which the loads' writes take first.
  void Store(int64_t pixels, int64_t bytes, int64_t writes = -1, bool to_fm = false) {
    units_.back().store_to_fm = units_.back().store_to_fm || to_fm;
    // A store after another of the unit waits for that one's last pixel to
    // leave the store's pipeline.
    const int64_t cycles = std::max(pixels, Bandwidth(bytes)) + kInstructionCycles +
                           (units_.back().store_cycles.empty() ? 0 : kStoreDrainCycles);
    units_.back().store += cycles;
    units_.back().store_cycles.push_back(cycles);
    units_.back().store_pixels += std::max(pixels, Bandwidth(bytes));
    // Each write costs the words it touches.
    const int64_t per_pixel = pixels > 0 ? (bytes / pixels + word_bytes_ - 1) / word_bytes_ : 0;
    units_.back().store_words +=
        Bandwidth((writes < 0 ? pixels : writes) * per_pixel * word_bytes_);
  }
  /// The array's instructions, and the post-processing stages' (which run
  /// beside the array: the next unit's Gemms overlap this unit's stages).
  /// A Gemm of `cycles` writing entries [first_entry, end_entry) starts
  /// as the one before issues its last pixel, but only once the one before
  /// that is done (opu_gemm.sv: two Gemms in flight), and a cycle later
  /// when its first entry is next to the last the one before wrote then
  /// (its read would meet that write; entries -1: not known).
  void Compute(int64_t cycles, int64_t first_entry = -1, int64_t end_entry = -1) {
    Unit& unit = units_.back();
    int64_t start = std::max(unit.compute, unit.gemm_end_before + DrainCycles() + 1);
    if (start == unit.compute && !unit.gemms.empty() && first_entry >= 0 && unit.last_entry >= 0 &&
        std::abs(first_entry - unit.last_entry) <= 1)
      ++start;
    unit.gemms.push_back(start - unit.compute + cycles + kGemmGapCycles);
    unit.gemm_end_before = unit.gemms.size() > 1 ? unit.compute : -(int64_t{1} << 40);
    unit.compute += unit.gemms.back();
    unit.last_entry = end_entry - 1;
  }
  /// A stage that `joins` the pass before streams through with it (the
  /// pass then takes its slowest stage's cycles, and one more for the
  /// register before the stage; opu_compute_engine.sv, opu_post.sv), and
  /// each stage its `latency`.
  /// A pass of one instruction that `dual` allows (DualPass) takes two
  /// entries a cycle, until a stage joins it (but a Table that joins such a
  /// pass with `dual`: a dual chain) or a pool ends it.
  void Post(int64_t cycles, bool joins = false, int64_t latency = kPostStageCycles,
            bool dual = false) {
    Unit& unit = units_.back();
    ++unit.post_insns;
    if (joins) {
      if (!dual) UndoDual();
      unit.post += std::max<int64_t>(0, cycles - unit.pass) + 1 + latency;
      unit.pass = std::max(unit.pass, cycles);
      return;
    }
    unit.dual_saved = dual ? cycles / 2 : 0;
    unit.post += cycles - unit.dual_saved + kPostInstructionCycles + latency;
    unit.pass = cycles;
  }
  /// Whether an Output, Clamp or PRelu alone over `count` entries from
  /// `acc_addr` takes two a cycle (opu_post.sv's dual pass): an even count
  /// from an even entry, below the sums' bank.
  bool DualPass(int64_t acc_addr, int64_t count) const {
    return acc_addr % 2 == 0 && count % 2 == 0 && acc_addr + count <= buffer_units_.AccSumsBank();
  }
  /// A Pool that ends the pass before as its tail (PoolEndsPass): it reads
  /// no entry. A sum is written two cycles after the pass's last entry;
  /// 2x2 windows' pooled entries as they complete, beside the pass's own
  /// writes (opu_pool_tail.sv), the last a few cycles after its last entry.
  void PostTail(int64_t pooled) {
    UndoDual();
    ++units_.back().post_insns;
    units_.back().post += pooled > 0 ? kWindowTailCycles : 2;
  }
  /// The post instructions so far end a slice of the unit's tile, and the
  /// stores so far store it: that slice's store waits only for its own
  /// stages (Tiling::post_slices).
  void EndPostSlice() {
    units_.back().post_marks.push_back(units_.back().post);
    units_.back().post_insn_marks.push_back(units_.back().post_insns);
  }
  void EndStoreSlice() {
    units_.back().store_marks.push_back(units_.back().store);
    units_.back().store_insn_marks.push_back(
        static_cast<int64_t>(units_.back().store_cycles.size()));
  }
  /// A Table's pass first copies its table (257 entries of two bytes)
  /// from the feature map into the chain's one table, a row of L bytes a
  /// cycle (opu_post.sv's TABLE_ROWS).
  void TableFill() { units_.back().post += table_fill_; }
  /// The group's cycles: the engines' timelines, unit by unit (estimate.cc);
  /// with `unit_ends`, when each unit's last store ends.
  int64_t Total(std::vector<int64_t>* unit_ends = nullptr) const;

 private:
  void UndoDual() {
    units_.back().post += units_.back().dual_saved;
    units_.back().dual_saved = 0;
  }
  /// A load's reads as they ran: from, to, how many, and its LoadBeats'
  /// paced_reads and free.
  struct LoadReads {
    int64_t from, to, reads, paced_reads, free, fm_writes;
  };
  struct LoadBeats {
    int64_t window = 0;       ///< The load's DRAM cycles.
    int64_t free = 0;         ///< Of those, the cycles without a read.
    int64_t paced_reads = 0;  ///< Its reads when paced to its writes (compact pixels), or -1.
    int64_t writers = 0;      ///< Its writers' cycles (its frame's units and rows).
    int64_t fm_writes = 0;    ///< Its writes into the feature-map buffer (its frame's).
    bool empty = false;       ///< TokenLoad: no DRAM, no latency.
    int64_t after_store = 0;  ///< A Fence's: the store instructions it waits for (FenceBefore).
    bool after_seam = false;  ///< Waits for the group before's last instruction (SeamAtGemm).
  };
  struct Unit {
    int64_t compute = 0, post = 0, post_insns = 0, store = 0;
    std::vector<int64_t> gemms;                     ///< Each Gemm's cycles, in order.
    int64_t gemm_end_before = -(int64_t{1} << 40);  ///< The end of the Gemm before the last.
    int64_t last_entry = -1;                        ///< The last Gemm's last entry.
    int64_t fetch = 0;                              ///< The DRAM cycles its instruction words take.
    int64_t waits_from = 0;         ///< Its first load that waits for the unit two before.
    bool frees_at_gemm = false;     ///< FreesAtGemm.
    bool seam_at_gemm = false;      ///< SeamAtGemm.
    int64_t store_wait = -2;        ///< StoreWait's unit; -2: `regions` units before.
    size_t bank_back = 2;           ///< BankWait.
    size_t first = 0;               ///< Its group's first unit (BeginGroup).
    size_t slots = 2, regions = 2;  ///< Its group's UnitSlots and AccRegions.
    bool store_to_fm = false;       ///< Its stores write the feature-map buffer.
    int64_t pass = 0;               ///< The cycles of the post side's latest pass.
    int64_t dual_saved = 0;         ///< What that pass saves as a dual pass, until joined.
    std::vector<LoadBeats> loads;   ///< In order.
    int64_t store_words = 0;        ///< The DRAM cycles its stores' writes take.
    int64_t store_pixels = 0;       ///< The cycles its stores' pixels take, one a cycle.
    /// With post slices: `post` and `store` at the end of each slice.
    std::vector<int64_t> post_marks, store_marks, post_insn_marks, store_insn_marks;
    std::vector<int64_t> store_cycles;  ///< Each store instruction's cycles, in order.
  };

  int64_t Bandwidth(int64_t bytes) const {
    return static_cast<int64_t>(std::ceil(static_cast<double>(bytes) / bytes_per_cycle_));
  }
  double bytes_per_cycle_;
  int64_t latency_;
  bool prefetched_ = false;  // the group's first words were read before its start
  int64_t prefetched_left_ = 0;
  int64_t array_pipeline_;
  int64_t word_bytes_;
  int64_t table_fill_;
  bool fm_pairs_;
  OpuBufferUnits buffer_units_;
  size_t acc_regions_ = 2;
  size_t slots_ = 2;
  size_t group_first_ = 0;
  std::vector<Unit> units_;
};

}  // namespace opuc::codegen

#endif  // OPUC_SRC_CODEGEN_ESTIMATE_H
