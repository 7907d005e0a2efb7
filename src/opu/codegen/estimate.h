//===- src/opu/codegen/estimate.h - Cycles a group should take ----*- C++ -*-===//
//
// An analytical model of the RTL's engines (docs/rtl.md, "Timing of each
// engine"), calibrated against it with bench/opu_efficiency_bench: a load costs
// the DRAM latency plus its bytes at the HwConfig's bandwidth (converted to
// bytes per clock); a store one pixel a cycle, or its bytes at the
// bandwidth when that is slower (writes are posted: no latency); a Gemm one
// cycle per output pixel (the array takes one pixel's L x Co products per
// cycle); the output, compare and pool stages one cycle per entry or tap.
// Every instruction adds kInstructionCycles (its start, its last write, the
// hand-over to the next), every unit's computation kUnitCycles (its tokens
// passing from engine to engine), every group kStartCycles. With double buffering the engines form
// a three-stage pipeline over the units: while unit u computes, unit u+1 loads and unit u-1 stores.
// So the time is the first unit's loads, then for each unit the slowest of those three, then the
// last unit's stores; never more than running everything one after another. Loads and stores
// share the DRAM: a unit's stores delay the next unit's loads by the writes that fall in the
// loads' request bursts.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_OPU_CODEGEN_ESTIMATE_H
#define OPUC_SRC_OPU_CODEGEN_ESTIMATE_H

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "opuc/opu/hw_config.h"

namespace opuc::codegen {

class CycleEstimate {
 public:
  explicit CycleEstimate(const HwConfig& hw)
      : bytes_per_cycle_(std::max(1e-9, hw.dram.bandwidth_gb_per_s * 1e3 / hw.array.clock_mhz)),
        latency_(hw.dram.latency_cycles),
        word_bytes_(std::max<int64_t>(1, hw.dram.word_bits / 8)) {}

  /// What every instruction costs besides its work, as the RTL measures it.
  static constexpr int64_t kInstructionCycles = 3;
  /// What passing a unit from engine to engine costs (a token given, seen,
  /// taken, the next instruction started), and starting the group (the
  /// fetch units' first words), as the RTL measures them.
  static constexpr int64_t kUnitCycles = 14;
  static constexpr int64_t kStartCycles = 7;

  void BeginUnit() { units_.emplace_back(); }
  void Load(int64_t bytes) {
    units_.back().load += latency_ + Bandwidth(bytes) + kInstructionCycles;
    units_.back().load_beats.push_back(Bandwidth(bytes));
  }
  void Store(int64_t pixels, int64_t bytes) {
    units_.back().store += std::max(pixels, Bandwidth(bytes)) + kInstructionCycles;
    // Each pixel is one DRAM write, which costs the words it touches.
    const int64_t per_pixel = pixels > 0 ? (bytes / pixels + word_bytes_ - 1) / word_bytes_ : 0;
    units_.back().store_words += Bandwidth(pixels * per_pixel * word_bytes_);
  }
  void Compute(int64_t cycles) { units_.back().compute += cycles + kInstructionCycles; }
  int64_t Total() const {
    if (units_.empty()) return 0;
    int64_t total = kStartCycles + units_.front().load + units_.back().store;
    for (size_t u = 0; u < units_.size(); ++u) {
      const int64_t next_load =
          u + 1 < units_.size() ? units_[u + 1].load + Collisions(units_[u], units_[u + 1]) : 0;
      const int64_t previous_store = u > 0 ? units_[u - 1].store : 0;
      // The hand-over delays the unit's computation; a load or a store
      // running longer hides it.
      total += std::max({units_[u].compute + kUnitCycles, next_load, previous_store});
    }
    return total;
  }

 private:
  struct Unit {
    int64_t load = 0, compute = 0, store = 0;
    std::vector<int64_t> load_beats;  ///< Each load's DRAM cycles, in order.
    int64_t store_words = 0;          ///< The DRAM cycles its stores' writes take.
  };

  /// The cycles `next`'s loads lose to `unit`'s stores. The loads run ahead
  /// of the computation, so `unit`'s stores begin its computation and one
  /// hand-over after `next`'s loads; the DRAM takes a read or a write a
  /// cycle, so each write that falls in a load's request burst delays it a
  /// cycle (writes in the bursts' latency gaps cost the loads nothing).
  int64_t Collisions(const Unit& unit, const Unit& next) const {
    const int64_t begin = unit.compute + kUnitCycles, end = begin + unit.store_words;
    int64_t t = 0, lost = 0;
    // Stores that outlast `next`'s loads meet the unit after it, taken to
    // load as `next` does.
    for (int pass = 0; pass < 2; ++pass)
      for (int64_t beats : next.load_beats) {
        const int64_t overlap = std::min(end, t + beats) - std::max(begin, t);
        lost += std::max<int64_t>(0, overlap);
        t += beats + latency_ + kInstructionCycles;
      }
    return lost;
  }

  int64_t Bandwidth(int64_t bytes) const {
    return static_cast<int64_t>(std::ceil(static_cast<double>(bytes) / bytes_per_cycle_));
  }
  double bytes_per_cycle_;
  int64_t latency_;
  int64_t word_bytes_;
  std::vector<Unit> units_;
};

}  // namespace opuc::codegen

#endif  // OPUC_SRC_OPU_CODEGEN_ESTIMATE_H
