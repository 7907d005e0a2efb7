//===- src/cpu/arena_plan.h - One allocation for a whole run -*- C++ -*-===//
//
// Places buffers with known live ranges in one arena so that buffers alive
// at the same time never share a byte, as TFLite's arena planner does:
// largest first, each at the offset of the tightest gap that holds it among
// the buffers already placed whose lifetimes meet its own (the end of the
// highest when no gap does). The lower bound on any placement is the
// largest total of buffers alive at one time; the plan reports both.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_CPU_ARENA_PLAN_H
#define OPUC_SRC_CPU_ARENA_PLAN_H

#include <cstdint>
#include <vector>

namespace opuc::cpu {

/// A buffer of `bytes`, alive from step `first` to step `last` (inclusive).
struct ArenaBuffer {
  int64_t bytes = 0;
  int64_t first = 0, last = 0;
};

struct ArenaPlan {
  std::vector<int64_t> offsets;  ///< One per buffer, multiples of the alignment.
  int64_t arena_bytes = 0;       ///< The end of the highest buffer.
  int64_t lower_bound = 0;       ///< The most bytes (aligned) alive at one step.
};

/// Every size is rounded up to `alignment` (a power of two).
ArenaPlan PlanArena(const std::vector<ArenaBuffer>& buffers, int64_t alignment = 64);

}  // namespace opuc::cpu

#endif  // OPUC_SRC_CPU_ARENA_PLAN_H
