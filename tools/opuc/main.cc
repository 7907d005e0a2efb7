//===- tools/opuc/main.cc - The opuc command line -------------------------===//
//
// Parses the command line (CLI11) and hands each subcommand to its own file.
// Usage errors exit with 2, like bad input (docs/cli.md).
//
//===----------------------------------------------------------------------===//
#include <CLI/CLI.hpp>
#include <flatbuffers/base.h>
#include <iostream>

#include "opuc/exit_codes.h"
#include "opuc/inspect.h"
#include "opuc/opt.h"
#include "opuc/partition.h"
#include "opuc/quantize.h"
#include "opuc/run.h"
#include "opuc/version.h"

namespace {

constexpr const char* kDescription =
    "opuc: ahead-of-time compiler for the OPU (Overlay Processing Unit) FPGA accelerator.\n"
    "Reads .tflite and .opug models; see `opuc <command> --help` for each command.";

std::string VersionText() {
  return std::string("opuc ") + OPUC_VERSION + " (FlatBuffers " +
         std::to_string(FLATBUFFERS_VERSION_MAJOR) + "." +
         std::to_string(FLATBUFFERS_VERSION_MINOR) + "." +
         std::to_string(FLATBUFFERS_VERSION_REVISION) + ")";
}

bool IsCommand(const CLI::App& app, const std::string& name) {
  for (const CLI::App* command : app.get_subcommands({}))
    if (command->get_name() == name) return true;
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace opuc::cli;
  CLI::App app(kDescription, "opuc");
  app.set_version_flag("--version", VersionText());
  app.require_subcommand(1);

  InspectOptions inspect;
  CLI::App* inspect_cmd = app.add_subcommand(
      "inspect", "Print a model's format, operators, inputs, outputs and constant size");
  inspect_cmd->add_option("MODEL", inspect.model, "Model file (.tflite, .opug, .opug.json)")
      ->required();
  inspect_cmd->add_flag("--json", inspect.json, "Print one JSON object instead of text");

  RunOptions run;
  CLI::App* run_cmd = app.add_subcommand(
      "run", "Run a model on a device and write each output as a NumPy .npy file");
  run_cmd->add_option("MODEL", run.model, "Model file (.tflite, .opug, .opug.json)")->required();
  run_cmd->add_option("--device", run.device, "Where to run: ref (the float reference)")
      ->required();
  run_cmd->add_option("--input", run.inputs, "NAME=FILE.npy for a graph input (repeatable)")
      ->allow_extra_args(false);
  run_cmd->add_option("--output-dir", run.output_dir, "Where to write <output>.npy files")
      ->capture_default_str();
  run_cmd->add_option("--seed", run.seed, "Seed for inputs without --input")
      ->capture_default_str();
  run_cmd->add_flag("--json", run.json, "Print one JSON object instead of text");

  OptOptions opt;
  CLI::App* opt_cmd = app.add_subcommand(
      "opt", "Run a pipeline of graph passes over a model, like LLVM's opt");
  opt_cmd->add_option("MODEL", opt.model, "Model file (.tflite, .opug, .opug.json)")->required();
  opt_cmd->add_option("--passes", opt.passes, "Comma-separated pass names (default pipeline if omitted)")
      ->delimiter(',');
  opt_cmd->add_option("--opt-level", opt.opt_level, "Optimization level 0-3")
      ->check(CLI::Range(0, 3))
      ->capture_default_str();
  opt_cmd->add_option("--disable-pass", opt.disabled, "Never run this pass (repeatable)");
  opt_cmd->add_option("--require-pass", opt.required,
                      "Run this pass whatever its level (repeatable)");
  opt_cmd->add_option("--config", opt.config, "KEY=VALUE pass option (repeatable)");
  opt_cmd->add_flag("--print-ir", opt.print_ir, "Print the resulting IR on stdout");
  opt_cmd->add_flag("--print-ir-after-all", opt.print_ir_after_all,
                    "Print the IR after every pass run");
  opt_cmd->add_flag("--time", opt.time, "Report each pass's time and counters on stderr");
  opt_cmd->add_flag("--verify-each", opt.verify_each, "Verify the IR after every pass");
  opt_cmd->add_option("-o,--output", opt.output, "Write the result (.opug or .opug.json)");

  QuantizeOptions quantize;
  CLI::App* quantize_cmd = app.add_subcommand(
      "quantize", "Quantize a model to the OPU's fixed point and report its accuracy vs float");
  quantize_cmd->add_option("MODEL", quantize.model, "Model file (.tflite, .opug, .opug.json)")
      ->required();
  quantize_cmd->add_option("--calibration", quantize.calibration,
                           "Folder of .png/.npy samples (default: the images scripts/setup "
                           "fetched, $OPUC_IMAGES_DIR or ~/.cache/opuc/images)");
  quantize_cmd->add_option("--preprocess", quantize.preprocess,
                           "Image preprocessing over the model's defaults: "
                           "size=HxW,scale=S,offset=O,order=rgb|bgr");
  quantize_cmd->add_option("--holdout", quantize.holdout,
                           "Samples kept out of calibration for the report: every k-th by name "
                           "from the first (default: a third)")
      ->check(CLI::PositiveNumber);
  quantize_cmd->add_option("--min-sqnr", quantize.min_sqnr,
                           "Exit with 1 when an output's SQNR (dB) is below this");
  quantize_cmd->add_flag("--refine-lengths", quantize.refine_lengths,
                         "Refine activation lengths against the outputs on the calibration "
                         "samples (slower; best when they show what the model will see)");
  quantize_cmd->add_flag("--per-tensor", quantize.per_tensor,
                         "Also report every activation's error (where the error comes from)");
  quantize_cmd->add_flag("--json", quantize.json, "Print one JSON object instead of text");
  quantize_cmd->add_option("-o,--output", quantize.output,
                           "Write the quantized graph (.opug or .opug.json)");

  PartitionOptions partition;
  CLI::App* partition_cmd = app.add_subcommand(
      "partition", "Split a model into OPU groups and CPU groups, and say why (docs/hdfg.md)");
  partition_cmd->add_option("MODEL", partition.model, "Model file (.tflite, .opug, .opug.json)")
      ->required();
  partition_cmd->add_option("--hw", partition.hw, "Hardware: a preset (opu1024, tiny) or a JSON file")
      ->capture_default_str();
  partition_cmd->add_option("--opt-level", partition.opt_level,
                            "Optimization level of the default pipeline run first (0-3)")
      ->check(CLI::Range(0, 3))
      ->capture_default_str();
  partition_cmd->add_flag("--json", partition.json, "Print one JSON object instead of text");
  partition_cmd->add_option("--dot", partition.dot, "Write the graph, coloured by group, as Graphviz");

  // CLI11 would call an unknown command "A subcommand is required"; name it.
  if (argc > 1 && argv[1][0] != '-' && !IsCommand(app, argv[1])) {
    std::cerr << "opuc: error: unknown command '" << argv[1]
              << "' (commands: inspect, opt, partition, quantize, run; see opuc --help)\n";
    return kExitBadInput;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {  // --help, --version
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return kExitBadInput;
  }

  if (inspect_cmd->parsed()) return RunInspect(inspect, std::cout, std::cerr);
  if (run_cmd->parsed()) return RunRun(run, std::cout, std::cerr);
  if (opt_cmd->parsed()) return RunOpt(opt, std::cout, std::cerr);
  if (partition_cmd->parsed()) return RunPartition(partition, std::cout, std::cerr);
  if (quantize_cmd->parsed()) return RunQuantize(quantize, std::cout, std::cerr);
  return kExitBadInput;
}
