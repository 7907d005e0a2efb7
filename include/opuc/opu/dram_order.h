//===- opuc/opu/dram_order.h - DRAM accesses the engines must order -*- C++ -*-===//
//
// A program of several groups (docs/codegen.md, "Runs") loads what its own
// Stores wrote: the load engine runs ahead of the store engine, so such a
// Load must be ordered after the Store by a Fence or a chain of tokens,
// and a Store that overwrites what an earlier Load reads after that Load.
// For each Load and Store this finds the latest instruction before it in
// program order, on the other of the two engines, whose DRAM bytes meet
// its own: ordering after that one orders after every earlier one (each
// engine runs in order).
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_OPU_DRAM_ORDER_H
#define OPUC_OPU_DRAM_ORDER_H

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "opuc/isa/isa.h"
#include "opuc/opu/buffer_units.h"

namespace opuc {

/// DRAM bytes [begin, end) an instruction reads (a Load) or writes (a Store
/// to DRAM), from its first byte to its last.
struct DramSpan {
  int64_t begin = 0, end = 0;
};
std::optional<DramSpan> DramSpanOf(const isa::Instruction& insn, const OpuBufferUnits& units);

/// The latest of a sequence of accesses to touch DRAM bytes: each marks
/// its span with its number (later ones larger).
class DramLatest {
 public:
  /// The largest number marked over `span`'s bytes, or -1.
  int64_t Latest(const DramSpan& span) const;
  void Mark(const DramSpan& span, int64_t number);

 private:
  struct Marked {
    int64_t end, number;
  };
  void Split(int64_t at);            // cuts the interval holding `at` inside in two there
  std::map<int64_t, Marked> spans_;  // disjoint, by first byte
};

/// For each instruction of `program`, in order: the index of the latest
/// earlier Store whose span meets a Load's, or the latest earlier Load
/// whose span meets a Store's; -1 for none and for every other instruction.
std::vector<int64_t> DramPredecessors(const std::vector<isa::Instruction>& program,
                                      const OpuBufferUnits& units);

}  // namespace opuc

#endif  // OPUC_OPU_DRAM_ORDER_H
