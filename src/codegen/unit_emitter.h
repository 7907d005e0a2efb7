//===- src/codegen/unit_emitter.h - A unit's instructions -----*- C++ -*-===//
//
// What emit.cc (the units, their tokens, the compute engine's part) and
// unit_transfers.cc (the load and store engines' parts) share: a batch of
// one engine's instructions, the group being emitted and where a unit's
// buffers lie.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_CODEGEN_UNIT_EMITTER_H
#define OPUC_SRC_CODEGEN_UNIT_EMITTER_H

#include <cstdint>
#include <utility>
#include <vector>

#include "emit.h"
#include "line_carry.h"
#include "opuc/isa/isa.h"
#include "opuc/opu/buffer_units.h"
#include "units.h"

namespace opuc::codegen {

// Collects one engine's instructions of a unit, then sets the tokens of the
// first and last.
struct Batch {
  std::vector<isa::Instruction> insns;
  void Add(isa::Instruction insn) { insns.push_back(std::move(insn)); }
  isa::Deps& First() { return isa::DepsOf(insns.front()); }
  isa::Deps& Last() { return isa::DepsOf(insns.back()); }
};

// What every unit's instructions are made from.
struct GroupEmitter {
  const InnerProductGroup& group;
  const Tiling& tiling;
  const OpuBufferUnits buffers;
  const int64_t depthwise_line;  // the window's line buffers' columns (ipa.depthwise_line)
  const ConstantPlacement& constants;
  const GroupLayouts& layouts;
  CycleEstimate& estimate;
  LineCarry& line_carry;  // the depthwise Gemms' line slots, tile to tile
};

// The buffer slots a unit uses (the file comment says which alternate
// when) and its input window.
struct UnitPlace {
  int64_t index = 0;  ///< The unit's, in program order.
  int64_t in_rows = 0, in_cols = 0;
  int64_t fm_base = 0, weight_base = 0, param_row = 0, acc_base = 0;
  /// The residual tiles of the (tile, output block) pair, in the rows
  /// after the window of feature-map half index % 2 (freed like the weights').
  int64_t residual_base = 0;
};

/// Where lane block `lane_block`'s residual tiles start when kept with the
/// window at `fm_base`: after the window, a slot of every residual's tiles.
int64_t WindowResidualBase(const GroupEmitter& e, int64_t fm_base, int64_t lane_block);

/// The load engine's part of a unit (unit_transfers.cc); the first load
/// into a slot the unit Tiling::slots before used pops its token, a new
/// window's loads going before it when its half is already proven free.
/// A new window's first `carried_rows` rows, which every Gemm reading it
/// takes from its line slot (line_carry.h), are not loaded.
Batch EmitLoads(const GroupEmitter& e, const Unit& unit, const UnitPlace& place, bool window_free,
                int64_t carried_rows = 0);

/// The store engine's part of a pair's last chunk (unit_transfers.cc).
Batch EmitStores(const GroupEmitter& e, const Unit& unit, const UnitPlace& place,
                 int64_t pair_count);

/// Where the pool of `unit`'s tile puts its entries (PostTile's pool_*).
void PlacePool(const InnerProductGroup& group, const Tiling& tiling, const Unit& unit,
               int64_t acc_base, PostTile& tile);

}  // namespace opuc::codegen

#endif  // OPUC_SRC_CODEGEN_UNIT_EMITTER_H
