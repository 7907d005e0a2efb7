//===- sim/dram_model.h - DRAM as the RTL sees it -----------------*- C++ -*-===//
//
// The harness's DRAM: the program's DRAM image behind the RTL's read port
// (one beat per request, responses in order after `latency_cycles`, each
// held until the RTL takes it) and
// write port (an aligned beat of L bytes with a byte mask: the store
// engine packs a compact map's pixels into one), sharing the HwConfig's bandwidth. A
// transfer costs the DRAM words it touches (an unaligned beat touches two),
// paid from a budget that grows by bandwidth / clock bytes a cycle. An
// address outside the image is an error naming the port and the byte; the
// image's bytes from `writable` on (the program's words) are read-only.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SIM_DRAM_MODEL_H
#define OPUC_SIM_DRAM_MODEL_H

#include <cstdint>
#include <deque>
#include <vector>

#include "opuc/opu/hw_config.h"
#include "opuc/status.h"

namespace opuc::rtl {

struct DramStats {
  int64_t reads = 0;   ///< Beats read.
  int64_t writes = 0;  ///< Writes (beats, a mask of their bytes).
  int64_t words = 0;   ///< DRAM words the transfers touched.
};

class DramModel {
 public:
  DramModel(const HwConfig& hw, std::vector<uint8_t>& image, int64_t beat_bytes,
            int64_t writable = -1);

  /// Called once a cycle, before the RTL's outputs are looked at.
  void Tick();
  /// A transfer may start while the budget is positive; its cost may take
  /// the budget below zero, which later cycles repay.
  bool CanTransfer() const { return budget_ > 0; }
  /// Takes a read request of one beat at `addr`.
  Status Read(uint64_t addr, int64_t now);
  /// The oldest response, when its latency has passed.
  const uint8_t* Response(int64_t now) const;
  void PopResponse() { responses_.pop_front(); }
  /// Writes the bytes of `data` whose `mask` bit is set, from `addr` on.
  Status Write(uint64_t addr, const uint8_t* data, const std::vector<bool>& mask);
  /// A response is on its way (its latency has not passed): the RTL may
  /// look idle meanwhile. One that has arrived and waits is not.
  bool Answering(int64_t now) const {
    return !responses_.empty() && responses_.front().ready > now;
  }
  const DramStats& stats() const { return stats_; }

 private:
  int64_t WordsTouched(uint64_t addr, int64_t bytes) const;

  struct Pending {
    int64_t ready;
    std::vector<uint8_t> data;
  };
  std::vector<uint8_t>& image_;
  int64_t beat_bytes_;
  uint64_t writable_;
  int64_t word_bytes_;
  int64_t latency_;
  double bytes_per_cycle_;
  double budget_ = 0;
  std::deque<Pending> responses_;
  DramStats stats_;
};

}  // namespace opuc::rtl

#endif  // OPUC_SIM_DRAM_MODEL_H
