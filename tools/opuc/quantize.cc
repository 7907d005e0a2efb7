//===- tools/opuc/quantize.cc - `opuc quantize` ---------------------------===//
//
// opuc quantize MODEL [--calibration DIR] [--evaluate DIR2 | --holdout N]
//                     [--precision int8|mixed|int16] [--target-sqnr DB] [--wide-weights]
//                     [--preprocess SPEC] [--min-sqnr DB] [--json] [-o OUT.opug]
//
// With --evaluate, every sample of DIR calibrates and every sample of DIR2 is
// reported on; without --calibration, DIR and DIR2 are the two sets of the
// fetched photographs. Otherwise the samples of DIR (sorted by name) are split: N of
// them, spread evenly from the first, are held out for the report; the rest
// calibrate. Images are preprocessed as MediaPipe does for the model
// (opuc/image/model_defaults.h) unless --preprocess says otherwise.
//
//===----------------------------------------------------------------------===//
#include "opuc/quantize.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>

#include "opuc/calibration_inputs.h"
#include "opuc/exit_codes.h"
#include "opuc/image/augment.h"
#include "opuc/image/calibration_set.h"
#include "opuc/image/model_defaults.h"
#include "opuc/optimized_model.h"
#include "opuc/opug/opug.h"
#include "opuc/output.h"
#include "opuc/precision_report.h"
#include "opuc/quant/accuracy.h"
#include "opuc/quant/quantize.h"
#include "support/fetched_data.h"

namespace opuc::cli {
namespace {

using Json = nlohmann::ordered_json;
using Samples = std::vector<std::vector<HostTensor>>;

struct SplitSamples {
  std::string calibration_dir, evaluation_dir;
  bool held_out = true;  ///< The evaluation samples were held out of the calibration folder.
  Samples calibration, evaluation;
  std::vector<std::string> calibration_files, evaluation_files;
  std::vector<std::string> calibration_paths;
};

/// Appends `sample` to `samples` and its file name to `files`.
void Add(CalibrationSample sample, Samples& samples, std::vector<std::string>& files,
         std::vector<std::string>* paths = nullptr) {
  if (paths) paths->push_back(sample.path);
  files.push_back(std::filesystem::path(sample.path).filename());
  std::vector<HostTensor> inputs;
  inputs.push_back(std::move(sample.tensor));
  samples.push_back(std::move(inputs));
}

Expected<SplitSamples> LoadSamples(const QuantizeOptions& options, const Graph& graph) {
  if (graph.inputs.size() != 1)
    return InvalidArgument("graph '" + graph.name + "' has " + std::to_string(graph.inputs.size()) +
                           " inputs; opuc quantize takes models with one input");
  const TensorType input = graph.tensor(graph.inputs[0]).type();
  OPUC_ASSIGN_OR_RETURN(PreprocessOptions preprocess,
                        ChoosePreprocess(options.model, options.preprocess, input));
  // Without folders: the fetched photographs' two sets (docs/calibration.md).
  const bool fetched = options.calibration.empty();
  const std::string dir = fetched ? FetchedImagesDir() + "/calibration" : options.calibration;
  std::string evaluate = options.evaluate;
  if (fetched && evaluate.empty() && options.holdout == 0)
    evaluate = FetchedImagesDir() + "/evaluation";
  OPUC_ASSIGN_OR_RETURN(std::vector<CalibrationSample> all,
                        LoadCalibrationSet(dir, input, preprocess));
  SplitSamples split;
  split.calibration_dir = dir;
  if (!evaluate.empty()) {
    // Calibrate on all of one folder, evaluate on all of another.
    OPUC_ASSIGN_OR_RETURN(std::vector<CalibrationSample> other,
                          LoadCalibrationSet(evaluate, input, preprocess));
    split.evaluation_dir = evaluate;
    split.held_out = false;
    for (CalibrationSample& s : all)
      Add(std::move(s), split.calibration, split.calibration_files, &split.calibration_paths);
    for (CalibrationSample& s : other) Add(std::move(s), split.evaluation, split.evaluation_files);
    return split;
  }
  split.evaluation_dir = dir;
  const int count = static_cast<int>(all.size());
  const int holdout = options.holdout > 0 ? options.holdout : (count + 2) / 3;
  if (count < 2 || holdout >= count)
    return InvalidArgument(dir + ": " + std::to_string(count) + " samples; at least " +
                           std::to_string(holdout + 1) + " are needed to hold " +
                           std::to_string(holdout) + " out and calibrate on the rest");
  // Held out: samples 0, k, 2k, ... (k = count / holdout), spread over the
  // sorted list rather than its tail, so a run of similar names (frames of
  // one scene) does not end up all on one side.
  const int step = count / holdout;
  for (int i = 0; i < count; ++i) {
    const bool held = i % step == 0 && i / step < holdout;
    Add(std::move(all[static_cast<size_t>(i)]), held ? split.evaluation : split.calibration,
        held ? split.evaluation_files : split.calibration_files,
        held ? nullptr : &split.calibration_paths);
  }
  return split;
}

/// With --precision auto, the calibration part as each file's augmented
/// views (opuc/image/augment.h); the evaluation part stays as it is.
Status AugmentCalibration(const QuantizeOptions& options, const Graph& graph, SplitSamples& split) {
  const TensorType input = graph.tensor(graph.inputs[0]).type();
  OPUC_ASSIGN_OR_RETURN(PreprocessOptions preprocess,
                        ChoosePreprocess(options.model, options.preprocess, input));
  Samples views;
  for (const std::string& path : split.calibration_paths) {
    OPUC_ASSIGN_OR_RETURN(std::vector<CalibrationSample> each,
                          LoadAugmentedCalibrationSample(path, input, preprocess));
    for (CalibrationSample& v : each) views.push_back({std::move(v.tensor)});
  }
  split.calibration = std::move(views);
  return OkStatus();
}

Json JsonDb(double db) { return std::isfinite(db) ? Json(db) : Json(nullptr); }

/// "12.3" (one decimal), or "inf" when nothing was lost.
std::string FormatDb(double db) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", db);
  return std::isfinite(db) ? text : "inf";
}

std::string FormatPercent(double percent) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f%%", percent);
  return text;
}

