//===- src/codegen/tiling_search.cc - The tilings the search weighs ---===//
#include "tiling_search.h"

#include <algorithm>

namespace opuc::codegen {

namespace {

// Feature-map quarters, the windows four deep, where they fit: forced, or
// weighed beside each of `tilings`.
void WithFmQuarters(const InnerProductGroup& g, const OpuBufferUnits& units,
                    const PlanOptions& options, std::vector<Tiling>& tilings) {
  if (options.fm_slots == 4) {
    for (Tiling& t : tilings)
      if (std::optional<Tiling> q = FmQuarters(g, t, units)) t = *q;
  } else if (options.fm_slots == 0 && options.tile_search) {
    const size_t whole = tilings.size();
    for (size_t i = 0; i < whole; ++i)
      if (std::optional<Tiling> q = FmQuarters(g, tilings[i], units)) tilings.push_back(*q);
  }
}

}  // namespace

std::vector<Tiling> CandidateTilings(const InnerProductGroup& g, const Tiling& fewest,
                                     const OpuBufferUnits& units, const PlanOptions& options) {
  std::vector<Tiling> tilings{fewest};
  const bool residual_tiles = std::any_of(g.residuals.begin(), g.residuals.end(),
                                          [](const auto& res) { return res.constant.empty(); });
  if (options.tile_search) {
    tilings = TallerTilings(g, fewest);
    Expected<Tiling> kept = ChooseTiling(g, units, /*residual_per_window=*/true);
    if (residual_tiles && kept.ok())
      for (Tiling& t : TallerTilings(g, *kept)) tilings.push_back(std::move(t));
    // Depthwise Gemms carry their rows only from the tile above: where
    // the fewest tiles cut the width, whole-width tiles too.
    if (g.window_rows > 0 && units.line_columns > 0 && fewest.cols.size() > 1) {
      Expected<Tiling> wide = ChooseTiling(g, units, false, true);
      if (wide.ok())
        for (Tiling& t : TallerTilings(g, *wide)) tilings.push_back(std::move(t));
    }
    if (PostSlicesFit(g) && options.post_slices == 0) {
      const size_t whole = tilings.size();
      for (size_t i = 0; i < whole; ++i)
        for (const int64_t slices : {2, 4}) {
          tilings.push_back(tilings[i]);
          tilings.back().post_slices = slices;
        }
    }
  }
  if (PostSlicesFit(g) && options.post_slices > 0)
    for (Tiling& t : tilings) t.post_slices = options.post_slices;
  if (options.tile_search && options.acc_regions == 0) {
    const size_t whole = tilings.size();
    for (size_t i = 0; i < whole; ++i)
      if (AccQuartersFit(g, tilings[i], units)) {
        tilings.push_back(tilings[i]);
        tilings.back().acc_regions = 4;
      }
  }
  if (options.weights_resident == 2) {
    for (Tiling& t : tilings) t.weights_resident = WeightsResidentFit(t, units);
  } else if (options.weights_resident == 0 && options.tile_search) {
    const size_t whole = tilings.size();
    for (size_t i = 0; i < whole; ++i)
      if (WeightsResidentFit(tilings[i], units)) {
        tilings.push_back(tilings[i]);
        tilings.back().weights_resident = true;
      }
  }
  if (options.acc_regions > 2)
    for (Tiling& t : tilings)
      if (AccQuartersFit(g, t, units)) t.acc_regions = 4;
  WithFmQuarters(g, units, options, tilings);
  // Whole-pixel stores: tilings of their own, as a tile's blocks take
  // more of the accumulator (no slices or quarters: the tile's one Store
  // follows its last block).
  const bool weigh_blocks =
      options.store_blocks == 2 || (options.store_blocks == 0 && options.tile_search);
  // With pointwise pairs, stores of two blocks too, weighed against the
  // whole pixel's: a group of three or four keeps blocks 2 and 3 half a
  // bank on (OpuBufferUnits::AccHalfBank), which halves each block's room.
  const int64_t most_blocks = StoreBlocks(g, units);
  std::vector<int64_t> group_sizes{most_blocks};
  if (most_blocks > 2 && g.dense_pairs) group_sizes.push_back(2);
  for (const int64_t blocks : group_sizes) {
    if (blocks <= 1 || !weigh_blocks) break;
    std::vector<Tiling> grouped;
    const bool carries = g.window_rows > 0 && units.line_columns > 0;
    for (const bool per_window : {false, true})
      for (const bool full_width : {false, true}) {
        if ((per_window && !residual_tiles) || (full_width && !carries)) continue;
        Expected<Tiling> least = ChooseTiling(g, units, per_window, full_width, blocks);
        if (!least.ok()) continue;
        for (Tiling& t :
             options.tile_search ? TallerTilings(g, *least) : std::vector<Tiling>{*least}) {
          if (WeightsResidentFit(t, units) && options.weights_resident == 2) {
            t.weights_resident = true;
          } else if (WeightsResidentFit(t, units) && options.weights_resident == 0 &&
                     options.tile_search) {
            grouped.push_back(t);
            grouped.back().weights_resident = true;
          }
          grouped.push_back(std::move(t));
        }
      }
    // Four store groups deep where a tile fits a quarter of a block's room.
    if (options.store_depth == 4) {
      for (Tiling& t : grouped)
        if (std::optional<Tiling> q = StoreGroupsFourDeep(g, t)) t = *q;
    } else if (options.store_depth == 0 && options.tile_search) {
      const size_t whole = grouped.size();
      for (size_t i = 0; i < whole; ++i)
        if (std::optional<Tiling> q = StoreGroupsFourDeep(g, grouped[i])) grouped.push_back(*q);
    }
    WithFmQuarters(g, units, options, grouped);
    if (options.store_blocks == 2 && !grouped.empty() && blocks == most_blocks) tilings.clear();
    for (Tiling& t : grouped) tilings.push_back(std::move(t));
  }
  for (Tiling& t : tilings) t.slots = std::max<int64_t>(2, options.unit_slots);
  return tilings;
}

std::vector<Tiling> TaperedTilings(const InnerProductGroup& g, const Tiling& t) {
  std::vector<Tiling> tapered;
  if ((g.pool && !g.pool->global) || g.Phases() > 1) return tapered;
  const int64_t th = t.tile_h;
  for (const int64_t head : {th / 2, th / 4, int64_t{1}})
    for (const int64_t tail : {int64_t{0}, th / 2, th / 4, int64_t{1}}) {
      if (head < 1 || head >= th) continue;
      std::vector<Span> rows;
      int64_t first = 0;
      const auto add = [&](int64_t size) {
        rows.push_back({first, size, size, 0, 0, 0});
        first += size;
      };
      add(std::min(head, g.out_h));
      while (first < g.out_h - tail) add(std::min(th, g.out_h - tail - first));
      if (first < g.out_h) add(g.out_h - first);
      if (rows.size() < 2) continue;
      const bool seen = std::any_of(tapered.begin(), tapered.end(), [&](const Tiling& other) {
        return std::equal(rows.begin(), rows.end(), other.rows.begin(), other.rows.end(),
                          [](const Span& a, const Span& b) { return a.size == b.size; });
      });
      if (seen) continue;
      Tiling v = t;
      v.rows = std::move(rows);
      v.tapered = true;
      tapered.push_back(std::move(v));
    }
  return tapered;
}

}  // namespace opuc::codegen
