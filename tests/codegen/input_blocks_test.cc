// Concat at memory read: which piece and block each input block reads, and
// when a depthwise product must run as a dense one; worked out by hand for
// L = 8 (tiny's lanes).
#include <doctest/doctest.h>

#include "input_blocks.h"

namespace opuc::codegen {
namespace {

InnerProductGroup Concat(std::vector<int64_t> channels, bool depthwise) {
  InnerProductGroup g;
  g.in_c = 0;
  for (size_t k = 0; k < channels.size(); ++k) {
    g.pieces.push_back({static_cast<TensorId>(k), channels[k]});
    g.in_c += channels[k];
  }
  g.out_c = g.in_c;
  g.depthwise = depthwise;
  return g;
}

// (piece, block, first channel, lanes) of each block.
std::vector<std::vector<int64_t>> Sources(const InnerProductGroup& g) {
  std::vector<std::vector<int64_t>> out;
  for (const InputBlockSource& s : InputBlockSources(g, 8))
    out.push_back({static_cast<int64_t>(s.piece), s.block, s.first_channel, s.lanes});
  return out;
}

TEST_CASE("each piece starts a new block, a short last block leaves lanes unread") {
  // 5 + 19 channels: 5 in block 0, then 8, 8, 3 of the second piece.
  CHECK(
      Sources(Concat({5, 19}, false)) ==
      std::vector<std::vector<int64_t>>{{0, 0, 0, 5}, {1, 0, 5, 8}, {1, 1, 13, 8}, {1, 2, 21, 3}});
  // Without a concat: the input's own blocks.
  InnerProductGroup plain;
  plain.in_c = 10;
  CHECK(Sources(plain) == std::vector<std::vector<int64_t>>{{0, 0, 0, 8}, {0, 1, 8, 2}});
}

TEST_CASE("a depthwise product stays one when the pieces fill whole blocks") {
  InnerProductGroup whole = Concat({16, 3}, true);  // blocks 0, 1 of piece 0, block 0 of piece 1
  CHECK(InputBlocksLineUp(whole, 8));
  LineUpInputBlocks(whole, 8);
  CHECK(whole.depthwise);
  CHECK_FALSE(whole.diagonal);

  InnerProductGroup cut = Concat({3, 16}, true);  // channel 3 is lane 0 of block 1, not lane 3
  CHECK_FALSE(InputBlocksLineUp(cut, 8));
  LineUpInputBlocks(cut, 8);
  CHECK_FALSE(cut.depthwise);
  CHECK(cut.diagonal);
  // Run dense, output channel 4 weighs only input channel 4 (identity: 1).
  cut.identity = true;
  CHECK(cut.Weight(4, 0, 0, 4) == 1);
  CHECK(cut.Weight(4, 0, 0, 3) == 0);
  CHECK(cut.Weight(4, 0, 0, 5) == 0);
}

}  // namespace
}  // namespace opuc::codegen
