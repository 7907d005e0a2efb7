//===- src/opu/hdfg.cc - Module names, FindMatch --------------------------===//
#include "opuc/opu/hdfg.h"

#include <deque>

namespace opuc {
namespace {

constexpr std::string_view kModuleNames[kNumHwModules] = {
    "mem_rd", "adder", "multiplier", "pad", "ipa", "comparator", "pool", "res_adder", "upsample"};

bool Satisfies(const Hdfg& hdfg, int32_t stage, const StageRequest& request) {
  const HdfgStage& s = hdfg.stages[static_cast<size_t>(stage)];
  if ((request.modules & ModuleBit(s.module)) == 0) return false;
  if (request.feeds == 0) return true;
  for (int32_t next : s.successors)
    if (request.feeds & ModuleBit(hdfg.stages[static_cast<size_t>(next)].module)) return true;
  return false;
}

}  // namespace

std::string_view HwModuleName(HwModule module) {
  const auto index = static_cast<size_t>(module);
  return index < kNumHwModules ? kModuleNames[index] : "<bad module>";
}

std::optional<HwModule> HwModuleFromName(std::string_view name) {
  for (int i = 0; i < kNumHwModules; ++i)
    if (kModuleNames[i] == name) return static_cast<HwModule>(i);
  return std::nullopt;
}

int32_t Hdfg::Find(std::string_view name) const {
  for (size_t i = 0; i < stages.size(); ++i)
    if (stages[i].name == name) return static_cast<int32_t>(i);
  return -1;
}

bool Hdfg::Link(std::string_view from, std::string_view to) {
  const int32_t a = Find(from), b = Find(to);
  if (a < 0 || b < 0) return false;
  stages[static_cast<size_t>(a)].successors.push_back(b);
  return true;
}

int32_t FindMatch(const Hdfg& hdfg, int32_t last_match, const StageRequest& request) {
  const auto n = static_cast<int32_t>(hdfg.stages.size());
  if (n == 0 || hdfg.root < 0 || hdfg.root >= n) return -1;
  std::vector<bool> visited(static_cast<size_t>(n), false);
  std::deque<int32_t> queue;
  if (last_match < 0 || last_match >= n) {
    queue.push_back(hdfg.root);
  } else {
    // The last matched stage itself is never re-entered: no unit twice in a row.
    visited[static_cast<size_t>(last_match)] = true;
    for (int32_t next : hdfg.stages[static_cast<size_t>(last_match)].successors)
      queue.push_back(next);
  }
  while (!queue.empty()) {
    const int32_t stage = queue.front();
    queue.pop_front();
    if (stage < 0 || stage >= n || visited[static_cast<size_t>(stage)]) continue;
    visited[static_cast<size_t>(stage)] = true;
    if (Satisfies(hdfg, stage, request)) return stage;
    for (int32_t next : hdfg.stages[static_cast<size_t>(stage)].successors)
      if (next >= 0 && next < n && !visited[static_cast<size_t>(next)]) queue.push_back(next);
  }
  return -1;
}

bool OnCycle(const Hdfg& hdfg, int32_t stage) {
  const auto n = static_cast<int32_t>(hdfg.stages.size());
  if (stage < 0 || stage >= n) return false;
  std::vector<bool> seen(static_cast<size_t>(n), false);
  std::vector<int32_t> stack = hdfg.stages[static_cast<size_t>(stage)].successors;
  while (!stack.empty()) {
    const int32_t s = stack.back();
    stack.pop_back();
    if (s < 0 || s >= n || seen[static_cast<size_t>(s)]) continue;
    if (s == stage) return true;
    seen[static_cast<size_t>(s)] = true;
    for (int32_t next : hdfg.stages[static_cast<size_t>(s)].successors) stack.push_back(next);
  }
  return false;
}

}  // namespace opuc
