//===- tools/opuc/compile.cc - `opuc compile` -----------------------------===//
//
// opuc compile MODEL -o PROG.opup [--hw NAME] [--opt-level N]
//              [--disable-pass P]... [--calibration DIR] [--preprocess SPEC]
//              [--precision auto|int8|mixed|int16] [--target-sqnr DB] [--wide-weights]
//              [--no-runs] [--report FILE]
//
// The stages print as they start when stderr is a terminal; the summary
// goes to stdout, the per-group report (JSON) to --report.
//
//===----------------------------------------------------------------------===//
#include "opuc/compile.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "opuc/calibration_inputs.h"
#include "opuc/compiler/compile.h"
#include "opuc/exit_codes.h"
#include "opuc/file_io/file_io.h"  // WriteFileBytes
#include "opuc/frontend/load_model.h"
#include "opuc/image/augment.h"
#include "opuc/output.h"
#include "opuc/precision_report.h"

namespace opuc::cli {
namespace {

using Json = nlohmann::ordered_json;

Json ReportJson(const std::string& model, const std::string& precision, const HwConfig& hw,
                const CompileReport& r) {
  Json groups = Json::array();
  for (const GroupReport& g : r.groups) {
    Json j = {{"group", g.group},
              {"step", g.step == StepKind::kOpu ? "opu" : "cpu"},
              {"partition", g.opu_group ? "opu" : "cpu"},
              {"ops", g.ops},
              {"macs", g.macs}};
    if (g.step == StepKind::kOpu && g.in_step_of >= 0) {
      j["in_step_of"] = g.in_step_of;  // its words and cycles are counted there
      j["tiling"] = g.tiling;
    } else if (g.step == StepKind::kOpu) {
      j["words"] = g.words;
      j["estimated_cycles"] = g.estimated_cycles;
      j["tiling"] = g.tiling;
    } else {
      j["reason"] = g.reason;
    }
    groups.push_back(j);
  }
  return {{"model", model},
          {"hw", hw.name},
          {"opu_steps", r.opu_steps},
          {"cpu_steps", r.cpu_steps},
          {"macs", {{"total", r.total_macs}, {"opu", r.opu_macs}}},
          {"estimated_cycles", r.estimated_cycles},
          {"bytes",
           {{"constants", r.constant_bytes}, {"dram", r.dram_bytes}, {"program", r.program_bytes}}},
          {"precision", PrecisionJson(precision, r.quantize)},
          {"groups", groups}};
}

std::string Percent(int64_t part, int64_t whole) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f%%",
                whole > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0);
  return text;
}

}  // namespace

