//===- bench/quant_heldout_bench.cc - Accuracy on photographs no choice saw ===//
//
// Claim (issue 49, docs/quantization.md "A choice that holds on
// new photographs"): what each precision setting gives on the held-out photographs
// of the image cache (heldout/: camera, basketball2, baboon, home; in
// neither the calibration nor the evaluation set, and seen by no choice
// the quantizer makes) and what it costs. For each model and setting it
// prints the least output SQNR against the float model (dB) over the
// held-out photographs and over evaluation/, each output's held-out SQNR,
// and the extra array passes over int8 (QuantizeReport).
//
// Settings, each calibrated on calibration/ as `opuc compile` does:
//   int8           --precision int8
//   mixed          --precision mixed (the photographs as they are, the target on them)
//   int16+w16      --precision int16 --wide-weights
//   8-bit          u8 and i8 only, on the augmented views: what the default
//                  starts from before it widens anything
//   default        `opuc compile`'s default (DefaultQuantizeOptions, on the
//                  augmented views of the calibration photographs)
//
//   build/bench/quant_heldout_bench [--only SETTING]... [--margin DB] [--people] [--budget]
//                                   [model ...]
//     (default: face_detection_short_range hand_landmark_lite selfie_segmentation;
//     --margin sets the default's QuantizeOptions::margin_db, to measure it;
//     --budget sets its budget_search: the knapsack beside the prefix;
//     --people calibrates every setting on calibration/ and people/, the four
//     photographs of people docs/calibration.md keeps apart)
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "opuc/cpu/executor.h"
#include "opuc/image/augment.h"
#include "opuc/quant/accuracy.h"
#include "opuc/quant/quantize.h"
#include "quant_bench_models.h"

