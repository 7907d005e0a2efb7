//===- src/opu/dram_order.cc - DRAM accesses the engines must order ---===//
#include "opuc/opu/dram_order.h"

#include <algorithm>

namespace opuc {

int64_t DramLatest::Latest(const DramSpan& span) const {
  int64_t latest = -1;
  auto it = spans_.upper_bound(span.begin);
  if (it != spans_.begin()) --it;
  for (; it != spans_.end() && it->first < span.end; ++it)
    if (it->second.end > span.begin) latest = std::max(latest, it->second.number);
  return latest;
}

void DramLatest::Mark(const DramSpan& span, int64_t number) {
  Split(span.begin);
  Split(span.end);
  spans_.erase(spans_.lower_bound(span.begin), spans_.lower_bound(span.end));
  spans_[span.begin] = {span.end, number};
}

void DramLatest::Split(int64_t at) {
  auto it = spans_.upper_bound(at);
  if (it == spans_.begin()) return;
  --it;
  if (it->first < at && at < it->second.end) {
    spans_[at] = it->second;
    it->second.end = at;
  }
}

std::optional<DramSpan> DramSpanOf(const isa::Instruction& insn, const OpuBufferUnits& units) {
  if (const auto* load = std::get_if<isa::LoadInsn>(&insn)) {
    if (load->rows == 0 || load->cols == 0) return std::nullopt;
    return DramSpan{load->dram_addr, load->dram_addr + (load->rows - 1) * load->dram_stride +
                                         load->cols * units.LoadUnitBytes(*load)};
  }
  if (const auto* store = std::get_if<isa::StoreInsn>(&insn)) {
    if (store->rows == 0 || store->cols == 0 || store->to_fm) return std::nullopt;
    return DramSpan{store->dram_addr, store->dram_addr + StoredSpan(*store, units)};
  }
  return std::nullopt;
}

std::vector<int64_t> DramPredecessors(const std::vector<isa::Instruction>& program,
                                      const OpuBufferUnits& units) {
  std::vector<int64_t> before(program.size(), -1);
  DramLatest loads, stores;
  for (size_t i = 0; i < program.size(); ++i) {
    const std::optional<DramSpan> span = DramSpanOf(program[i], units);
    if (!span || span->end <= span->begin) continue;
    const bool is_load = std::holds_alternative<isa::LoadInsn>(program[i]);
    before[i] = (is_load ? stores : loads).Latest(*span);
    (is_load ? loads : stores).Mark(*span, static_cast<int64_t>(i));
  }
  return before;
}

}  // namespace opuc
