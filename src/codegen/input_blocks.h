//===- src/codegen/input_blocks.h - Where the input blocks come from -*- C++ -*-===//
//
// On chip the input is read as blocks of L lanes. A group's input is one
// tensor, or with concat at memory read the concat's inputs side by side
// (`InnerProductGroup::pieces`): each piece's channels start a new block, so
// a load never splits a DRAM pixel and the concat costs no copy. A piece
// whose channels do not fill its last block leaves lanes that the weights
// zero; the blocks then hold more lanes than the input has channels.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_CODEGEN_INPUT_BLOCKS_H
#define OPUC_SRC_CODEGEN_INPUT_BLOCKS_H

#include <cstdint>
#include <vector>

#include "inner_product_group.h"

namespace opuc::codegen {

/// One input block: its lanes [0, lanes) hold the input's channels
/// [first_channel, first_channel + lanes), read from block `block` of piece
/// `piece` (0 without a concat).
struct InputBlockSource {
  size_t piece = 0;
  int64_t block = 0, first_channel = 0, lanes = 0;
};

/// The input's blocks of `L` lanes, in order.
std::vector<InputBlockSource> InputBlockSources(const InnerProductGroup& g, int64_t L);

/// Whether every input block is a block of the whole input's channels
/// (lane l of block b is channel b·L + l): always without a concat, and with
/// one whose pieces, but the last, fill whole blocks.
bool InputBlocksLineUp(const InnerProductGroup& g, int64_t L);

/// A depthwise product (or the identity pass) reads, for each block of
/// output channels, the one input block holding the same channels: only
/// when the blocks line up. Otherwise it runs as a dense product whose
/// weights are zero off the diagonal (`InnerProductGroup::diagonal`).
void LineUpInputBlocks(InnerProductGroup& g, int64_t L);

}  // namespace opuc::codegen

#endif  // OPUC_SRC_CODEGEN_INPUT_BLOCKS_H
