//===- src/codegen/step_search.cc - The fastest tiling of a group ------===//
#include <algorithm>

#include "chained_pairs.h"
#include "dense_pairs.h"
#include "depthwise_window.h"
#include "support/format.h"
#include "tiling_search.h"

namespace opuc::codegen {

Expected<SearchedStep> SearchStep(const InnerProductGroup& g, const Tiling& fewest,
                                  const OpuBufferUnits& units, const HwConfig& hw,
                                  const ConstantPlacement& constants, const GroupLayouts& layouts,
                                  const PlanOptions& options, bool prefetched) {
  const OpuBufferUnits whole = BufferUnits(hw);
  const std::vector<Tiling> tilings = CandidateTilings(g, fewest, units, options);
  InnerProductGroup unpaired = g;
  unpaired.dense_pairs = false;
  // Packed window pairs fit only tiles of even widths: without them too.
  InnerProductGroup single = g;
  single.window_pairs = false;
  // Window pairs over odd tiles each a column wider, with tilings of their own.
  InnerProductGroup even = g;
  even.even_columns = true;
  std::vector<Tiling> even_tilings;
  const bool odd = std::any_of(tilings.begin(), tilings.end(), [](const Tiling& t) {
    return std::any_of(t.cols.begin(), t.cols.end(), [](const Span& c) { return c.size % 2; });
  });
  if (options.even_columns && odd && EvenColumnsFit(g) && !layouts.output_to_fm) {
    Expected<Tiling> least = ChooseTiling(even, units);
    if (least.ok()) even_tilings = CandidateTilings(even, *least, units, options);
  }
  std::vector<std::pair<const InnerProductGroup*, const std::vector<Tiling>*>> variants{
      {&g, &tilings}};
  if (g.dense_pairs) variants.push_back({&unpaired, &tilings});
  if (g.window_pairs && PacksWindowRows(g, whole)) variants.push_back({&single, &tilings});
  if (!even_tilings.empty()) variants.push_back({&even, &even_tilings});
  const auto fits = [&](const InnerProductGroup& v, const Tiling& t) {
    return (!v.dense_pairs || DensePairsFit(v, t, whole)) && WindowPairsFit(v, t, whole) &&
           (!layouts.output_to_fm || ChainTilingRefusal(v, t, whole).empty());
  };
  std::optional<SearchedStep> best;
  const InnerProductGroup* chosen = &g;
  const Tiling* fastest = nullptr;
  for (const auto& [v, candidates] : variants)
    for (const Tiling& t : *candidates) {
      if (!fits(*v, t)) continue;
      OPUC_ASSIGN_OR_RETURN(PlannedStep step,
                            EmitInnerProduct(*v, t, hw, constants, layouts, prefetched, false));
      if (!best || step.estimated_cycles < best->step.estimated_cycles) {
        best = SearchedStep{std::move(step), t, {}};
        chosen = v;
        fastest = &t;
      }
    }
  if (!best) return InternalError(Cat("group ", g.group, ": no candidate tiling"));
  // The fastest again with tapered ends (or, forced, the first of those).
  const bool taper =
      options.tapered_tiles == 2 || (options.tapered_tiles == 0 && options.tile_search);
  if (taper) {
    const std::vector<Tiling> tapered = TaperedTilings(*chosen, *fastest);
    for (size_t i = 0; i < tapered.size(); ++i) {
      if (!fits(*chosen, tapered[i])) continue;
      OPUC_ASSIGN_OR_RETURN(PlannedStep step, EmitInnerProduct(*chosen, tapered[i], hw, constants,
                                                               layouts, prefetched, false));
      const bool forced = options.tapered_tiles == 2 && i == 0;
      if (forced || step.estimated_cycles < best->step.estimated_cycles) {
        best->step = std::move(step);
        best->tiling = tapered[i];
      }
      if (forced) break;
    }
  }
  best->group = *chosen;
  // The one chosen, with its words.
  OPUC_ASSIGN_OR_RETURN(
      best->step, EmitInnerProduct(*chosen, best->tiling, hw, constants, layouts, prefetched));
  return std::move(*best);
}

}  // namespace opuc::codegen
