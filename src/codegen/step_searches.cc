//===- src/codegen/step_searches.cc - Each OPU group's tiling, searched -===//
//
// Every search the steps need is laid out first (the layouts they read are
// made here, in order), then run on the threads (support/parallel_for.h):
// each is its own, and the steps are settled in order, so the program is
// the same on any number of threads.
//
//===----------------------------------------------------------------------===//
#include "step_searches.h"

#include <deque>

#include "chained_pairs.h"
#include "emit.h"
#include "runs.h"
#include "support/format.h"
#include "support/parallel_for.h"
#include "tiling_search.h"

namespace opuc::codegen {

Status SearchSteps(const Graph& graph, const HwConfig& hw, const OpuBufferUnits& units,
                   const PlanOptions& options, const std::vector<ReadyGroup>& ready, StepPlan& code,
                   std::set<TensorId>& on_chip) {
  std::deque<ActivationLayout> packed_inputs;  // the loads' views (packed_rows.h)
  std::deque<ActivationLayout> chained_maps;   // a chained pair's map on chip
  const auto dram_layouts = [&](const InnerProductGroup& g) {
    return DramLayouts(code, g, units, packed_inputs);
  };
  // The step as searched, its tiling text told what the group reads and
  // writes; the weight rows without their copies where it runs without
  // pointwise pairs after all.
  const auto told = [&](const ReadyGroup& r, const SearchedStep& searched, std::string text) {
    if (r.pairs_input) text = "two pixels an entry (a doubled input), " + text;
    if (r.doubles_output) text = "output doubled, " + text;
    if (searched.group.dense_pairs) text = "output pixels in pairs, " + text;
    if (r.fold)
      text = Cat("input folded (", r.fold->kernel_h, "x", r.fold->kernel_w, " taps x ",
                 r.fold->in_c, " channels", r.fold->pixels > 1 ? ", pixel pairs" : "", "), ", text);
    return text;
  };
  // Each OPU step as settled, its groups as searched (runs.h).
  std::deque<SearchedStep> kept;
  std::vector<SettledStep> settled;
  const auto settle = [&](const ReadyGroup& r, const SearchedStep& searched, PlannedStep step,
                          const GroupLayouts* layouts) {
    if ((r.group.dense_pairs && !searched.group.dense_pairs) ||
        (r.group.window_pairs && !searched.group.window_pairs))
      RepackWeights(searched.group, r.tiling, units, r.constants, code.constants);
    step.tiling = told(r, searched, step.tiling);
    code.steps[r.step] = std::move(step);
    if (layouts == nullptr) return;  // a chained pair's first: with its second
    const SearchedStep& k = kept.emplace_back(SearchedStep{{}, searched.tiling, searched.group});
    settled.push_back({r.step, {{k.group, k.tiling, r.constants, *layouts}}});
  };
  // Every search the steps need, laid out first (the layouts they read
  // are made here, in order), then run on the threads: each is its own
  // (support/parallel_for.h), and the steps are settled in order below.
  struct Search {
    const InnerProductGroup* group;
    const Tiling* fewest;
    const OpuBufferUnits* units;
    const ConstantPlacement* constants;
    GroupLayouts layouts;
    bool prefetched;
    std::optional<Expected<SearchedStep>> result;
  };
  std::deque<Search> searches;
  std::deque<InnerProductGroup> reading_chip;  // a chained pair's second, its input on chip
  // Per group: its search alone; for a chained pair's first, the second's
  // alone and both chained.
  struct PairSearches {
    Search *alone, *second_alone = nullptr, *first_chained = nullptr, *second_chained = nullptr;
  };
  std::vector<PairSearches> planned;
  for (size_t i = 0; i < ready.size(); ++i) {
    const ReadyGroup& r = ready[i];
    // The runtime names each OPU step but the first to the fetch unit while
    // the OPU step before runs (sim/rtl_device.cc).
    const bool prefetched = i > 0;
    PairSearches p{&searches.emplace_back(
        Search{&r.group, &r.tiling, &units, &r.constants, dram_layouts(r.group), prefetched, {}})};
    if (r.chain_first) {
      const ReadyGroup& second = ready[++i];
      p.second_alone = &searches.emplace_back(Search{&second.group,
                                                     &second.tiling,
                                                     &units,
                                                     &second.constants,
                                                     dram_layouts(second.group),
                                                     true,
                                                     {}});
      const ActivationLayout& map =
          chained_maps.emplace_back(ChainLayout(graph, r.group, r.chain_row, units.lanes));
      GroupLayouts first_layouts = dram_layouts(r.group);
      first_layouts.output = &map;
      first_layouts.output_to_fm = true;
      GroupLayouts second_layouts = dram_layouts(second.group);
      second_layouts.inputs = {&map};
      second_layouts.input_fm_row = r.chain_row;
      InnerProductGroup& reads_chip = reading_chip.emplace_back(second.group);
      reads_chip.input_on_chip = true;
      p.first_chained = &searches.emplace_back(Search{
          &r.group, &r.chain_tiling, &r.chain_units, &r.constants, first_layouts, prefetched, {}});
      p.second_chained = &searches.emplace_back(Search{&reads_chip,
                                                       &second.chain_tiling,
                                                       &second.chain_units,
                                                       &second.constants,
                                                       second_layouts,
                                                       true,
                                                       {}});
    }
    planned.push_back(p);
  }
  ParallelFor(static_cast<int64_t>(searches.size()), options.threads, [&](int64_t k) {
    Search& s = searches[static_cast<size_t>(k)];
    s.result = SearchStep(*s.group, *s.fewest, *s.units, hw, *s.constants, s.layouts, options,
                          s.prefetched);
  });
  const auto searched = [](Search* s) -> Expected<SearchedStep> { return std::move(*s->result); };
  size_t next_planned = 0;
  for (size_t i = 0; i < ready.size(); ++i) {
    const ReadyGroup& r = ready[i];
    const PairSearches& p = planned[next_planned++];
    const bool prefetched = p.alone->prefetched;
    OPUC_ASSIGN_OR_RETURN(SearchedStep alone, searched(p.alone));
    if (!r.chain_first) {
      if (!r.chain_note.empty())
        alone.step.tiling = Cat("not chained to group ", r.group.group + 1, ": ", r.chain_note,
                                ", ", alone.step.tiling);
      settle(r, alone, alone.step, &p.alone->layouts);
      continue;
    }
    // A chained pair where its one step is faster than the two alone.
    const ReadyGroup& second = ready[++i];
    OPUC_ASSIGN_OR_RETURN(SearchedStep second_alone, searched(p.second_alone));
    OPUC_ASSIGN_OR_RETURN(SearchedStep first_chained, searched(p.first_chained));
    OPUC_ASSIGN_OR_RETURN(SearchedStep second_chained, searched(p.second_chained));
    const GroupLayouts& first_layouts = p.first_chained->layouts;
    const GroupLayouts& second_layouts = p.second_chained->layouts;
    OPUC_ASSIGN_OR_RETURN(
        PlannedStep pair,
        EmitRun({{first_chained.group, first_chained.tiling, r.constants, first_layouts},
                 {second_chained.group, second_chained.tiling, second.constants, second_layouts}},
                hw, prefetched));
    if (options.chained_pairs == 0 &&
        pair.estimated_cycles >= alone.step.estimated_cycles + second_alone.step.estimated_cycles) {
      alone.step.tiling = Cat("not chained to group ", second.group.group, " (as one step ",
                              pair.estimated_cycles, " estimated cycles, alone ",
                              alone.step.estimated_cycles + second_alone.step.estimated_cycles,
                              "), ", alone.step.tiling);
      settle(r, alone, alone.step, &p.alone->layouts);
      settle(second, second_alone, second_alone.step, &p.second_alone->layouts);
      continue;
    }
    PlannedStep first_step = first_chained.step;
    first_step.words.clear();
    first_step.chained_into = second.group.group;
    pair.tiling =
        Cat("chained, the depthwise output on chip: ", told(r, first_chained, first_step.tiling),
            "; then ", told(second, second_chained, second_chained.step.tiling));
    settle(r, first_chained, std::move(first_step), nullptr);
    if (second.group.dense_pairs && !second_chained.group.dense_pairs)
      RepackWeights(second_chained.group, second.tiling, units, second.constants, code.constants);
    code.steps[second.step] = std::move(pair);
    const SearchedStep& first_kept =
        kept.emplace_back(SearchedStep{{}, first_chained.tiling, first_chained.group});
    const SearchedStep& second_kept =
        kept.emplace_back(SearchedStep{{}, second_chained.tiling, second_chained.group});
    settled.push_back(
        {second.step,
         {{first_kept.group, first_kept.tiling, r.constants, first_layouts},
          {second_kept.group, second_kept.tiling, second.constants, second_layouts}}});
    on_chip.insert(r.group.output);
  }
  return options.runs ? JoinRuns(settled, hw, code) : OkStatus();
}

}  // namespace opuc::codegen
