//===- src/codegen/units.h - The order a group runs in --------*- C++ -*-===//
//
// A group runs as units (docs/codegen.md): one output tile x one block of
// Co output channels x one chunk of its weight rows, tile by tile, block
// by block. Each unit knows which halves of the double-buffered on-chip
// buffers it uses: the weight half alternates unit by unit, the
// feature-map half with each new input window, the param and accumulator
// halves with each (tile, output block) pair.
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

/// The units of `g` under tiling `t`, in program order.
std::vector<Unit> Units(const InnerProductGroup& g, const Tiling& t, const OpuBufferUnits& u);

}  // namespace opuc::codegen

#endif  // OPUC_SRC_CODEGEN_UNITS_H