namespace {

using namespace opuc;
using bench::Samples;

Samples ToSamples(std::vector<CalibrationSample> set) {
  Samples samples;
  for (CalibrationSample& s : set) samples.push_back({std::move(s.tensor)});
  return samples;
}

Expected<std::vector<double>> OutputSqnr(const Graph& float_graph, const Graph& quantized,
                                         const Samples& samples) {
  std::vector<AccuracyMeter> meters(float_graph.outputs.size());
  for (const std::vector<HostTensor>& sample : samples) {
    OPUC_ASSIGN_OR_RETURN(const std::vector<HostTensor> want, RunCpu(float_graph, sample));
    OPUC_ASSIGN_OR_RETURN(const std::vector<HostTensor> got, RunCpu(quantized, sample));
    for (size_t o = 0; o < meters.size(); ++o) OPUC_RETURN_IF_ERROR(meters[o].Add(want[o], got[o]));
  }
  std::vector<double> db;
  for (const AccuracyMeter& m : meters) db.push_back(m.Finish("").sqnr_db);
  return db;
}

double Least(const std::vector<double>& v) {
  return v.empty() ? 0.0 : *std::min_element(v.begin(), v.end());
}

struct Setting {
  const char* name;
  QuantizeOptions options;
  bool augmented;
};

/// Calibration samples from the photographs of `dirs`, in the order of
/// their file names across the folders (as if they were one folder: the
/// folds take photographs round-robin), each photograph's views together.
Expected<Samples> LoadSets(const std::vector<std::string>& dirs, const TensorType& input,
                           const PreprocessOptions& pre, bool augmented) {
  std::vector<std::pair<std::string, Samples>> photographs;
  for (const std::string& dir : dirs) {
    OPUC_ASSIGN_OR_RETURN(auto set, augmented ? LoadAugmentedCalibrationSet(dir, input, pre)
                                              : LoadCalibrationSet(dir, input, pre));
    for (CalibrationSample& s : set) {
      const std::string file = std::filesystem::path(s.path).filename().string();
      if (photographs.empty() || photographs.back().first != file)
        photographs.push_back({file, {}});
      photographs.back().second.push_back({std::move(s.tensor)});
    }
  }
  std::stable_sort(photographs.begin(), photographs.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  Samples samples;
  for (auto& p : photographs)
    for (auto& sample : p.second) samples.push_back(std::move(sample));
  return samples;
}

Status RunModel(const std::string& name, const std::vector<std::string>& only,
                const double* margin_db, bool people, bool budget) {
  const std::string image_dir = FetchedImagesDir();
  OPUC_ASSIGN_OR_RETURN(LoadedModel model, LoadModel(FetchedModelsDir() + "/" + name + ".tflite"));
  Graph graph = std::move(model.graph);
  PassContext ctx;
  ctx.opt_level = 3;
  PassCounters counters;
  OPUC_ASSIGN_OR_RETURN(auto pipeline, CreatePipeline(DefaultPipelineNames()));
  OPUC_RETURN_IF_ERROR(pipeline->Run(graph, ctx, counters).status());
  const TensorType input = graph.tensor(graph.inputs[0]).type();
  OPUC_ASSIGN_OR_RETURN(const PreprocessOptions pre, DefaultPreprocess(name, input));
  std::vector<std::string> dirs = {image_dir + "/calibration"};
  if (people) dirs.push_back(image_dir + "/people");
  OPUC_ASSIGN_OR_RETURN(const Samples calibration, LoadSets(dirs, input, pre, false));
  OPUC_ASSIGN_OR_RETURN(const Samples augmented, LoadSets(dirs, input, pre, true));
  OPUC_ASSIGN_OR_RETURN(auto held, LoadCalibrationSet(image_dir + "/heldout", input, pre));
  OPUC_ASSIGN_OR_RETURN(auto eval, LoadCalibrationSet(image_dir + "/evaluation", input, pre));
  const Samples heldout = ToSamples(std::move(held)), evaluation = ToSamples(std::move(eval));

  QuantizeOptions int8, mixed, wide, eight, automatic = DefaultQuantizeOptions();
  automatic.views_per_photograph = kAugmentedViews;
  if (margin_db != nullptr) automatic.margin_db = *margin_db;
  automatic.budget_search = budget;
  mixed.precision = Precision::kMixed;
  wide.precision = Precision::kInt16;
  wide.wide_weights = true;
  eight.precision = Precision::kMixed;
  eight.target_sqnr_db = -std::numeric_limits<double>::infinity();
  const std::vector<Setting> settings = {{"int8", int8, false},
                                         {"mixed", mixed, false},
                                         {"int16+w16", wide, false},
                                         {"8-bit", eight, true},
                                         {"default", automatic, true}};
  std::printf("%s (outputs:", name.c_str());
  for (TensorId t : graph.outputs) std::printf(" %s", graph.tensor(t).name.c_str());
  std::printf(")\n  %-10s %9s %9s %8s %8s  %s\n", "setting", "held-out", "eval/", "passes",
              "seconds", "held-out per output");
  for (const Setting& s : settings) {
    if (!only.empty() && std::find(only.begin(), only.end(), s.name) == only.end()) continue;
    const auto start = std::chrono::steady_clock::now();
    OPUC_ASSIGN_OR_RETURN(QuantizedGraph q,
                          Quantize(graph, s.augmented ? augmented : calibration, s.options));
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    OPUC_ASSIGN_OR_RETURN(const std::vector<double> on_held, OutputSqnr(graph, q.graph, heldout));
    OPUC_ASSIGN_OR_RETURN(const std::vector<double> on_eval,
                          OutputSqnr(graph, q.graph, evaluation));
    std::printf("  %-10s %9.1f %9.1f %+7.0f%% %8.1f  ", s.name, Least(on_held), Least(on_eval),
                q.report.extra_mac_passes_percent, seconds);
    for (double db : on_held) std::printf(" %.1f", db);
    std::printf("   (%lld i16, %lld wide-weight layers",
                static_cast<long long>(q.report.i16_tensors),
                static_cast<long long>(q.report.wide_weight_layers));
    if (std::isfinite(q.report.held_out_sqnr_db))
      std::printf("; the folds: %.1f dB", q.report.held_out_sqnr_db);
    std::printf(")\n");
    std::fflush(stdout);
  }
  return OkStatus();
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> names, only;
  double margin = 0.0;
  bool margin_given = false, people = false, budget = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--people") {
      people = true;
      continue;
    }
    if (arg == "--budget") {
      budget = true;
      continue;
    }
    if (arg == "--margin" && i + 1 < argc) {
      margin = std::atof(argv[++i]);
      margin_given = true;
      continue;
    }
    if (arg == "--only" && i + 1 < argc) {
      only.push_back(argv[++i]);
      continue;
    }
    names.push_back(arg);
  }
  if (names.empty())
    names = {"face_detection_short_range", "hand_landmark_lite", "selfie_segmentation"};
  std::printf(
      "calibrated on calibration/%s (default: its photographs' %d views each), "
      "measured on heldout/ and evaluation/; passes: extra array passes over int8\n",
      people ? " and people/" : "", kAugmentedViews);
  if (margin_given) std::printf("default's margin: %.2f dB\n", margin);
  if (budget) std::printf("default's search: the knapsack beside the prefix (--budget)\n");
  for (const std::string& name : names) {
    Status s = RunModel(name, only, margin_given ? &margin : nullptr, people, budget);
    if (!s.ok()) {
      std::fprintf(stderr, "%s: %s\n", name.c_str(), s.ToString().c_str());
      return 1;
    }
  }
  return 0;
}