int RunCompile(const CompileOptions& options, std::ostream& out, std::ostream& err) {
  Expected<HwConfig> hw = LoadHwConfig(options.hw);
  if (!hw.ok()) return ReportError(hw.status(), err);
  Expected<LoadedModel> model = LoadModel(options.model);
  if (!model.ok()) return ReportError(model.status(), err);
  const bool automatic = options.precision == "auto";
  Expected<std::vector<std::vector<HostTensor>>> samples = LoadCalibrationInputs(
      options.model, model->graph, options.calibration, options.preprocess, automatic);
  if (!samples.ok()) return ReportError(samples.status(), err);

  opuc::CompileOptions compile;
  compile.opt_level = options.opt_level;
  compile.disabled_passes = options.disabled_passes;
  if (automatic) {
    compile.quantize = DefaultQuantizeOptions();
    compile.quantize.views_per_photograph = kAugmentedViews;
  }
  compile.quantize.precision = options.precision == "int8"    ? Precision::kInt8
                               : options.precision == "int16" ? Precision::kInt16
                                                              : Precision::kMixed;
  compile.quantize.target_sqnr_db = options.target_sqnr;
  compile.quantize.wide_weights = options.wide_weights;
  compile.quantize.threads = options.threads;
  compile.plan.threads = options.threads;
  compile.plan.runs = !options.no_runs;
  compile.source_name = std::filesystem::path(options.model).filename().string();
  compile.source = std::move(model->file);  // hashed while the compile runs, then let go
  const bool terminal = isatty(STDERR_FILENO) != 0;
  Expected<CompiledModel> compiled = CompileModel(
      std::move(model->graph), *samples, *hw, std::move(compile), [&](std::string_view stage) {
        if (terminal) err << "compile: " << stage << "...\n" << std::flush;
      });
  if (!compiled.ok()) return ReportError(compiled.status().WithContext(options.model), err);
  const std::vector<uint8_t>& bytes = compiled->program;
  if (Status s = WriteFileBytes(options.output, bytes.data(), bytes.size()); !s.ok())
    return ReportError(s, err);
  const CompileReport& r = compiled->report;
  if (!options.report.empty()) {
    const std::string text = JsonText(ReportJson(options.model, options.precision, *hw, r)) + '\n';
    if (Status s = WriteFileBytes(options.report, text.data(), text.size()); !s.ok())
      return ReportError(s, err);
  }
  out << options.model << " -> " << options.output << " (" << r.program_bytes << " bytes) for "
      << hw->name << "\n  " << r.opu_steps << " OPU steps (" << Percent(r.opu_macs, r.total_macs)
      << " of the MACs), " << r.cpu_steps << " CPU steps; estimated " << r.estimated_cycles
      << " OPU cycles\n  DRAM " << r.dram_bytes << " bytes (" << r.constant_bytes
      << " of constants); " << samples->size() << " calibration samples\n  precision "
      << PrecisionSummary(options.precision, compiled->report.quantize) << "\n";
  return kExitOk;
}

Command AddCompileCommand(CLI::App& app) {
  return AddCommand(
      app, "compile",
      "Compile a model into an OPU program (.opup): passes, quantization, partition, codegen",
      [](CLI::App& cli, CompileOptions& o) {
        AddModelArgument(cli, o.model);
        cli.add_option("-o,--output", o.output, "The program file to write (.opup)")->required();
        cli.add_option("--hw", o.hw, "Hardware: a preset (opu1024, tiny) or a JSON file")
            ->capture_default_str();
        cli.add_option("--opt-level", o.opt_level, "Optimization level of the pass pipeline (0-3)")
            ->check(CLI::Range(0, 3))
            ->capture_default_str();
        cli.add_option("--disable-pass", o.disabled_passes, "A pass not to run (repeatable)")
            ->allow_extra_args(false);
        cli.add_option("--calibration", o.calibration,
                       "Folder of calibration samples (.png, .jpg, .npy); default: the fetched "
                       "photographs' calibration set");
        cli.add_option("--preprocess", o.preprocess,
                       "key=value,... over the model's preprocessing (docs/calibration.md)");
        cli.add_option("--precision", o.precision,
                       "auto (16 bits where photographs kept from the choice need them, "
                       "activations and layers' weights), int8, mixed or int16")
            ->check(CLI::IsMember({"auto", "int8", "mixed", "int16"}))
            ->capture_default_str();
        cli.add_option("--target-sqnr", o.target_sqnr,
                       "With --precision auto or mixed: the least output SQNR (dB) to reach "
                       "(auto: on each calibration photograph, calibrated without it)")
            ->capture_default_str();
        cli.add_flag("--wide-weights", o.wide_weights,
                     "16-bit weights: each inner product as two 8-bit ones, the high byte and "
                     "the residual (with --precision mixed or int16; docs/numerics.md 1c)");
        cli.add_option(
               "--threads", o.threads,
               "Threads for the weights' rounding factors and codegen's tiling searches (0: one "
               "per core; the program is the same for any count)")
            ->check(CLI::Range(0, 1024))
            ->capture_default_str();
        cli.add_flag("--no-runs", o.no_runs,
                     "Each OPU group (or chained pair) a step of its own, not the OPU groups "
                     "between two CPU steps one program (docs/codegen.md, \"Runs\"): each "
                     "group's cycles on their own, at the cost of its ends");
        cli.add_option("--report", o.report,
                       "Write what each group became (JSON: steps, estimated cycles, tiling)");
      },
      RunCompile);
}

}  // namespace opuc::cli
