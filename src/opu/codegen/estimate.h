//===- src/opu/codegen/estimate.h - Cycles a group should take ----*- C++ -*-===//
//
// A first analytical model, to be calibrated against the RTL: a load or
// store costs the DRAM latency plus its bytes at the HwConfig's bandwidth
// (converted to bytes per clock); a Gemm costs one cycle per output pixel
// (the array takes one pixel's L x Co products per cycle); the output and
// compare stages one cycle per entry. With double buffering the three
// engines overlap across units, so a unit costs the slowest of its three
// parts, and the first unit's loads and the last unit's stores do not
// overlap anything.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_OPU_CODEGEN_ESTIMATE_H
#define OPUC_SRC_OPU_CODEGEN_ESTIMATE_H

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "opuc/opu/hw_config.h"

namespace opuc::codegen {

class CycleEstimate {
 public:
  explicit CycleEstimate(const HwConfig& hw)
      : bytes_per_cycle_(std::max(1e-9, hw.dram.bandwidth_gb_per_s * 1e3 / hw.array.clock_mhz)),
        latency_(hw.dram.latency_cycles) {}

  void BeginUnit() { load_ = compute_ = store_ = 0; }
  void Load(int64_t bytes) { load_ += Transfer(bytes); }
  void Store(int64_t bytes) { store_ += Transfer(bytes); }
  void Compute(int64_t cycles) { compute_ += cycles; }
  void EndUnit() {
    if (units_++ == 0) first_load_ = load_;
    last_store_ = store_;
    overlapped_ += std::max({load_, compute_, store_});
  }
  int64_t Total() const { return first_load_ + overlapped_ + last_store_; }

 private:
  int64_t Transfer(int64_t bytes) const {
    return latency_ +
           static_cast<int64_t>(std::ceil(static_cast<double>(bytes) / bytes_per_cycle_));
  }
  double bytes_per_cycle_;
  int64_t latency_;
  int64_t load_ = 0, compute_ = 0, store_ = 0;
  int64_t units_ = 0, first_load_ = 0, last_store_ = 0, overlapped_ = 0;
};

}  // namespace opuc::codegen

#endif  // OPUC_SRC_OPU_CODEGEN_ESTIMATE_H
