//===- src/quant/per_layer_choice.cc - Which layers and activations get 16 bits ===//
#include "per_layer_choice.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>

#include "activation_bits.h"
#include "formats.h"
#include "mixed_precision.h"
#include "opuc/cpu/executor.h"
#include "opuc/ir/macs.h"
#include "output_sensitivity.h"
#include "quantize_steps.h"
#include "split_weights.h"
#include "weights.h"

namespace opuc::quant {
namespace {

/// The per-layer choice (QuantizeOptions::per_layer). Every splittable layer
/// of `equalized` is split once (`all`) and calibrated; a configuration —
/// which layers keep 16-bit weights, which tensors are i16 — is the
/// equalized graph with only those layers split, whose tensors and nodes
/// take the statistics and Gram matrices of their namesakes in `all` (an
/// unsplit layer reads what its high part reads).
class PerLayerChoice {
 public:
  PerLayerChoice(const Graph& equalized, const Graph& all, const std::vector<SplitLayer>& split)
      : equalized_(equalized) {
    for (size_t t = 0; t < all.tensors.size(); ++t) tensor_of_[all.tensors[t].name] = t;
    for (size_t k = 0; k < all.nodes.size(); ++k)
      node_of_[all.nodes[k].name] = static_cast<NodeId>(k);
    for (const SplitLayer& layer : split) {
      const Node& high = all.node(layer.high);
      Layer l;
      l.name = high.name.substr(0, high.name.size() - std::string("/high").size());
      l.high_sum = all.tensor(high.outputs[0]).name;
      l.low_sum = all.tensor(all.node(layer.low).outputs[0]).name;
      l.macs = NodeMacs(all, layer.low);
      layers_.push_back(std::move(l));
    }
  }

  struct Layer {
    std::string name, high_sum, low_sum;
    int64_t macs = 0;
  };
  const std::vector<Layer>& layers() const { return layers_; }

  /// One configuration, built with `calibrated` (of `all`).
  struct Config {
    Graph graph;
    std::vector<SplitLayer> split;
    std::vector<TensorId> partial_sums;
    std::vector<TensorStats> stats;
    std::map<NodeId, InputGram> grams;
  };

  Expected<Config> Make(const std::set<std::string>& wide_layers,
                        const std::vector<TensorStats>& stats,
                        const std::map<NodeId, InputGram>& grams) const {
    Config c;
    c.graph = equalized_;
    OPUC_ASSIGN_OR_RETURN(c.split, SplitWeights(c.graph, &wide_layers));
    c.partial_sums = PartialSums(c.graph, c.split);
    c.stats.resize(c.graph.tensors.size());
    for (size_t t = 0; t < c.graph.tensors.size(); ++t) {
      const auto it = tensor_of_.find(c.graph.tensors[t].name);
      if (it != tensor_of_.end()) c.stats[t] = stats[it->second];
    }
    for (size_t k = 0; k < c.graph.nodes.size(); ++k) {
      auto it = node_of_.find(c.graph.nodes[k].name);
      if (it == node_of_.end()) it = node_of_.find(c.graph.nodes[k].name + "/high");
      if (it == node_of_.end()) continue;
      const auto gram = grams.find(it->second);
      if (gram != grams.end()) c.grams.emplace(static_cast<NodeId>(k), gram->second);
    }
    return c;
  }

