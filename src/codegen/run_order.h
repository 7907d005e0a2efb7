//===- src/codegen/run_order.h - Where a run's groups meet -----*- C++ -*-===//
//
// What emit.cc keeps while it emits a run's groups into one program
// (docs/codegen.md, "Runs"): the Stores so far, so that a load of what one
// wrote waits for it behind a Fence; and the seam between two groups, so
// that the next group's first loads wait for the group before's last Gemm
// where they write nothing its last post stages still read.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_CODEGEN_RUN_ORDER_H
#define OPUC_SRC_CODEGEN_RUN_ORDER_H

#include <vector>

#include "estimate.h"
#include "opuc/opu/buffer_access.h"
#include "opuc/opu/dram_order.h"
#include "unit_emitter.h"

namespace opuc::codegen {

// The DRAM order of a run so far (docs/codegen.md, "Runs"): each Store
// emitted, by its number from 1, over the bytes it writes, and the stores
// the last Fence waited for.
struct RunOrder {
  DramLatest stores;
  int64_t emitted = 0, fenced = 0;
  // The seam (docs/codegen.md, "Runs"): the group before's last unit gives
  // the next group's seam load (SeamLoad) its token at its last Gemm, and the first
  // of the next group's early loads (those no token of its own group
  // orders) that writes a row that unit's post stages read a second token
  // at its last instruction; or, where that is the seam load, one token
  // there. Where the Gemm and the last instruction are in the program, the
  // unit's estimate, what its post stages read; the first such load, by
  // program index and by estimate unit and load.
  int64_t seam_gemm = -1, seam_last = -1, seam_unit = -1;
  std::vector<BufferAccess> post_reads;
  int64_t clash = -1, clash_unit = -1, clash_load = -1;
  bool early = false, popped = false;  // among the early loads; the seam's pop seen
  // The rows the compute instructions of the last kSeamUnits units read,
  // the latest last: those the next group's first loads may not write
  // before the seam's token.
  std::vector<std::vector<BufferAccess>> recent_reads;
};

/// The units of the group before a seam whose compute may still run when
/// the next group's first load issues: units are at most four deep, and a
/// unit's token proves the one before it done (FreesAtGemm) too.
inline constexpr size_t kSeamUnits = 5;

/// A Fence before each of `load`'s loads that reads what a Store of the
/// run before it writes, unless one before waited for that Store already.
void FenceLoads(const OpuBufferUnits& buffers, RunOrder& order, CycleEstimate& estimate,
                Batch& load);

/// Notes the rows `compute`'s instructions read, as the latest unit's.
void NoteUnitReads(const OpuBufferUnits& buffers, const Batch& compute, RunOrder& order);

/// Which of a group's first unit's loads takes the seam's token: the first
/// that writes a row the group before's last units read (RunOrder), so
/// that those before it (a window's rows in a slot the group before left)
/// go as soon as their Fence passes; the last where none does.
size_t SeamLoad(const OpuBufferUnits& buffers, const Batch& load, const RunOrder& order);

/// Counts `store`'s Stores and the bytes each writes.
void CountStores(const OpuBufferUnits& buffers, const Batch& store, RunOrder& order);

/// What the seam needs of a unit whose loads and compute instructions go
/// into `program` from `at` (RunOrder); `last`: the group's last unit with
/// a group after it.
void NoteSeam(const OpuBufferUnits& buffers, bool last, Batch& load, const Batch& compute,
              int64_t at, CycleEstimate& estimate, std::vector<isa::Instruction>& program,
              RunOrder& order);

/// The seam's tokens, once the next group's early loads are known (at the
/// run's end for its last seam).
void SettleSeam(RunOrder& order, CycleEstimate& estimate, std::vector<isa::Instruction>& program);

/// The first param row from which `rows` resident rows keep clear of what
/// the group before's last post stages read (0 where none does, or where
/// no group comes before).
int64_t ClearParamBase(const RunOrder& order, int64_t rows, const OpuBufferUnits& buffers);

}  // namespace opuc::codegen

#endif  // OPUC_SRC_CODEGEN_RUN_ORDER_H
