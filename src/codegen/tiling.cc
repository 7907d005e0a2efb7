//===- src/codegen/tiling.cc - Choosing the tile ----------------------===//
#include "tiling.h"

#include <algorithm>

#include "depthwise_window.h"
#include "opuc/ir/macs.h"
#include "support/format.h"

namespace opuc::codegen {
namespace {

constexpr int64_t kMaxTileSide = 1023;  // Gemm.out_rows / out_cols: 10 bits
constexpr int64_t kMaxPitch = 4095;     // Gemm.fm_pitch: 12 bits

int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

}  // namespace

std::string Tiling::Text(const InnerProductGroup& g) const {
  const std::string ends =
      !tapered ? ""
      : rows.back().size < tile_h && rows.size() > 2
          ? Cat(" (the first ", rows.front().size, " row(s), the last ", rows.back().size, ")")
          : Cat(" (the first ", rows.front().size, " row(s))");
  return Cat("tile ", tile_h, "x", tile_w, ends, " of ", g.out_h, "x", g.out_w, ", ", out_blocks,
             " output block(s), ", CeilDiv(rows_per_out_block, chunk_rows), " weight chunk(s) of ",
             chunk_rows, " row(s)", residual_per_window ? ", residual kept per window" : "",
             post_slices > 1 ? Cat(", stored in up to ", post_slices, " slices") : "",
             acc_regions > 2 ? Cat(", ", acc_regions, " accumulator regions") : "",
             fm_slots > 2 ? Cat(", windows ", fm_slots, " deep") : "",
             weights_resident ? ", weights resident" : "",
             slots > 2 ? Cat(", units ", slots, " deep") : "",
             store_blocks > 1 ? Cat(", ", store_blocks, " blocks a store") : "",
             block_pairs ? ", two blocks a Gemm" : "",
             store_depth > 2 ? Cat(", store groups ", store_depth, " deep") : "",
             g.i16_whole ? ", i16 read whole" : "",
             g.even_columns ? ", odd tiles a column wider (pairs)" : "",
             g.Phases() > 1 ? Cat(", as ", g.Phases(), " phases") : "",
             !g.packed ? ""
             : g.RowsPacked()
                 ? Cat(", rows packed (", g.packed->out_pack, " pixels an output pixel)")
                 : Cat(", pixels packed (", g.packed->in_pack, " a unit)"));
}

int64_t ResidualTilesBefore(const InnerProductGroup& g, size_t k) {
  int64_t tiles = 0;
  for (size_t i = 0; i < k; ++i)
    if (g.residuals[i].constant.empty()) tiles += g.residuals[i].format == DType::kI16 ? 2 : 1;
  return tiles;
}

int64_t ConstantRowsBefore(const InnerProductGroup& g, size_t k, int64_t lanes) {
  int64_t rows = 0;
  for (size_t i = 0; i < k; ++i)
    if (!g.residuals[i].constant.empty())
      rows += (g.residuals[i].format == DType::kI16 ? 2 : 1) * CeilDiv(g.out_c, lanes);
  return rows;
}

int64_t StoreBlocks(const InnerProductGroup& g, const OpuBufferUnits& u) {
  // Packed pixels: a packed pixel's L / Co pixels, each Co bytes, are its
  // output blocks, block k pixel k (docs/codegen.md, "Packed pixels").
  const bool packed_pixels = g.PixelsPacked() && g.packed->in_pack * u.out_lanes == u.lanes;
  const int64_t blocks = packed_pixels ? g.packed->in_pack : CeilDiv(g.out_c, u.out_lanes);
  // A windowed pool's pooled tile is stored so too, from each block's
  // entries after its tile's (PlacePool).
  const bool pool_as_is = !g.pool || (!g.pool->global && !g.PixelsPacked());
  // Pixel pairs: a block holds Co/2 channels of each pixel of its entry,
  // and a pixel's blocks fill its bytes as a single pixel's do.
  const int64_t block_lanes = g.pairs ? u.out_lanes / 2 : u.out_lanes;
  const int64_t group = std::min({blocks, u.lanes / block_lanes, int64_t{4}});  // 2 bits
  const bool as_is = (g.store_output || (g.pool && g.store_pool)) && pool_as_is &&
                     g.upsampled == kNoTensor && g.Phases() == 1 && (!g.packed || packed_pixels);
  return as_is && group >= 2 ? group : 1;
}

Expected<Tiling> ChooseTiling(const InnerProductGroup& g, const OpuBufferUnits& u,
                              bool residual_per_window, bool full_width, int64_t store_blocks) {
  if (u.lanes % u.out_lanes != 0)
    return Unsupported(Cat(g.what, ": array.input_channels (", u.lanes,
                           ") is not a multiple of array.output_channels (", u.out_lanes, ")"));
  Tiling t;
  t.table_rows = g.table.empty() ? 0 : CeilDiv(2 * static_cast<int64_t>(g.table.size()), u.lanes);
  t.constant_rows = ConstantRowsBefore(g, g.residuals.size(), u.lanes);
  t.fm_slot_rows = (u.fm_rows - t.table_rows - t.constant_rows) / 2;
  t.table_row = t.fm_slots * t.fm_slot_rows;
  t.constant_row = t.table_row + t.table_rows;
  t.weight_half = u.weight_rows / 2;
  // A global pool's sums stay for the whole group: one entry per output
  // block, after both accumulator halves. The halves start at the RTL's
  // banks and the sums sit in its last bank (OpuBufferUnits::AccBank1), so
  // one tile's post stages never hold up the next tile's Gemms; with more
  // sums than the last bank holds, the halves split what is left.
  const bool global = g.pool && g.pool->global;
  const int64_t sums = global ? CeilDiv(g.out_c, u.out_lanes) : 0;
  t.pool_sums = global ? std::min(u.AccSumsBank(), u.acc_entries - sums) : u.acc_entries;
  t.acc_second = u.AccBank1();
  t.acc_half = std::min(t.acc_second, t.pool_sums - t.acc_second);
  if (t.acc_half < 1) {
    t.acc_half = t.pool_sums / 2;
    t.acc_second = t.acc_half;
  }
  if (store_blocks > 1) {
    // Two tiles' blocks, each block's pair of tiles in a slot of its own:
    // blocks 0 and 2 in bank 0, 1 and 3 in bank 1, 2 and 3 half a bank on.
    const int64_t bank0 = u.AccBank1(), bank1 = u.AccSumsBank() - u.AccBank1();
    const int64_t half = store_blocks > 2 ? u.AccHalfBank() : bank0;
    const int64_t slot = std::min(
        {half, bank0 - (store_blocks > 2 ? half : 0), bank1 - (store_blocks > 2 ? half : 0)});
    t.store_blocks = store_blocks;
    t.block_pairs = g.block_pairs;  // blocks 2k and 2k + 1 at one offset of the two banks
    t.acc_second = u.AccBank1();
    t.acc_half = slot / 2;
  }
  // Regions on even entries, halves and quarters alike: the post side's
  // dual passes and the array's pairs of output pixels start on one.
  if (t.acc_half >= 4) t.acc_half -= t.acc_half % 4;
  if (u.param_rows < 2 || t.weight_half < 1 || t.acc_half < 1)
    return Unsupported(Cat(g.what, ": the param, weight and accumulator buffers need two halves"));
  t.planes = g.in_format == DType::kI16 ? 2 : 1;
  t.sources = InputBlockSources(g, u.lanes);
  t.blocks = g.depthwise ? 1 : static_cast<int64_t>(t.sources.size());
  t.taps = g.kh * g.kw;
  t.out_blocks = CeilDiv(g.out_c, u.out_lanes);
  // A depthwise window mapping takes several kernel rows a weight row.
  t.rows_per_out_block = g.window_rows > 0 ? WindowGemms(g) : t.taps * t.blocks;
  t.chunk_rows = std::min(t.rows_per_out_block, t.weight_half);

  // Feature-map rows per input pixel of the window: none for a map a
  // chained pair keeps on chip (chained_pairs.h).
  const int64_t per_pixel = g.input_on_chip ? 0 : t.blocks * t.planes;
  // A depthwise window's blocks read `multiplier` lane blocks of output
  // channels; an ordinary window's every one.
  t.residual_per_window = residual_per_window;
  t.residual_slots = !residual_per_window ? 1
                     : g.depthwise        ? g.multiplier
                                          : CeilDiv(g.out_c, u.lanes);
  const int64_t residual =  // fm rows per tile pixel
      ResidualTilesBefore(g, g.residuals.size()) * t.residual_slots;
  const int64_t smallest = t.InRows(g, 1) * t.InCols(g, 1) * per_pixel + residual;
  if (smallest > t.fm_slot_rows)
    return Unsupported(Cat(g.what, ": one output pixel reads ", smallest, " feature-map rows (",
                           g.kh, "x", g.kw, " window, ", t.blocks, " input block(s), ", t.planes,
                           " plane(s)", residual ? Cat(", ", residual, " residual tile(s)") : "",
                           "); half the buffer holds ", t.fm_slot_rows, ": ",
                           smallest - t.fm_slot_rows, " too many"));
  // With a pool, a tile holds whole windows and its pooled entries after
  // them: its size counts pooled pixels (spans.h); a global pool's window
  // spans the tiles.
  const bool windowed = g.pool && !global;
  AxisWindows wy, wx;
  if (windowed) {
    const PoolStep& pool = *g.pool;
    wy = {pool.kh, pool.sy, pool.pad_top, pool.out_h};
    wx = {pool.kw, pool.sx, pool.pad_left, pool.out_w};
  }
  const AxisWindows* pool_y = windowed ? &wy : nullptr;
  const AxisWindows* pool_x = windowed ? &wx : nullptr;
  const int64_t along_h = windowed ? wy.pooled : g.out_h, along_w = windowed ? wx.pooled : g.out_w;
  // Output pixels of the largest tile of `n` along an axis.
  const auto largest = [&](int64_t extent, int64_t n, const AxisWindows* w) {
    return w ? LargestSpan(AxisSpans(extent, n, w, g.store_output)) : std::min(n, extent);
  };
  int64_t best_tiles = -1, best_area = 0;
  for (int64_t tw = along_w; tw >= (full_width ? along_w : 1); --tw) {
    const int64_t widest = largest(g.out_w, tw, pool_x);
    const int64_t pixels_w = widest + (g.even_columns ? widest % 2 : 0);
    if (pixels_w > kMaxTileSide || t.InCols(g, pixels_w) > kMaxPitch) continue;
    const int64_t cols = t.InCols(g, pixels_w);
    // The tallest tile of this width that fits the feature map and accumulator.
    int64_t lo = 0, hi = along_h;
    while (lo < hi) {
      const int64_t th = (lo + hi + 1) / 2;
      const int64_t pixels_h = largest(g.out_h, th, pool_y), pixels = pixels_h * pixels_w;
      const bool fits =
          pixels_h <= kMaxTileSide &&
          t.InRows(g, pixels_h) * cols * per_pixel + residual * pixels <= t.fm_slot_rows &&
          pixels * g.Phases() + (windowed ? th * tw : 0) <= t.acc_half;
      if (fits)
        lo = th;
      else
        hi = th - 1;
    }
    if (lo == 0) continue;
    const int64_t tiles = CeilDiv(along_h, lo) * CeilDiv(along_w, tw);
    if (best_tiles < 0 || tiles < best_tiles || (tiles == best_tiles && lo * tw > best_area)) {
      best_tiles = tiles;
      best_area = lo * tw;
      t.rows = AxisSpans(g.out_h, lo, pool_y, g.store_output);
      t.cols = AxisSpans(g.out_w, tw, pool_x, g.store_output);
      if (g.even_columns) t.cols = EvenSpans(std::move(t.cols));
    }
  }
  if (best_tiles < 0 && windowed)
    return Unsupported(Cat(g.what, ": no tile of a whole ", wy.size, "x", wx.size,
                           " pool window fits half the feature-map buffer (", t.fm_slot_rows,
                           " rows) and of the accumulator (", t.acc_half, " entries)"));
  if (best_tiles < 0)
    return Unsupported(Cat(g.what, ": no tile fits (accumulator half: ", t.acc_half, " entries)"));
  t.tile_h = LargestSpan(t.rows);
  t.tile_w = LargestSpan(t.cols);
  t.residual_row = t.InRows(g, t.tile_h) * t.InCols(g, t.tile_w) * per_pixel;
  return t;
}

std::vector<Tiling> TallerTilings(const InnerProductGroup& g, const Tiling& fewest) {
  std::vector<Tiling> all{fewest};
  const bool windowed = g.pool && !g.pool->global;
  AxisWindows wy;
  if (windowed) wy = {g.pool->kh, g.pool->sy, g.pool->pad_top, g.pool->out_h};
  const int64_t along_h = windowed ? wy.pooled : g.out_h;
  const int64_t tiles_h = static_cast<int64_t>(fewest.rows.size());
  const int64_t per_pixel = g.input_on_chip ? 0 : fewest.blocks * fewest.planes;
  for (const int64_t times : {2, 3, 4, 6, 8, 12, 16}) {
    const int64_t th = CeilDiv(along_h, tiles_h * times);
    const std::vector<Span> rows = AxisSpans(g.out_h, th, windowed ? &wy : nullptr, g.store_output);
    if (rows.size() == all.back().rows.size()) continue;
    Tiling t = fewest;
    t.rows = rows;
    t.tile_h = LargestSpan(t.rows);
    t.residual_row = t.InRows(g, t.tile_h) * t.InCols(g, t.tile_w) * per_pixel;
    all.push_back(std::move(t));
    if (th == 1) break;
  }
  return all;
}

bool PostSlicesFit(const InnerProductGroup& g) {
  if (g.pool || g.upsampled != kNoTensor || !g.store_output || g.Phases() > 1) return false;
  return std::none_of(g.residuals.begin(), g.residuals.end(), [](const ResidualStep& r) {
    return r.constant.empty() && r.format == DType::kI16;
  });
}

namespace {

/// The accumulator entries the largest tile of `t` takes: its pixels (every
/// phase's) and a windowed pool's pooled entries after them (PlacePool).
int64_t TileEntries(const InnerProductGroup& g, const Tiling& t) {
  int64_t pooled_h = 0, pooled_w = 0;
  if (g.pool && !g.pool->global) {
    for (const Span& r : t.rows) pooled_h = std::max(pooled_h, r.pooled);
    for (const Span& c : t.cols) pooled_w = std::max(pooled_w, c.pooled);
  }
  return t.tile_h * t.tile_w * g.Phases() + pooled_h * pooled_w;
}

}  // namespace

bool AccQuartersFit(const InnerProductGroup& g, const Tiling& t, const OpuBufferUnits& u) {
  return t.acc_second == u.AccBank1() && TileEntries(g, t) <= t.acc_half / 2;
}

std::optional<Tiling> FmQuarters(const InnerProductGroup& g, const Tiling& t,
                                 const OpuBufferUnits& u) {
  const bool pair_residuals = !t.residual_per_window &&
                              std::any_of(g.residuals.begin(), g.residuals.end(),
                                          [](const ResidualStep& r) { return r.constant.empty(); });
  // Pixel pairs: pose_landmark_lite's first conv, whose loads and paired
  // stores keep the DRAM port busy, took 34,531 RTL cycles with windows
  // four deep where the estimator, which chooses, said 32,295 (32,438 with
  // two): it misjudges that sharing, so pairs keep two. So do tiles of one
  // or two rows over an i16 input or residual (two planes each): such a 1x1
  // step of pose_landmark_heavy at mixed precision took 38,332 four deep
  // where the estimator said 40,278; with the i16 read whole, a conv of
  // pose_landmark_full's (three weight rows), tiles of two rows, 8,056
  // where it said 8,610.
  const bool i16 = t.planes > 1 ||
                   std::any_of(g.residuals.begin(), g.residuals.end(), [](const ResidualStep& r) {
                     return r.constant.empty() && r.format == DType::kI16;
                   });
  if (pair_residuals || g.pairs || (i16 && t.tile_h <= 2) || t.fm_slots != 2) return std::nullopt;
  Tiling q = t;
  q.fm_slots = 4;
  q.fm_slot_rows = (u.fm_rows - t.table_rows - t.constant_rows) / 4;
  const int64_t residual_rows =
      ResidualTilesBefore(g, g.residuals.size()) * t.residual_slots * t.tile_h * t.tile_w;
  if (t.residual_row + residual_rows > q.fm_slot_rows) return std::nullopt;
  return q;
}

std::optional<Tiling> StoreGroupsFourDeep(const InnerProductGroup& g, const Tiling& t) {
  if (t.store_blocks <= 1 || t.store_depth != 2) return std::nullopt;
  Tiling q = t;
  q.store_depth = 4;
  q.acc_half = t.acc_half / 2;  // a block's room: two tiles' halves, now four quarters
  if (TileEntries(g, t) > q.acc_half) return std::nullopt;
  return q;
}

bool ReadsI16Whole(const InnerProductGroup& g, const OpuBufferUnits& u) {
  const int64_t row = (g.out_w - 1) * g.sx + (g.kw - 1) * g.dx + 1;  // the widest input row
  return u.fm_pairs && g.in_format == DType::kI16 &&
         (g.window_rows == 0 || g.kw <= kI16WindowTaps) && 2 * row <= kMaxPitch;
}

bool WeightsResidentFit(const Tiling& t, const OpuBufferUnits& u) {
  return t.chunk_rows == t.rows_per_out_block &&
         t.out_blocks * t.rows_per_out_block <= u.weight_rows;
}

std::vector<std::pair<int64_t, int64_t>> PostSliceRows(int64_t size, int64_t kept, int64_t slices) {
  const int64_t n = std::max<int64_t>(1, std::min(slices, kept));
  std::vector<std::pair<int64_t, int64_t>> rows;
  for (int64_t k = 0; k < n; ++k) rows.emplace_back(kept * k / n, kept * (k + 1) / n);
  rows.back().second = size;
  return rows;
}

}  // namespace opuc::codegen
