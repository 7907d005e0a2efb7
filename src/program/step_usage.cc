//===- src/program/step_usage.cc - What an OPU step uses ------------------===//
//
// The same extents the functional simulator's engines write (src/fsim/):
// a load fills LoadedUnits (its rows and units, the zeros between and the
// frame) from sram_addr and reads rows × cols units of DRAM; a store writes
// StoredBytes in StoreBeatBytes of whole beats (to_fm: feature-map rows, from
// dram_addr / L); a Gemm writes out_rows × out_cols
// accumulator entries from acc_addr, a Pool as many from dst_addr (the
// other compute instructions rewrite entries these made).
//
//===----------------------------------------------------------------------===//
#include "opuc/program/step_usage.h"

#include <algorithm>
#include <variant>

#include "opuc/opu/buffer_units.h"
#include "support/format.h"

namespace opuc {

Expected<StepUsage> UsageOfStep(const Program& program, const ProgramStep& step) {
  StepUsage use;
  if (step.kind != StepKind::kOpu) return use;
  const OpuBufferUnits units = BufferUnits(program.hw());
  for (size_t i = 0; i < step.word_count; ++i) {
    Expected<isa::Instruction> insn = isa::Decode(step.word(i));
    if (!insn.ok()) return insn.status().WithContext(Cat("word ", i));
    if (const auto* load = std::get_if<isa::LoadInsn>(&*insn)) {
      use.bytes_loaded += load->rows * load->cols * units.LoadUnitBytes(*load);
      const int64_t end = load->sram_addr + LoadedUnits(*load);
      int64_t& high = load->buffer == isa::LoadInsn::kFeatureMap ? use.fm_rows
                      : load->buffer == isa::LoadInsn::kWeights  ? use.weight_rows
                                                                 : use.param_rows;
      high = std::max(high, end);
    } else if (const auto* store = std::get_if<isa::StoreInsn>(&*insn)) {
      use.bytes_stored += StoredBytes(*store, units);
      use.store_beat_bytes += StoreBeatBytes(*store, units);
      if (store->to_fm)  // the feature-map rows it writes
        use.fm_rows =
            std::max(use.fm_rows, (store->dram_addr + StoredSpan(*store, units) + units.lanes - 1) /
                                      units.lanes);
    } else if (const auto* gemm = std::get_if<isa::GemmInsn>(&*insn)) {
      use.acc_entries = std::max(use.acc_entries, gemm->acc_addr + gemm->out_rows * gemm->out_cols);
    } else if (const auto* pool = std::get_if<isa::PoolInsn>(&*insn)) {
      use.acc_entries = std::max(use.acc_entries, pool->dst_addr + pool->out_rows * pool->out_cols);
    }
  }
  return use;
}

}  // namespace opuc
