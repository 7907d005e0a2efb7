//===- src/codegen/run_order.cc - Where a run's groups meet ------------===//
#include "run_order.h"

#include <algorithm>
#include <optional>

namespace opuc::codegen {

// The seam's tokens (RunOrder), once the next group's early loads are known.
void SettleSeam(RunOrder& order, CycleEstimate& estimate, std::vector<isa::Instruction>& program) {
  order.early = false;
  if (order.seam_gemm < 0 || order.seam_gemm == order.seam_last || order.clash == -2) return;
  isa::DepsOf(program[static_cast<size_t>(order.seam_gemm)]).push_prev = true;
  // A clashing load took the last instruction's token as NoteSeam found it.
  if (order.clash == -1)
    isa::DepsOf(program[static_cast<size_t>(order.seam_last)]).push_prev = false;
  estimate.SeamAtGemm(order.seam_unit, order.clash_unit, order.clash_load);
}

// A Fence before each of `load`'s loads that reads what a Store of the run
// before it writes, unless one before waited for that Store already.
void FenceLoads(const OpuBufferUnits& buffers, RunOrder& order, CycleEstimate& estimate,
                Batch& load) {
  for (size_t i = 0; i < load.insns.size(); ++i) {
    const std::optional<DramSpan> span = DramSpanOf(load.insns[i], buffers);
    const int64_t needs = span ? order.stores.Latest(*span) : -1;
    if (needs <= order.fenced) continue;
    isa::FenceInsn fence;
    fence.stores = needs;
    estimate.FenceBefore(i, needs);
    load.insns.insert(load.insns.begin() + static_cast<std::ptrdiff_t>(i++), fence);
    order.fenced = needs;
  }
}

void CountStores(const OpuBufferUnits& buffers, const Batch& store, RunOrder& order) {
  for (const isa::Instruction& insn : store.insns) {
    ++order.emitted;  // a Store into the feature-map buffer counts too, over no DRAM
    if (const std::optional<DramSpan> span = DramSpanOf(insn, buffers))
      order.stores.Mark(*span, order.emitted);
  }
}

void NoteUnitReads(const OpuBufferUnits& buffers, const Batch& compute, RunOrder& order) {
  if (order.recent_reads.size() == kSeamUnits) order.recent_reads.erase(order.recent_reads.begin());
  std::vector<BufferAccess>& reads = order.recent_reads.emplace_back();
  for (const isa::Instruction& insn : compute.insns)
    for (const BufferAccess& a : BufferAccessesOf(insn, buffers))
      if (!a.write) reads.push_back(a);
}

size_t SeamLoad(const OpuBufferUnits& buffers, const Batch& load, const RunOrder& order) {
  for (size_t i = 0; i + 1 < load.insns.size(); ++i)
    for (const BufferAccess& w : BufferAccessesOf(load.insns[i], buffers))
      for (const std::vector<BufferAccess>& unit : order.recent_reads)
        for (const BufferAccess& r : unit)
          if (w.write && w.Meets(r)) return i;
  return load.insns.size() - 1;
}

// What the seam needs of a unit (RunOrder): among the next group's early
// loads, from the seam's pop until one pops a token of its own group (the
// seam is settled then, or at that group's end), the first whose rows meet
// what the post stages read (at `at` in the program: a unit's loads go
// first); at the group before's last unit (`last`), where its last Gemm
// and last instruction will be and what its post stages read.
void NoteSeam(const OpuBufferUnits& buffers, bool last, Batch& load, const Batch& compute,
              int64_t at, CycleEstimate& estimate, std::vector<isa::Instruction>& program,
              RunOrder& order) {
  for (size_t i = 0; order.early && i < load.insns.size(); ++i) {
    const bool pops = isa::DepsOf(load.insns[i]).pop_next;
    if (pops && order.popped) {  // ordered after the group's own first unit from here
      SettleSeam(order, estimate, program);
      break;
    }
    order.popped = order.popped || pops;
    if (order.clash != -1) continue;
    for (const BufferAccess& w : BufferAccessesOf(load.insns[i], buffers))
      for (const BufferAccess& r : order.post_reads)
        if (w.write && w.Meets(r) && order.clash == -1) {
          // -2: the seam's own load, which then takes the one token at the
          // last instruction; any other, the second token.
          order.clash = pops ? -2 : at + static_cast<int64_t>(i);
          order.clash_unit = estimate.UnitCount() - 1;
          order.clash_load = static_cast<int64_t>(i);
          if (!pops && order.seam_gemm >= 0 && order.seam_gemm != order.seam_last)
            isa::DepsOf(load.insns[i]).pop_next = true;
        }
  }
  if (!last) return;
  if (order.early) SettleSeam(order, estimate, program);
  const int64_t first = at + static_cast<int64_t>(load.insns.size());
  order.seam_gemm = -1;
  order.post_reads.clear();
  for (size_t i = 0; i < compute.insns.size(); ++i) {
    if (std::holds_alternative<isa::GemmInsn>(compute.insns[i])) {
      order.seam_gemm = first + static_cast<int64_t>(i);
      order.post_reads.clear();
      continue;
    }
    for (const BufferAccess& a : BufferAccessesOf(compute.insns[i], buffers))
      if (!a.write) order.post_reads.push_back(a);
  }
  order.seam_last = first + static_cast<int64_t>(compute.insns.size()) - 1;
  order.seam_unit = estimate.UnitCount() - 1;
  order.early = true;
  order.popped = false;
  order.clash = order.clash_unit = order.clash_load = -1;
}

int64_t ClearParamBase(const RunOrder& order, int64_t rows, const OpuBufferUnits& buffers) {
  for (int64_t base = 0; order.early && base + rows <= buffers.param_rows; ++base) {
    const BufferAccess span{OnChip::kParam, base, rows, true};
    if (std::none_of(order.post_reads.begin(), order.post_reads.end(),
                     [&](const BufferAccess& r) { return r.Meets(span); }))
      return base;
  }
  return 0;
}

}  // namespace opuc::codegen
