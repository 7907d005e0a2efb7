//===- src/cpu/arena_plan.cc - One allocation for a whole run -----===//
#include "arena_plan.h"

#include <algorithm>
#include <map>
#include <numeric>

namespace opuc::cpu {
namespace {

int64_t Aligned(int64_t bytes, int64_t alignment) {
  return (bytes + alignment - 1) / alignment * alignment;
}

bool Meet(const ArenaBuffer& a, const ArenaBuffer& b) {
  return a.first <= b.last && b.first <= a.last;
}

/// The most bytes alive at one step: a sweep over the steps where buffers
/// begin (the total only grows there).
int64_t LiveSetBound(const std::vector<ArenaBuffer>& buffers, int64_t alignment) {
  std::map<int64_t, int64_t> delta;  // step -> change of the live total
  for (const ArenaBuffer& b : buffers) {
    delta[b.first] += Aligned(b.bytes, alignment);
    delta[b.last + 1] -= Aligned(b.bytes, alignment);
  }
  int64_t live = 0, most = 0;
  for (const auto& [step, change] : delta) most = std::max(most, live += change);
  return most;
}

}  // namespace

ArenaPlan PlanArena(const std::vector<ArenaBuffer>& buffers, int64_t alignment) {
  ArenaPlan plan;
  plan.offsets.assign(buffers.size(), 0);
  plan.lower_bound = LiveSetBound(buffers, alignment);
  std::vector<size_t> order(buffers.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (buffers[a].bytes != buffers[b].bytes) return buffers[a].bytes > buffers[b].bytes;
    return buffers[a].first < buffers[b].first;
  });

  struct Placed {
    int64_t offset, end;
  };
  std::vector<size_t> placed;  // indices, in placement order
  std::vector<Placed> meets;
  for (size_t i : order) {
    const int64_t size = Aligned(buffers[i].bytes, alignment);
    meets.clear();
    for (size_t p : placed)
      if (Meet(buffers[i], buffers[p]))
        meets.push_back({plan.offsets[p], plan.offsets[p] + Aligned(buffers[p].bytes, alignment)});
    std::sort(meets.begin(), meets.end(),
              [](const Placed& a, const Placed& b) { return a.offset < b.offset; });
    // The tightest gap below, between and above the buffers it meets.
    int64_t best = -1, best_gap = 0, top = 0;
    for (const Placed& m : meets) {
      const int64_t gap = m.offset - top;
      if (gap >= size && (best < 0 || gap < best_gap)) best = top, best_gap = gap;
      top = std::max(top, m.end);
    }
    plan.offsets[i] = best >= 0 ? best : top;
    plan.arena_bytes = std::max(plan.arena_bytes, plan.offsets[i] + size);
    placed.push_back(i);
  }
  return plan;
}

}  // namespace opuc::cpu
