//===- src/codegen/units.h - The order a group runs in --------*- C++ -*-===//
//
// A group runs as units (docs/codegen.md): one output tile x one block of
// Co output channels x one chunk of its weight rows, tile by tile, block
// by block. Each unit knows which parts of the on-chip buffers it uses:
// the weight slot turns unit by unit and the param slot with each (tile,
// output block) pair, over Tiling::slots of them (two or more); the
// feature-map half alternates with each new input window, the accumulator
// region with each pair.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_CODEGEN_UNITS_H
#define OPUC_SRC_CODEGEN_UNITS_H

#include <cstdint>
#include <vector>

#include "constants.h"

namespace opuc::codegen {

struct Unit {
  Span row, col;            // output tile (spans.h): its first pixels and sizes
  int64_t ob;               // output block
  int64_t first_row, rows;  // weight chunk, within the output block
  int64_t pair;             // (tile, output block) index
  int64_t window;           // input window index (feature-map half)
  bool new_window, first_chunk, last_chunk;
  int64_t in_block;  // depthwise: the input block
};

/// The weight rows unit `unit`'s Gemms take: its chunk's, or none where
/// its block is a block pair's second (the first's Gemm takes both blocks,
/// their taps in its weight row: Tiling::SecondOfPair).
inline int64_t GemmRows(const Tiling& t, const Unit& unit) {
  return t.SecondOfPair(unit.pair) ? 0 : unit.rows;
}

/// The units of `g` under tiling `t`, in program order.
std::vector<Unit> Units(const InnerProductGroup& g, const Tiling& t, const OpuBufferUnits& u);

/// How many units deep the weight and param buffers rotate (Tiling::slots),
/// at most `most`: unit i's chunk takes weight slot i % slots and pair p's
/// row param slot p % slots, and unit i's loads wait for unit i − slots'
/// token. So every slot must hold a chunk and a row (unless the weights or
/// the params are resident, Tiling::params_resident), and the Tiling::fm_slots
/// − 1 windows before a new one must span slots − 1 units or more (that
/// token must prove the window fm_slots before done: its feature-map slot is
/// the new one's). Residual tiles loaded per pair take their unit's
/// feature-map half: two.
int64_t UnitSlots(const InnerProductGroup& g, const Tiling& t, const std::vector<Unit>& units,
                  const OpuBufferUnits& u, int64_t most);

}  // namespace opuc::codegen

#endif  // OPUC_SRC_CODEGEN_UNITS_H
