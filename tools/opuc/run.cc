//===- tools/opuc/run.cc - `opuc run` -------------------------------------===//
//
// opuc run MODEL|PROG.opup --device ref|cpu|fsim|rtl [--input NAME=FILE.npy]...
//          [--output-dir DIR] [--seed N] [--json] [--trace FILE [--trace-step N]...]
//          [--profile FILE]
//
// A model runs on the reference executor (ref) or the CPU executor (cpu); a
// program runs its CPU steps on the CPU executor and its OPU steps on the
// chosen device (ref: the integer reference, cpu: the CPU executor, fsim:
// the functional simulator, rtl: the Verilated RTL where the build has it).
// Inputs: opuc/graph_inputs.h.
//
//===----------------------------------------------------------------------===//
#include "opuc/run.h"

#include <cctype>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>

#include "opuc/exit_codes.h"
#include "opuc/graph_inputs.h"
#include "opuc/output.h"
#include "opuc/profile.h"
#include "opuc/program/program.h"
#include "opuc/run_target.h"
#include "opuc/tensor_io/npy.h"

namespace opuc::cli {
namespace {

using Json = nlohmann::ordered_json;

/// A file name for each output: its name with characters other than
/// [A-Za-z0-9._-] replaced by '_', at most 120 bytes (a longer one keeps
/// its start and a hash of the whole), made unique, plus ".npy".
std::vector<std::string> OutputFileNames(const Graph& graph) {
  std::vector<std::string> names;
  std::set<std::string> used;
  for (size_t i = 0; i < graph.outputs.size(); ++i) {
    std::string name = graph.tensor(graph.outputs[i]).name;
    for (char& c : name)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-') c = '_';
    if (name.find_first_not_of('.') == std::string::npos) name = "output" + std::to_string(i);
    name = ShortFileName(name, 120);
    if (used.count(name + ".npy")) name += "_" + std::to_string(i);
    used.insert(name + ".npy");
    names.push_back(name + ".npy");
  }
  return names;
}

struct Stats {
  std::optional<double> min, max, mean;  ///< Empty for a tensor without elements.
};

/// Min and max ignore NaN; the mean (accumulated in double) does not.
Stats Summarize(const HostTensor& t) {
  Stats stats;
  if (t.elements() == 0) return stats;
  double sum = 0;
  for (int64_t i = 0; i < t.elements(); ++i) {
    const double v = t.ValueAt(i);
    sum += v;
    if (std::isnan(v)) continue;
    if (!stats.min || v < *stats.min) stats.min = v;
    if (!stats.max || v > *stats.max) stats.max = v;
  }
  stats.mean = sum / static_cast<double>(t.elements());
  return stats;
}

Json JsonNumber(const std::optional<double>& v) { return v ? Json(*v) : Json(nullptr); }

std::string TextNumber(const std::optional<double>& v) {
  if (!v) return "-";
  std::ostringstream text;
  text << std::setprecision(6) << *v;
  return text.str();
}

/// The model or program and what it computed.
struct Ran {
  RunTarget target;
  TargetRun run;
};

Expected<Ran> RunModelOrProgram(const RunOptions& options) {
  OPUC_ASSIGN_OR_RETURN(RunTarget target, LoadRunTarget(options.model));
  if (!options.profile.empty() && !target.program)
    return InvalidArgument(
        "--profile: a model runs without OPU steps to profile; compile it (opuc compile) and run "
        "the program");
  OPUC_ASSIGN_OR_RETURN(std::vector<HostTensor> inputs,
                        GatherInputs(options.inputs, options.seed, target.graph()));
  OPUC_ASSIGN_OR_RETURN(TargetRun run, RunOn(target, options.device, std::move(inputs),
                                             options.trace, options.trace_steps));
  return Ran{std::move(target), std::move(run)};
}

/// The clock cycles a device with a clock (rtl) counted over the OPU steps,
/// beside the estimator's; nothing for devices without one.
struct Cycles {
  int64_t measured = 0, estimated = 0, steps = 0;
};
Cycles CountCycles(const Ran& ran) {
  Cycles c;
  if (!ran.target.program) return c;
  for (size_t s = 0; s < ran.run.counters.size(); ++s) {
    const ProgramStep& step = ran.target.program->steps()[s];
    if (step.kind != StepKind::kOpu) continue;
    c.measured += ran.run.counters[s].cycles;
    c.estimated += step.estimated_cycles;
    ++c.steps;
  }
  return c;
}

}  // namespace

int RunRun(const RunOptions& options, std::ostream& out, std::ostream& err) {
  Expected<Ran> ran = RunModelOrProgram(options);
  if (!ran.ok()) return ReportError(ran.status(), err);
  const Graph& graph = ran->target.graph();
  const std::vector<HostTensor>* outputs = &ran->run.outputs;

  std::error_code ec;
  std::filesystem::create_directories(options.output_dir, ec);
  if (ec)
    return ReportError(
        IoError(options.output_dir + ": cannot create the output directory: " + ec.message()), err);
  const std::vector<std::string> files = OutputFileNames(graph);
  Json list = Json::array();
  for (size_t i = 0; i < outputs->size(); ++i) {
    const HostTensor& value = (*outputs)[i];
    const std::string name = graph.tensor(graph.outputs[i]).name;
    const std::string path = (std::filesystem::path(options.output_dir) / files[i]).string();
    if (Status s = WriteNpy(path, value); !s.ok()) return ReportError(s, err);
    const Stats stats = Summarize(value);
    if (options.json) {
      list.push_back({{"name", name},
                      {"shape", value.shape()},
                      {"dtype", DTypeName(value.dtype())},
                      {"file", path},
                      {"min", JsonNumber(stats.min)},
                      {"max", JsonNumber(stats.max)},
                      {"mean", JsonNumber(stats.mean)}});
      continue;
    }
    out << std::left << std::setw(24) << name << ' ' << std::setw(18) << DescribeType(value)
        << " min " << TextNumber(stats.min) << "  max " << TextNumber(stats.max) << "  mean "
        << TextNumber(stats.mean) << "  -> " << path << '\n';
  }
  if (!options.profile.empty())
    if (Status s =
            WriteProfile(options.profile, *ran->target.program, options.device, ran->run.counters);
        !s.ok())
      return ReportError(s, err);
  const Cycles cycles = CountCycles(*ran);
  const double mhz = ran->target.program ? ran->target.program->hw().array.clock_mhz : 0.0;
  if (options.json) {
    Json json{{"outputs", list}};
    if (cycles.measured > 0)
      json["cycles"] = {{"measured", cycles.measured},
                        {"estimated", cycles.estimated},
                        {"opu_steps", cycles.steps}};
    out << JsonText(json) << '\n';
  } else if (cycles.measured > 0) {
    out << options.device << ": " << cycles.measured << " cycles over " << cycles.steps
        << " OPU steps (" << TextNumber(static_cast<double>(cycles.measured) / mhz / 1000.0)
        << " ms at " << TextNumber(mhz) << " MHz; the estimator says " << cycles.estimated << ")\n";
  }
  return kExitOk;
}

Command AddRunCommand(CLI::App& app) {
  return AddCommand(
      app, "run", "Run a model or a compiled program on a device; write each output as a .npy file",
      [](CLI::App& cli, RunOptions& o) {
        AddModelArgument(cli, o.model);
        cli.add_option("--device", o.device,
                       "Where to run: ref (the reference executor: a model's float or integer "
                       "ops, a program's OPU steps), cpu (the CPU executor: the same, faster; "
                       "integers bit for bit), fsim (a program's OPU steps on the functional "
                       "simulator), rtl (on the Verilated RTL, presets tiny and opu1024, where "
                       "built)")
            ->required();
        cli.add_option("--output-dir", o.output_dir, "Where to write <output>.npy files")
            ->capture_default_str();
        CLI::Option* trace =
            cli.add_option("--trace", o.trace,
                           "With --device rtl: write an FST waveform of each OPU step to FILE, the "
                           "step's index before the extension (run.fst -> run.step3.fst)");
        cli.add_option("--trace-step", o.trace_steps,
                       "With --trace: trace only step N (repeatable; the indices of opuc "
                       "report and disasm), since a long program's every waveform takes "
                       "gigabytes")
            ->needs(trace);
        cli.add_option("--profile", o.profile,
                       "With a program: write what the device counted on each OPU step (cycles on "
                       "rtl, DRAM bytes, array issues) to FILE, for opuc report --profile");
        AddInputOptions(cli, o.inputs, o.seed);
        cli.add_flag("--json", o.json, "Print one JSON object instead of text");
      },
      RunRun);
}

}  // namespace opuc::cli
