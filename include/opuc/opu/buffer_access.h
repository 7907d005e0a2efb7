//===- opuc/opu/buffer_access.h - The on-chip rows an instruction touches -*- C++ -*-===//
//
// Which rows of the feature-map, weight and param buffers and which
// accumulator entries an instruction reads and writes: what the functional
// simulator's hazard checks order (src/fsim/hazards.h), and what codegen
// weighs where two groups meet in one program (docs/codegen.md, "Runs").
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_OPU_BUFFER_ACCESS_H
#define OPUC_OPU_BUFFER_ACCESS_H

#include <cstdint>
#include <vector>

#include "opuc/isa/isa.h"
#include "opuc/opu/buffer_units.h"

namespace opuc {

enum class OnChip : uint8_t { kFeatureMap, kWeight, kParam, kAccumulator };
inline constexpr int kNumOnChipBuffers = 4;

/// Rows [first, first + count) of one buffer, read or written.
struct BufferAccess {
  OnChip buffer;
  int64_t first = 0, count = 0;
  bool write = false;
  /// Whether the two touch a row in common.
  bool Meets(const BufferAccess& o) const {
    return buffer == o.buffer && first < o.first + o.count && o.first < first + count;
  }
};

/// The rows `insn` reads and writes, once its own range checks have
/// passed (empty where it touches nothing). Read-modify-write counts as a
/// write; within an engine the order is the program's.
std::vector<BufferAccess> BufferAccessesOf(const isa::Instruction& insn,
                                           const OpuBufferUnits& units);

}  // namespace opuc

#endif  // OPUC_OPU_BUFFER_ACCESS_H
