// ChooseTiling on `tiny` (feature-map half 512 rows, accumulator half 170
// entries, weight half 128 rows), with tiles and messages worked out by hand.
#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <vector>

#include "tiling.h"
#include "tiling_search.h"

namespace opuc::codegen {
namespace {

InnerProductGroup Conv(int64_t k, int64_t in_c, int64_t out_hw, DType in_format) {
  InnerProductGroup g;
  g.what = "node 3 'conv' (conv2d)";
  g.kh = g.kw = k;
  g.in_c = in_c;
  g.out_c = 4;
  g.in_h = g.in_w = g.out_h = g.out_w = out_hw;
  g.in_format = in_format;
  return g;
}

const OpuBufferUnits kTiny = BufferUnits(*HwConfigPreset("tiny"));

TEST_CASE("the fewest tiles: 20x20 outputs of a 1x1 conv in 170-entry halves") {
  // 400 pixels need at least 3 tiles; only full rows (tw = 20) give 3: th = 8.
  Expected<Tiling> t = ChooseTiling(Conv(1, 8, 20, DType::kI8), kTiny);
  REQUIRE(t.ok());
  CHECK(t->tile_h == 8);
  CHECK(t->tile_w == 20);
  CHECK(t->chunk_rows == 1);
}

TEST_CASE("taller tilings: the fewest tiles cut into 2, 3, 4, 6, 8 ... times the rows") {
  // 3 rows of tiles (8, 8, 4 rows of 20): 6 rows of tiles want 4 rows each
  // (5 tiles), 9 want 3 (7), 12 want 2 (10), 18 want 2 again (skipped),
  // 24 want 1 (20 tiles, the last).
  const InnerProductGroup g = Conv(1, 8, 20, DType::kI8);
  Expected<Tiling> fewest = ChooseTiling(g, kTiny);
  REQUIRE(fewest.ok());
  std::vector<int64_t> heights, tiles;
  for (const Tiling& t : TallerTilings(g, *fewest)) {
    heights.push_back(t.tile_h);
    tiles.push_back(static_cast<int64_t>(t.rows.size() * t.cols.size()));
    CHECK(t.tile_w == 20);
  }
  CHECK(heights == std::vector<int64_t>{8, 4, 3, 2, 1});
  CHECK(tiles == std::vector<int64_t>{3, 5, 7, 10, 20});
}

TEST_CASE("tapered tilings: a shorter first tile, and a shorter last one") {
  // The fewest tiles of the 20 rows above are 8 high (8, 8, 4). The first
  // tile takes 4, 2 or 1 rows, the last none more, 4, 2 or 1, the rows
  // between 8 at most: head 4 and tail 2 is 4, 8, then the 6 rows left
  // before the tail's 2. Head 2 with tail 2 is head 2 alone (2, 8, 8, 2),
  // kept once.
  const InnerProductGroup g = Conv(1, 8, 20, DType::kI8);
  Expected<Tiling> fewest = ChooseTiling(g, kTiny);
  REQUIRE(fewest.ok());
  std::vector<std::vector<int64_t>> sizes;
  for (const Tiling& t : TaperedTilings(g, *fewest)) {
    CHECK(t.tapered);
    CHECK(t.tile_h == 8);
    std::vector<int64_t> rows;
    int64_t next = 0;
    for (const Span& r : t.rows) {
      CHECK(r.first == next);
      CHECK(r.kept == r.size);
      next += r.size;
      rows.push_back(r.size);
    }
    CHECK(next == 20);
    sizes.push_back(rows);
  }
  const std::vector<std::vector<int64_t>> want{
      {4, 8, 8},       {4, 8, 4, 4}, {4, 8, 6, 2}, {4, 8, 7, 1},    {2, 8, 8, 2},   {2, 8, 6, 4},
      {2, 8, 8, 1, 1}, {1, 8, 8, 3}, {1, 8, 7, 4}, {1, 8, 8, 1, 2}, {1, 8, 8, 2, 1}};
  CHECK(sizes == want);
  CHECK(fewest->Text(g).find("the first") == std::string::npos);
  CHECK(TaperedTilings(g, *fewest)[2].Text(g).find("tile 8x20 (the first 4 row(s), the last 2) of "
                                                   "20x20") == 0);
  // A windowed pool lays its rows out by its windows: none.
  InnerProductGroup pooled = g;
  pooled.pool = PoolStep{};
  pooled.pool->kh = pooled.pool->kw = pooled.pool->sy = pooled.pool->sx = 2;
  CHECK(TaperedTilings(pooled, *fewest).empty());
}

TEST_CASE("feature-map quarters: a window and its residual tiles in 256 of tiny's 1024 rows") {
  // The fewest tiles of a 1x1 conv over 20x20 are 8x20: a window of 160
  // rows, which fits a quarter (256 rows), over accumulator halves or
  // quarters alike. A residual tile kept per window adds 160 rows:
  // 320 do not fit. Loaded per pair it would take its unit's half; a
  // first layer's pixel pairs keep halves too.
  InnerProductGroup g = Conv(1, 8, 20, DType::kI8);
  Expected<Tiling> fewest = ChooseTiling(g, kTiny);
  REQUIRE(fewest.ok());
  CHECK(fewest->fm_slot_rows == 512);
  std::optional<Tiling> halves = FmQuarters(g, *fewest, kTiny);  // two accumulator regions
  REQUIRE(halves);
  CHECK(halves->fm_slots == 4);
  CHECK(halves->acc_regions == fewest->acc_regions);
  Tiling four = *fewest;
  four.acc_regions = 4;
  std::optional<Tiling> q = FmQuarters(g, four, kTiny);
  REQUIRE(q);
  CHECK(q->fm_slots == 4);
  CHECK(q->fm_slot_rows == 256);
  CHECK(q->table_row == fewest->table_row);
  CHECK(q->Text(g).find("windows 4 deep") != std::string::npos);
  g.residuals.push_back(ResidualStep{});
  g.residuals.back().channels = 4;
  Expected<Tiling> kept = ChooseTiling(g, kTiny, /*residual_per_window=*/true);
  REQUIRE(kept.ok());
  Tiling kept_four = *kept;
  kept_four.acc_regions = 4;
  CHECK(kept_four.tile_h * kept_four.tile_w * 2 > 256);
  CHECK(!FmQuarters(g, kept_four, kTiny));
  CHECK(!FmQuarters(g, four, kTiny));  // the residual per pair
  g.residuals.clear();
  g.pairs = InnerProductGroup::PixelPairs{};
  CHECK(!FmQuarters(g, four, kTiny));
}

TEST_CASE("residual tiles kept per window take a slot per block of L output channels") {
  // 20 output channels on tiny (L = 8): 3 lane blocks, so with the
  // residual kept per window a pixel takes 1 input row + 3 residual rows,
  // and 512 rows hold 128 pixels: 4 tiles at least, 11x11 the largest of
  // four (6x20 holds 120 pixels, 11x11 121). Loaded per pair,
  // a pixel takes 2 rows and the accumulator's 170 entries bound the tile:
  // 8 rows of 20 (3 tiles).
  InnerProductGroup g = Conv(1, 8, 20, DType::kI8);
  g.out_c = 20;
  g.residuals.push_back(ResidualStep{});
  g.residuals.back().channels = 20;
  Expected<Tiling> per_pair = ChooseTiling(g, kTiny);
  Expected<Tiling> kept = ChooseTiling(g, kTiny, /*residual_per_window=*/true);
  REQUIRE(per_pair.ok());
  REQUIRE(kept.ok());
  CHECK(per_pair->residual_slots == 1);
  CHECK(per_pair->tile_h == 8);
  CHECK(kept->residual_per_window);
  CHECK(kept->residual_slots == 3);
  CHECK(kept->tile_h == 11);
  CHECK(kept->tile_w == 11);
  CHECK(kept->rows.size() * kept->cols.size() == 4);
  CHECK(kept->residual_row == 11 * 11);  // after the window's one row a pixel
}

TEST_CASE("weight rows beyond half the buffer come in chunks") {
  // 7x7 taps x 5 input blocks of 8 = 245 rows; a half holds 128.
  Expected<Tiling> t = ChooseTiling(Conv(7, 37, 4, DType::kI8), kTiny);
  REQUIRE(t.ok());
  CHECK(t->rows_per_out_block == 245);
  CHECK(t->chunk_rows == 128);
  // The window of one 4x4 tile: 10x10 pixels x 5 blocks = 500 rows <= 512.
  CHECK(t->tile_h == 4);
  CHECK(t->tile_w == 4);
}

TEST_CASE("a layer whose one output pixel does not fit says which buffer and by how much") {
  // 5x5 window x 12 input blocks x 2 planes (i16) = 600 rows > 512.
  Expected<Tiling> t = ChooseTiling(Conv(5, 96, 10, DType::kI16), kTiny);
  REQUIRE_FALSE(t.ok());
  CHECK(t.status().message() ==
        "node 3 'conv' (conv2d): one output pixel reads 600 feature-map rows (5x5 window, 12 "
        "input block(s), 2 plane(s)); half the buffer holds 512: 88 too many");
}

InnerProductGroup Pooled(InnerProductGroup g) {
  g.pool = PoolStep{};
  g.pool->kh = g.pool->kw = g.pool->sy = g.pool->sx = 2;
  g.pool->out_h = g.out_h / 2;
  g.pool->out_w = g.out_w / 2;
  return g;
}

TEST_CASE("with a 2x2 pool, tiles of whole windows and room for the pooled entries") {
  // th x 20 + (th / 2) x 10 <= 170 gives th = 6 (4 tiles); 10-wide tiles
  // also need 4 (th = 12: 120 + 30 entries) with the same area, and the
  // first found, the widest, stays.
  Expected<Tiling> t = ChooseTiling(Pooled(Conv(1, 8, 20, DType::kI8)), kTiny);
  REQUIRE(t.ok());
  CHECK(t->tile_h == 6);
  CHECK(t->tile_w == 20);
  // One pixel's 7x7 window (490 rows) fits, but two by two pixels read an
  // 8x8 window x 5 blocks x 2 planes = 640 rows (and the accumulator's half, 170
  // entries, rounded down to a multiple of 4: regions on even entries).
  Expected<Tiling> none = ChooseTiling(Pooled(Conv(7, 37, 23, DType::kI16)), kTiny);
  REQUIRE_FALSE(none.ok());
  CHECK(none.status().message() ==
        "node 3 'conv' (conv2d): no tile of a whole 2x2 pool window fits half the feature-map "
        "buffer (512 rows) and of the accumulator (168 entries)");
}

TEST_CASE("a windowed pool's pooled entries count in an accumulator quarter") {
  // tiny's quarter holds 170 / 2 = 85 entries. The fewest tiles (6 rows of
  // 20, 3 x 10 pooled: 150) do not fit; cut into 10 tiles of 2 rows
  // (40 + 1 x 10 = 50) they do; into 5 of 4 rows (80 + 2 x 10 = 100) they
  // do not, though the tile's own 80 entries would.
  const InnerProductGroup g = Pooled(Conv(1, 8, 20, DType::kI8));
  Expected<Tiling> fewest = ChooseTiling(g, kTiny);
  REQUIRE(fewest.ok());
  std::vector<int64_t> heights;
  std::vector<bool> fit;
  for (const Tiling& t : TallerTilings(g, *fewest)) {
    heights.push_back(t.tile_h);
    fit.push_back(AccQuartersFit(g, t, kTiny));
  }
  CHECK(heights == std::vector<int64_t>{6, 4, 2});
  CHECK(fit == std::vector<bool>{false, false, true});
}

TEST_CASE("tiles of pooled pixels: overlapping windows share rows, padded ones start at 0") {
  // A SAME 3x3/2 pool over 9 rows: 5 windows from row -1 (pad 1), window p
  // reading rows 2p - 1 .. 2p + 1 inside [0, 9). Tiles of 2 pooled rows
  // compute rows [0, 4) (windows 0, 1; the first one 1 row before), [3, 8)
  // and [7, 9): row 3 and row 7 twice.
  const AxisWindows same{3, 2, 1, 5};
  std::vector<Span> spans = AxisSpans(9, 2, &same, false);
  REQUIRE(spans.size() == 3);
  CHECK((spans[0].first == 0 && spans[0].size == 4 && spans[0].pool_pad == 1));
  CHECK((spans[1].first == 3 && spans[1].size == 5 && spans[1].pool_pad == 0));
  CHECK((spans[2].first == 7 && spans[2].size == 2 && spans[2].pooled == 1));
  CHECK((spans[1].pooled_first == 2 && spans[1].pooled == 2));
  // Storing the pool's input too: each tile keeps its rows up to the next
  // tile's first, so rows 0-2, 3-6, 7-8 are stored once.
  spans = AxisSpans(9, 2, &same, true);
  CHECK((spans[0].kept == 3 && spans[1].kept == 4 && spans[2].kept == 2));
  // A 1x1 window every 3 rows of 10 (VALID: 4 windows, rows 0, 3, 6, 9)
  // reads no row between; a tap makes the tiles cover them.
  const AxisWindows sparse{1, 3, 0, 4};
  spans = AxisSpans(10, 2, &sparse, false);
  CHECK((spans[0].first == 0 && spans[0].size == 4 && spans[1].first == 6 && spans[1].size == 4));
  spans = AxisSpans(10, 2, &sparse, true);
  CHECK((spans[0].size == 6 && spans[0].kept == 6 && spans[1].size == 4 && spans[1].kept == 4));
  CHECK(LargestSpan(spans) == 6);
}

}  // namespace
}  // namespace opuc::codegen