/// One line per tensor; with the quantized graph, its fraction length too.
void PrintAccuracyTable(const std::vector<OutputAccuracy>& rows, const Graph& quantized,
                        std::ostream& out) {
  std::map<std::string, int> bits;
  for (const Tensor& t : quantized.tensors)
    if (t.fixed_point.fraction_bits.size() == 1) bits[t.name] = t.fixed_point.fraction_bits[0];
  out << "tensor                                  SQNR (dB)    cosine  max |error|\n";
  for (const OutputAccuracy& a : rows) {
    // TFLite's fused names run to hundreds of characters: keep the start
    // and the end (where "/high", "/low" and the op's own name are).
    std::string name = a.name;
    if (name.size() > 38) name = name.substr(0, 17) + "..." + name.substr(name.size() - 18);
    char numbers[64];
    std::snprintf(numbers, sizeof(numbers), " %10.2f %9.5f  %-10.6g", a.sqnr_db, a.cosine,
                  a.max_abs_error);
    out << name << std::string(38 - std::min<size_t>(38, name.size()), ' ') << numbers;
    if (bits.count(a.name)) out << "  f=" << bits[a.name];
    out << '\n';
  }
}

void PrintText(const SplitSamples& split, const QuantizeReport& report,
               const std::vector<OutputAccuracy>& outputs, std::ostream& out) {
  auto list = [](const std::vector<std::string>& names) {
    std::string text;
    for (const std::string& n : names) text += (text.empty() ? "" : ", ") + n;
    return text;
  };
  out << "calibrated on " << split.calibration.size() << " samples of " << split.calibration_dir
      << " (" << list(split.calibration_files) << ")\n";
  out << "evaluated on  " << split.evaluation.size()
      << (split.held_out ? " held-out samples of " : " samples of ") << split.evaluation_dir << " ("
      << list(split.evaluation_files) << ")\n";
  out << report.activations << " activations: " << report.u8_tensors << " u8, " << report.i8_tensors
      << " i8, " << report.i16_tensors << " i16 (extra MAC passes "
      << FormatPercent(report.extra_mac_passes_percent) << ")";
  if (report.candidate_groups + report.candidate_layers > 0)
    out << "\nprecision " << PrecisionSummary("auto", report);
  else if (report.precision_rounds > 0)
    out << "; mixed precision: " << FormatDb(report.calibration_sqnr_db)
        << " dB least output SQNR on the calibration samples after " << report.precision_rounds
        << " measured configurations";
  if (report.refined_groups > 0) out << " (" << report.refined_groups << " length groups refined)";
  out << "\n";
  if (report.wide_weight_layers > 0)
    out << report.wide_weight_layers
        << " layers with 16-bit weights, each two int8 inner products\n";
  out << report.weights << " weights int8 (" << report.saturated_weights << " saturated, "
      << report.compensated_channels << " channels rounded with compensation, "
      << report.lowered_channels << " lowered for their bias or bound), " << report.tables
      << " tables\n\n";
  PrintAccuracyTable(outputs, Graph(), out);
}