 private:
  const Graph& equalized_;
  std::map<std::string, size_t> tensor_of_;
  std::map<std::string, NodeId> node_of_;
  std::vector<Layer> layers_;
};

/// What the per-layer choice chose: i16 tensors by name, layers with
/// 16-bit weights by name.
struct PerLayerSetting {
  std::set<std::string> wide_tensors, wide_layers;
};

/// The planner of a configuration and its flags for `setting`.
struct PlannedConfig {
  FormatPlanner planner;
  std::vector<bool> wide;
};

PlannedConfig PlanConfig(const Graph& graph, const std::vector<TensorStats>& stats,
                         const std::vector<TensorId>& partial_sums,
                         const std::set<std::string>& wide_tensors, bool i16_in_one_pass) {
  const std::vector<int> bits = ChooseActivationBits(graph, stats, partial_sums);
  PlannedConfig p{FormatPlanner(graph, stats, bits, true, i16_in_one_pass, partial_sums), {}};
  p.wide.assign(p.planner.groups().size(), false);
  for (size_t k = 0; k < p.planner.groups().size(); ++k)
    for (TensorId t : p.planner.groups()[k].members)
      if (wide_tensors.count(graph.tensor(t).name) != 0) p.wide[k] = true;
  return p;
}

/// Folds of the calibration photographs the choice is measured on: one per
/// photograph up to this many (leave one out with the six of calibration/).
constexpr size_t kMaxFolds = 6;

/// The calibration photographs in folds, round-robin. Each fold's
/// photographs are measured as they are and mirrored (views 0 and 1: the
/// augmentations that leave the pixels' values alone) by a program whose
/// activation statistics come from the other folds' views; the candidates'
/// effects on every photograph as it is (view 0), each at its fold's
/// lengths. With one photograph
/// there is nothing to keep: it is measured on its own statistics.
struct Folds {
  bool held_out = false;
  std::vector<std::vector<std::vector<HostTensor>>> kept;  ///< Per fold: its samples measured.
  std::vector<std::vector<TensorStats>> stats;  ///< Per fold: the other folds' statistics.
  /// Per fold: view 0 of its photographs, where the candidates are priced.
  std::vector<std::vector<std::vector<HostTensor>>> probes;
};

Expected<Folds> MakeFolds(const Graph& graph,
                          const std::vector<std::vector<HostTensor>>& calibration,
                          int views_per_photograph, const std::vector<TensorStats>& all_stats,
                          int threads) {
  const size_t views = static_cast<size_t>(std::max(1, views_per_photograph));
  const size_t photographs = calibration.size() / views;
  Folds folds;
  folds.held_out = photographs >= 2;
  const size_t count = folds.held_out ? std::min(photographs, kMaxFolds) : 1;
  std::vector<std::vector<std::vector<HostTensor>>> own(count);
  folds.kept.resize(count);
  folds.probes.resize(count);
  for (size_t s = 0; s < calibration.size(); ++s) {
    const size_t fold = (s / views) % count;
    own[fold].push_back(calibration[s]);
    if (s % views == 0) folds.probes[fold].push_back(calibration[s]);
    if (s % views < 2) folds.kept[fold].push_back(calibration[s]);
  }
  folds.stats.assign(count, all_stats);
  if (!folds.held_out) return folds;
  std::vector<std::vector<TensorStats>> own_stats(count);
  for (size_t f = 0; f < count; ++f) {
    OPUC_ASSIGN_OR_RETURN(own_stats[f], Calibrate(graph, own[f], nullptr, threads));
  }
  for (size_t f = 0; f < count; ++f) {
    folds.stats[f].assign(graph.tensors.size(), TensorStats());
    for (size_t g = 0; g < count; ++g)
      if (g != f)
        for (size_t t = 0; t < graph.tensors.size(); ++t)
          MergeStats(folds.stats[f][t], own_stats[g][t]);
  }
  return folds;
}

/// Candidates the per-layer choice tries to take back from its prefix.
constexpr size_t kNarrowingTrials = 6;

}  // namespace

Expected<QuantizedGraph> QuantizePerLayer(const Graph& equalized, int pairs,
                                          const std::vector<std::vector<HostTensor>>& calibration,
                                          const QuantizeOptions& options) {
  Graph all = equalized;
  OPUC_ASSIGN_OR_RETURN(const std::vector<SplitLayer> split, SplitWeights(all));
  const PerLayerChoice choice(equalized, all, split);
  OPUC_ASSIGN_OR_RETURN(const Calibrated on_all, CalibrateGraph(all, calibration, options.threads));
  OPUC_ASSIGN_OR_RETURN(const Folds folds, MakeFolds(all, calibration, options.views_per_photograph,
                                                     on_all.stats, options.threads));

  // Candidates: the activation groups of the unsplit graph, and the layers.
  const Graph& g0 = equalized;
  std::map<std::string, size_t> all_tensor;
  for (size_t t = 0; t < all.tensors.size(); ++t) all_tensor[all.tensors[t].name] = t;
  const auto stats_of = [&](const std::vector<TensorStats>& stats) {
    std::vector<TensorStats> own(g0.tensors.size());
    for (size_t t = 0; t < g0.tensors.size(); ++t) {
      const auto it = all_tensor.find(g0.tensors[t].name);
      if (it != all_tensor.end()) own[t] = stats[it->second];
    }
    return own;
  };
  const PlannedConfig base =
      PlanConfig(g0, stats_of(on_all.stats), {}, {}, options.i16_in_one_pass);
  std::set<std::string> outputs, output_makers;
  for (TensorId t : g0.outputs) outputs.insert(g0.tensor(t).name);
  for (const Node& node : g0.nodes)
    for (TensorId t : node.outputs)
      if (outputs.count(g0.tensor(t).name) != 0) output_makers.insert(node.name);
  std::vector<WideCandidate> candidates;
  std::vector<std::vector<TensorId>> members;   // per candidate: a group's tensors in g0
  std::vector<std::vector<std::string>> names;  // per candidate: tensors, or one layer
  std::vector<bool> is_layer;
  for (const FormatGroup& g : base.planner.groups()) {
    if (!g.may_widen || g.signal <= 0.0 || g.noise <= 0.0) continue;
    WideCandidate c{0.0, g.extra_macs, false};
    names.emplace_back();
    for (TensorId t : g.members) {
      const std::string& name = g0.tensor(t).name;
      names.back().push_back(name);
      c.head = c.head || outputs.count(name) != 0;
    }
    candidates.push_back(c);
    members.push_back(g.members);
    is_layer.push_back(false);
  }
  std::map<std::string, NodeId> node_of;
  for (size_t k = 0; k < g0.nodes.size(); ++k) node_of[g0.nodes[k].name] = static_cast<NodeId>(k);
  for (const PerLayerChoice::Layer& layer : choice.layers()) {
    candidates.push_back({0.0, layer.macs, output_makers.count(layer.name) != 0});
    members.emplace_back();
    names.push_back({layer.name});
    is_layer.push_back(true);
  }
  // Each candidate's measured effect: its worst output's noise-to-signal
  // ratio with only it at 8 bits on every calibration photograph; with
  // budget_search each photograph at its fold's lengths — those of the
  // statistics without it, as the folds' programs see it — and the errors
  // pooled over the folds. A layer's probe reads its int8 weights and bias
  // as the program would hold them (compensated rounding, weights.h),
  // appended to the float graph beside its own: nearest rounding at the
  // no-clip length would price the weights above what they cost.
  OPUC_ASSIGN_OR_RETURN(const PerLayerChoice::Config unsplit,
                        choice.Make({}, on_all.stats, on_all.grams));
  std::vector<std::vector<OutputNoise>> pooled(candidates.size(),
                                               std::vector<OutputNoise>(g0.outputs.size()));
  // Without budget_search, every photograph at the lengths of all views.
  std::vector<const std::vector<TensorStats>*> price_stats;
  std::vector<std::vector<std::vector<HostTensor>>> price_probes;
  for (size_t f = 0; f < folds.probes.size(); ++f) {
    if (options.budget_search || f == 0) {
      price_stats.push_back(options.budget_search ? &folds.stats[f] : &on_all.stats);
      price_probes.emplace_back();
    }
    for (const std::vector<HostTensor>& probe : folds.probes[f])
      price_probes.back().push_back(probe);
  }
  for (size_t f = 0; f < price_stats.size(); ++f) {
    const PlannedConfig fold =
        PlanConfig(g0, stats_of(*price_stats[f]), {}, {}, options.i16_in_one_pass);
    const ActivationFormats eight = fold.planner.Plan(fold.wide);
    OPUC_ASSIGN_OR_RETURN(const Graph rounded, WithRoundedWeights(g0, eight.bits, unsplit.grams));
    Graph probed = rounded;
    for (size_t k = 0; k < g0.nodes.size(); ++k) probed.nodes[k].inputs = g0.nodes[k].inputs;
    std::vector<EightBitCandidate> probes_of(candidates.size());
    for (size_t k = 0; k < candidates.size(); ++k) {
      if (is_layer[k]) {
        const NodeId node = node_of.at(names[k][0]);
        probes_of[k].inputs[node] = rounded.node(node).inputs;
      }
      for (TensorId t : members[k])
        probes_of[k].rounded.push_back(
            {t, eight.format[static_cast<size_t>(t)], eight.bits[static_cast<size_t>(t)]});
    }
    OPUC_ASSIGN_OR_RETURN(const std::vector<std::vector<OutputNoise>> sums,
                          OutputNoiseSums(probed, probes_of, price_probes[f]));
    for (size_t k = 0; k < candidates.size(); ++k)
      for (size_t o = 0; o < g0.outputs.size(); ++o) {
        pooled[k][o].noise += sums[k][o].noise;
        pooled[k][o].signal += sums[k][o].signal;
      }
  }
  for (size_t k = 0; k < candidates.size(); ++k)
    for (const OutputNoise& o : pooled[k])
      if (o.signal > 0.0) candidates[k].ratio = std::max(candidates[k].ratio, o.noise / o.signal);
  const auto setting_of = [&](const std::vector<bool>& wide) {
    PerLayerSetting s;
    for (size_t k = 0; k < candidates.size(); ++k) {
      if (!wide[k]) continue;
      if (!is_layer[k]) {
        s.wide_tensors.insert(names[k].begin(), names[k].end());
        continue;
      }
      s.wide_layers.insert(names[k][0]);
    }
    // A layer's partial sums are i16: its 16-bit weights' worth needs them.
    for (const PerLayerChoice::Layer& layer : choice.layers())
      if (s.wide_layers.count(layer.name) != 0) {
        s.wide_tensors.insert(layer.high_sum);
        s.wide_tensors.insert(layer.low_sum);
      }
    return s;
  };
  // The extra array passes of a configuration: the i16 groups' second
  // passes and the low halves of the split layers, over the model's own MACs.
  const auto passes = [](const PerLayerChoice::Config& c, const PlannedConfig& p,
                         QuantizeReport* report) {
    int64_t extra = 0, low_macs = 0, groups = 0;
    for (size_t k = 0; k < p.wide.size(); ++k)
      if (p.wide[k] && p.planner.groups()[k].may_widen) {
        extra += p.planner.groups()[k].extra_macs;
        ++groups;
      }
    for (const SplitLayer& layer : c.split) low_macs += NodeMacs(c.graph, layer.low);
    const int64_t model_macs = p.planner.total_macs() - low_macs;
    const double percent = model_macs > 0 ? 100.0 * static_cast<double>(extra + low_macs) /
                                                static_cast<double>(model_macs)
                                          : 0.0;
    if (report != nullptr) {
      report->wide_groups = groups;
      report->wide_weight_layers = static_cast<int64_t>(c.split.size());
      report->extra_mac_passes_percent = percent;
    }
    return percent;
  };
  const auto extra_passes = [&](const PerLayerSetting& s) -> Expected<double> {
    OPUC_ASSIGN_OR_RETURN(const PerLayerChoice::Config c,
                          choice.Make(s.wide_layers, on_all.stats, on_all.grams));
    return passes(
        c, PlanConfig(c.graph, c.stats, c.partial_sums, s.wide_tensors, options.i16_in_one_pass),
        nullptr);
  };
  const auto build = [&](const PerLayerSetting& s,
                         const std::vector<TensorStats>& stats) -> Expected<QuantizedGraph> {
    OPUC_ASSIGN_OR_RETURN(PerLayerChoice::Config c,
                          choice.Make(s.wide_layers, stats, on_all.grams));
    const PlannedConfig p =
        PlanConfig(c.graph, c.stats, c.partial_sums, s.wide_tensors, options.i16_in_one_pass);
    OPUC_ASSIGN_OR_RETURN(QuantizedGraph q,
                          Lower(c.graph, p.planner.Plan(p.wide), c.grams, options.threads));
    passes(c, p, &q.report);
    return q;
  };
  const double target = options.target_sqnr_db + options.margin_db;
  // What each fold's photographs are measured against: the program with
  // every candidate at 16 bits, calibrated as the fold's programs are. The
  // choice answers for the noise its 8-bit candidates add, not for what
  // ranges fit to other photographs cost every precision (docs/quantization.md).
  const size_t fold_count = folds.kept.size();
  std::vector<std::vector<std::vector<HostTensor>>> references(fold_count);
  for (size_t f = 0; f < fold_count; ++f) {
    OPUC_ASSIGN_OR_RETURN(
        const QuantizedGraph wide,
        build(setting_of(std::vector<bool>(candidates.size(), true)), folds.stats[f]));
    for (const std::vector<HostTensor>& sample : folds.kept[f]) {
      OPUC_ASSIGN_OR_RETURN(std::vector<HostTensor> out, RunCpu(wide.graph, sample));
      references[f].push_back(std::move(out));
    }
  }
  // A setting's least output SQNR, each fold's photographs measured on the
  // program calibrated without them, the errors pooled over every fold;
  // each setting measured once, whichever search asks.
  std::map<std::vector<bool>, double> measured;
  const auto measure = [&](const std::vector<bool>& wide) -> Expected<double> {
    const auto known = measured.find(wide);
    if (known != measured.end()) return known->second;
    const PerLayerSetting setting = setting_of(wide);
    std::vector<AccuracyMeter> meters(equalized.outputs.size());
    for (size_t f = 0; f < fold_count; ++f) {
      OPUC_ASSIGN_OR_RETURN(const QuantizedGraph q, build(setting, folds.stats[f]));
      OPUC_RETURN_IF_ERROR(AddOutputErrors(q.graph, folds.kept[f], references[f], meters));
    }
    return measured[wide] = LeastSqnr(meters);
  };
  // The shortest prefix of the order by noise per MAC, then its costliest
  // candidates taken back, one at a time, where the kept photographs still
  // reach the target without them (the prices are each one's own effect,
  // and together they overlap).
  // With budget_search, also the knapsack under a noise budget, as it is,
  // and the cheaper of the two kept (extra array passes as the program
  // counts them): the knapsack already leaves expensive candidates at 8
  // bits, and taking back more on top of it overfits the folds (the face
  // detector: +51% instead of +62%, but 22.6 dB on evaluation/).
  const std::vector<size_t> order = BenefitPerCostOrder(candidates, base.planner.total_macs());
  const auto prefix = [&](size_t count) {
    std::vector<bool> wide(candidates.size(), false);
    for (size_t i = 0; i < count; ++i) wide[order[i]] = true;
    return wide;
  };
  OPUC_ASSIGN_OR_RETURN(
      const PrefixChoice by_order,
      ChooseShortestPrefix(order.size(), target, [&](size_t count) -> Expected<double> {
        return measure(prefix(count));
      }));
  const auto reaches = [&](double db) { return db >= target; };
  std::vector<bool> taken = prefix(by_order.count);
  double chosen_db = by_order.sqnr_db;
  if (reaches(chosen_db)) {
    std::vector<size_t> costly;  // in the order's sequence, so ties go to the earlier
    for (size_t k : order)
      if (taken[k]) costly.push_back(k);
    std::stable_sort(costly.begin(), costly.end(),
                     [&](size_t a, size_t b) { return candidates[a].cost > candidates[b].cost; });
    costly.resize(std::min(costly.size(), kNarrowingTrials));
    for (size_t k : costly) {
      if (candidates[k].cost == 0) break;
      taken[k] = false;
      OPUC_ASSIGN_OR_RETURN(const double db, measure(taken));
      if (reaches(db)) {
        chosen_db = db;
      } else {
        taken[k] = true;
      }
    }
  }
  if (options.budget_search) {
    OPUC_ASSIGN_OR_RETURN(const BudgetChoice by_budget,
                          ChooseByNoiseBudget(candidates, target, measure));
    OPUC_ASSIGN_OR_RETURN(const double budget_cost, extra_passes(setting_of(by_budget.wide)));
    OPUC_ASSIGN_OR_RETURN(const double order_cost, extra_passes(setting_of(taken)));
    if (reaches(by_budget.sqnr_db) && (!reaches(chosen_db) || budget_cost < order_cost)) {
      taken = by_budget.wide;
      chosen_db = by_budget.sqnr_db;
    }
  }
  // A candidate that costs no array pass (an i16 the array reads whole) is
  // taken whatever the folds say: only its bytes cost (face detector: 24.2
  // -> 26.8 dB on evaluation/, 2.6% more cycles).
  bool freed = false;
  for (size_t k = 0; k < candidates.size(); ++k)
    if (candidates[k].cost == 0 && !taken[k]) taken[k] = freed = true;
  if (freed) {
    OPUC_ASSIGN_OR_RETURN(const double db, measure(taken));
    chosen_db = db;
  }
  // The program: the chosen setting, calibrated on every sample.
  const PerLayerSetting setting = setting_of(taken);
  OPUC_ASSIGN_OR_RETURN(QuantizedGraph result, build(setting, on_all.stats));
  QuantizeReport& report = result.report;
  report.calibration_samples = static_cast<int64_t>(calibration.size());
  report.equalized_pairs = pairs;
  report.precision_rounds = static_cast<int64_t>(measured.size());
  report.held_out_sqnr_db = folds.held_out ? chosen_db : std::nan("");
  size_t kept_samples = 0;
  for (const auto& fold : folds.kept) kept_samples += fold.size();
  report.held_out_samples = folds.held_out ? static_cast<int64_t>(kept_samples) : 0;
  report.candidate_groups =
      static_cast<int64_t>(std::count(is_layer.begin(), is_layer.end(), false));
  report.candidate_layers =
      static_cast<int64_t>(std::count(is_layer.begin(), is_layer.end(), true));
  // The least SQNR on the samples the program was calibrated on.
  std::vector<std::vector<HostTensor>> all_references;
  for (const std::vector<HostTensor>& sample : calibration) {
    OPUC_ASSIGN_OR_RETURN(std::vector<HostTensor> out, RunCpu(equalized, sample));
    all_references.push_back(std::move(out));
  }
  OPUC_ASSIGN_OR_RETURN(report.calibration_sqnr_db,
                        LeastSqnrOn(result.graph, calibration, all_references));
  return result;
}

}  // namespace opuc::quant