Json ToJson(const SplitSamples& split, const std::string& setting, const QuantizeReport& report,
            const std::vector<OutputAccuracy>& outputs) {
  Json list = Json::array();
  for (const OutputAccuracy& a : outputs)
    list.push_back({{"name", a.name},
                    {"sqnr_db", JsonDb(a.sqnr_db)},
                    {"cosine", a.cosine},
                    {"max_abs_error", a.max_abs_error}});
  return {{"outputs", list},
          {"calibration_images", split.calibration.size()},
          {"evaluation_images", split.evaluation.size()},
          {"calibration_files", split.calibration_files},
          {"evaluation_files", split.evaluation_files},
          {"calibration_dir", split.calibration_dir},
          {"evaluation_dir", split.evaluation_dir},
          {"held_out", split.held_out},
          {"activations", report.activations},
          {"weights", report.weights},
          {"saturated_weights", report.saturated_weights},
          {"compensated_channels", report.compensated_channels},
          {"refined_groups", report.refined_groups},
          {"lowered_channels", report.lowered_channels},
          {"tables", report.tables},
          {"precision", PrecisionJson(setting, report)}};
}

}  // namespace

int RunQuantize(const QuantizeOptions& options, std::ostream& out, std::ostream& err) {
  const bool progress = isatty(STDERR_FILENO) && !options.json;
  Expected<Graph> graph = LoadOptimizedModel(options.model);
  if (!graph.ok()) return ReportError(graph.status(), err);
  Expected<SplitSamples> split = LoadSamples(options, *graph);
  if (!split.ok()) return ReportError(split.status(), err);
  const bool automatic = options.precision == "auto";
  if (automatic) {
    if (Status s = AugmentCalibration(options, *graph, *split); !s.ok()) return ReportError(s, err);
  }
  if (progress) err << "calibrating on " << split->calibration.size() << " samples...\n";
  opuc::QuantizeOptions quantize_options;
  if (automatic) {
    quantize_options = DefaultQuantizeOptions();
    quantize_options.views_per_photograph = kAugmentedViews;
  }
  quantize_options.refine_lengths = options.refine_lengths;
  quantize_options.precision = options.precision == "int8"    ? Precision::kInt8
                               : options.precision == "int16" ? Precision::kInt16
                                                              : Precision::kMixed;
  quantize_options.target_sqnr_db = options.target_sqnr;
  quantize_options.wide_weights = options.wide_weights;
  quantize_options.threads = options.threads;
  Expected<QuantizedGraph> quantized = Quantize(*graph, split->calibration, quantize_options);
  if (!quantized.ok()) return ReportError(quantized.status().WithContext(options.model), err);
  if (progress) err << "comparing on " << split->evaluation.size() << " evaluation samples...\n";
  Expected<std::vector<OutputAccuracy>> accuracy =
      CompareWithFloat(*graph, quantized->graph, split->evaluation);
  if (!accuracy.ok()) return ReportError(accuracy.status().WithContext(options.model), err);

  if (options.json)
    out << JsonText(ToJson(*split, options.precision, quantized->report, *accuracy)) << '\n';
  else
    PrintText(*split, quantized->report, *accuracy, out);
  if (options.per_tensor && !options.json) {
    Expected<std::vector<OutputAccuracy>> each =
        CompareActivations(quantized->reference, quantized->graph, split->evaluation);
    if (!each.ok()) return ReportError(each.status().WithContext(options.model), err);
    out << "\nevery activation, in execution order:\n";
    PrintAccuracyTable(*each, quantized->graph, out);
  }
  if (!options.output.empty()) {
    Status saved = SaveOpugFile(quantized->graph, options.output);
    if (!saved.ok()) return ReportError(saved, err);
  }
  if (options.min_sqnr)
    for (const OutputAccuracy& a : *accuracy)
      if (a.sqnr_db < *options.min_sqnr) {
        err << "opuc quantize: output '" << a.name << "' has SQNR " << a.sqnr_db
            << " dB, below --min-sqnr " << *options.min_sqnr << '\n';
        return kExitCheckFailed;
      }
  return kExitOk;
}

Command AddQuantizeCommand(CLI::App& app) {
  return AddCommand(
      app, "quantize", "Quantize a model to the OPU's fixed point and report its accuracy vs float",
      [](CLI::App& cli, QuantizeOptions& o) {
        AddModelArgument(cli, o.model);
        cli.add_option("--calibration", o.calibration,
                       "Folder of .png/.jpg/.npy samples (default: the calibration set "
                       "scripts/setup fetched, then evaluated on its evaluation set: "
                       "$OPUC_IMAGES_DIR or ~/.cache/opuc/images, calibration/ and evaluation/)");
        cli.add_option("--preprocess", o.preprocess,
                       "Image preprocessing over the model's defaults: "
                       "size=HxW,scale=S,offset=O,order=rgb|bgr");
        CLI::Option* evaluate =
            cli.add_option("--evaluate", o.evaluate,
                           "Folder of .png/.jpg/.npy samples to report on; then every sample of "
                           "--calibration calibrates (no holdout)");
        cli.add_option("--holdout", o.holdout,
                       "Samples kept out of calibration for the report: every k-th by name "
                       "from the first (default: a third)")
            ->check(CLI::Range(1, std::numeric_limits<int>::max()))
            ->excludes(evaluate);
        cli.add_option("--min-sqnr", o.min_sqnr,
                       "Exit with 1 when an output's SQNR (dB) is below this")
            ->check(CLI::Validator(
                [](const std::string& text) {
                  const double v = std::strtod(text.c_str(), nullptr);
                  return std::isfinite(v) ? std::string() : "expected a finite number of dB";
                },
                "DB"));
        cli.add_option(
               "--precision", o.precision,
               "Activation formats: int8 (i8 only), mixed (u8 where non-negative, 16 bits where "
               "--target-sqnr needs them), int16 (16 bits wherever allowed) or auto (opuc "
               "compile's default: 16-bit activations and layers' weights chosen on the "
               "calibration photographs' augmented views, half of them kept from the statistics)")
            ->check(CLI::IsMember({"auto", "int8", "mixed", "int16"}))
            ->default_str("int8");
        cli.add_option("--target-sqnr", o.target_sqnr,
                       "With --precision mixed: the least output SQNR (dB) to reach on the "
                       "calibration samples, with the fewest 16-bit activations")
            ->check(CLI::Range(0.0, 200.0))
            ->default_str("25");
        cli.add_flag("--wide-weights", o.wide_weights,
                     "16-bit weights: each conv and fully connected layer as two 8-bit inner "
                     "products, the high byte and the residual, and an add (with --precision "
                     "mixed or int16; docs/numerics.md 1c)");
        cli.add_option(
               "--threads", o.threads,
               "Threads for the weights' rounding factors (0: one per core; the result is the same "
               "for any count)")
            ->check(CLI::Range(0, 1024))
            ->default_str("0");
        cli.add_flag("--refine-lengths", o.refine_lengths,
                     "Refine activation lengths against the outputs on the calibration "
                     "samples (slower; best when they show what the model will see)");
        cli.add_flag("--per-tensor", o.per_tensor,
                     "Also report every activation's error (where the error comes from)");
        cli.add_flag("--json", o.json, "Print one JSON object instead of text");
        cli.add_option("-o,--output", o.output, "Write the quantized graph (.opug or .opug.json)");
      },
      RunQuantize);
}

}  // namespace opuc::cli
