//===- bench/opu_efficiency_bench.cc - RTL cycles against the physical limit ===//
//
// Claims (issues 19 and 44): how close compiled programs come to what the
// OPU's hardware can do, and how well the codegen's estimator predicts the
// RTL. Each model given (default: face_detection_short_range; `--all` for
// the thirteen of scripts/fetch-models) is compiled for opu1024 (calibrated
// on two seeded random inputs: the cycles do not depend on the values) and
// run on the `rtl` device. Per model, in one run:
//   - RTL cycles against the hardware's physical limit
//     (opuc/program/physical_bound.h: per layer, MACs / (L x Co) or its
//     fewest DRAM bytes at the bandwidth, whichever is more), the ratio and
//     MAC efficiency (MACs / (cycles x L x Co)), in all and per kind
//     (first layer, dense, depthwise, other: each group of a run by its
//     measured share of the run's cycles; worst step, or g and a run's
//     group, after @);
//   - the same against the limit of opuc's mapping
//     (opuc/program/mapping_bound.h): what the mapping costs is the gap;
//     and, per kind, the Gemms alone one after another as the RTL's array
//     takes them back to back (MappingBound::gemm_cycles: a depthwise
//     window's halo reads too) against the physical limit: what the
//     program as tiled needs of the array whatever the schedule;
//   - DRAM bytes moved against the fewest the layers need;
//   - the estimate, its ratio to the RTL and the step it misses most, and
//     how long the simulation took.
// With more than one model, a table of one line a model ends the run.
//
//   build/bench/opu_efficiency_bench [--all | MODEL...] [--steps] [--timeline]
//                                    [--precision mixed|int16] [--i16-two-passes]
//                                    [--unchained] [--no-runs]
//
// --steps adds a line per OPU step: its RTL cycles, both bounds (the term
// that sets the mapping's: array, output path or DRAM), estimate,
// the counts that explain them and each engine's busy, token-wait and
// DRAM-wait cycles, under a run a line per group (its measured share,
// both bounds, its estimated share, its Gemms alone, its tiling); and per model, the
// cycles beyond the mapping limit in two parts: those in which no engine
// is busy (the steps' ends) and the busiest engine's beyond the limit
// (inside the steps). --timeline (implies --steps) adds, under each OPU
// step, a line per instruction in program order: the cycle from the
// step's start at which the RTL retired it, its engine and its
// disassembly, with a line where each of a run's groups begins; where a
// group's cycles go (a seam's loads, a Gemm waiting for its window, the
// last Store alone) is read off it. --precision compiles with u8/i16 activations
// (docs/quantization.md) instead of int8: the i16 passes, residuals and
// stores.
// --unchained compiles without chained pairs (PlanOptions::chained_pairs 1:
// every depthwise output through DRAM), to weigh what they save.
// --no-runs compiles each OPU group (or chained pair) as a step of its own
// (PlanOptions::runs off: docs/codegen.md, "Runs"), to weigh what runs save
// and to see each group's cycles on its own.
// --i16-two-passes runs each model's program again as codegen made it before
// the array read an i16 whole (PlanOptions::whole_i16 off: two passes, the
// planes one after the other) and prints both programs' RTL cycles.
//
//===----------------------------------------------------------------------===//
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "opuc/compiler/compile.h"
#include "opuc/frontend/load_model.h"
#include "opuc/isa/isa.h"
#include "opuc/program/program_report.h"
#include "opuc/runtime/run_program.h"
#include "opuc/tensor_io/random_input.h"
#include "rtl.h"
#include "support/fetched_data.h"

namespace {

using namespace opuc;

bool g_steps = false, g_timeline = false, g_two_passes = false, g_unchained = false,
     g_no_runs = false;
/// With --steps, where the RTL's cycles beyond the mapping limit go, summed
/// over a model's steps: cycles in which no engine is busy (a step's ends:
/// its first loads' latency, its last store's drain; a step starts when the
/// one before has ended) and the busiest engine's cycles beyond the limit
/// (instruction overheads, token and DRAM waits inside the step).
int64_t g_no_engine_busy = 0, g_busiest_beyond_mapping = 0;
Precision g_precision = Precision::kInt8;

double Ratio(int64_t a, int64_t b) {
  return b > 0 ? static_cast<double>(a) / static_cast<double>(b) : 0.0;
}

const LayerClass kClasses[] = {LayerClass::kFirst, LayerClass::kDense, LayerClass::kDepthwise,
                               LayerClass::kOther};

/// The worst step of a kind: RTL cycles over its physical bound.
struct Worst {
  double ratio = 0;
  std::string where;  ///< The step's index, or a run's group as g and its id.
};

/// What the summary table keeps of a model.
struct ModelLine {
  std::string name;
  int64_t cycles = 0, physical = 0, mapping = 0, moved = 0, fewest = 0, estimate = 0;
  double efficiency = 0;
  double by_class[4] = {0, 0, 0, 0};  ///< RTL / physical per kind, 0 where none.
};
std::vector<ModelLine> g_lines;

/// Which of the mapping limit's terms sets it: what a step waits on at best.
const char* BindingTerm(const MappingBound& m) {
  if (m.cycles() == m.array_cycles) return "array";
  return m.cycles() == m.output_cycles ? "output" : "dram";
}

/// Under --timeline: each of `step`'s instructions with the cycle the RTL
/// retired it (`retired_at`, an engine's in its program order).
void PrintTimeline(const ProgramStep& step, const rtl::RtlStats& e) {
  std::array<size_t, isa::kNumEngines> count{};
  size_t next_group = 0;
  for (size_t w = 0; w < step.word_count; ++w) {
    while (next_group < step.groups.size() && step.groups[next_group].first_word == w)
      std::printf("      -- g%d\n", step.groups[next_group++].group);
    const Expected<isa::Instruction> insn = isa::Decode(step.word(w));
    if (!insn.ok()) continue;
    const auto engine = static_cast<size_t>(isa::EngineOf(*insn));
    const std::vector<int64_t>& retired = e.retired_at[engine];
    const size_t n = count[engine]++;
    const std::string at = n < retired.size() ? std::to_string(retired[n]) : "-";
    std::printf("      %5zu %-7s %9s  %s\n", w,
                std::string(isa::EngineName(isa::EngineOf(*insn))).c_str(), at.c_str(),
                isa::Disassemble(*insn).c_str());
  }
}

void PrintStep(const Program& program, const StepReport& s, const OpuCounters& k) {
  std::printf(
      "  step %4zu %-11s rtl %9lld  physical %8lld %6.2fx  mapping %9lld %-6s %5.2fx  est %9lld  "
      "%6.3f  "
      "issues %8lld  post %8lld  load %9lld  store %8lld",
      s.step, LayerClassName(s.layer_class), static_cast<long long>(*s.measured_cycles),
      static_cast<long long>(s.physical.cycles), Ratio(*s.measured_cycles, s.physical.cycles),
      static_cast<long long>(s.mapping.cycles()), BindingTerm(s.mapping),
      Ratio(*s.measured_cycles, s.mapping.cycles()), static_cast<long long>(s.estimated_cycles),
      Ratio(s.estimated_cycles, *s.measured_cycles), static_cast<long long>(k.gemm_issues),
      static_cast<long long>(k.post_entries), static_cast<long long>(k.bytes_loaded),
      static_cast<long long>(k.bytes_stored));
  // The cycles do not depend on the values: the step again on a zero image,
  // for each engine's busy, token-wait and DRAM-wait cycles.
  std::vector<uint8_t> zeros(static_cast<size_t>(program.dram_bytes()));
  rtl::RtlStats e;
  if (rtl::RunRtl(program.hw(), program.steps()[s.step].Words(), zeros, &e).ok()) {
    int64_t busiest = 0;
    for (const rtl::RtlEngineStats& en : e.engines) {
      std::printf("  | %lld insns busy %lld token %lld dram %lld",
                  static_cast<long long>(en.retired), static_cast<long long>(en.busy_cycles),
                  static_cast<long long>(en.token_cycles), static_cast<long long>(en.dram_cycles));
      busiest = std::max(busiest, en.busy_cycles);
    }
    g_no_engine_busy += *s.measured_cycles - busiest;
    g_busiest_beyond_mapping += busiest - s.mapping.cycles();
  }
  std::printf("\n");
  if (g_timeline) PrintTimeline(program.steps()[s.step], e);
}

/// A run's group under --steps: its measured share of the run's cycles
/// against both bounds, its estimated share and its tiling.
void PrintPart(const StepPart& p) {
  const int64_t cycles = p.measured_cycles.value_or(p.estimated_cycles);
  std::printf(
      "    g%-4d %-11s rtl %9lld  physical %8lld %6.2fx  mapping %9lld %-6s %5.2fx  est %9lld  "
      "gemms %7lld  %s\n",
      p.group, LayerClassName(p.layer_class), static_cast<long long>(cycles),
      static_cast<long long>(p.physical.cycles), Ratio(cycles, p.physical.cycles),
      static_cast<long long>(p.mapping.cycles()), BindingTerm(p.mapping),
      Ratio(cycles, p.mapping.cycles()), static_cast<long long>(p.estimated_cycles),
      static_cast<long long>(p.mapping.gemm_cycles), p.tiling.c_str());
}

// The RTL cycles of `graph`'s program compiled with `options` on `input`.
Expected<int64_t> RtlCycles(const Graph& graph, const std::vector<std::vector<HostTensor>>& samples,
                            const HwConfig& hw, const CompileOptions& options,
                            const HostTensor& input) {
  OPUC_ASSIGN_OR_RETURN(CompiledModel compiled, CompileModel(graph, samples, hw, options));
  OPUC_ASSIGN_OR_RETURN(Program program, ReadProgram(nullptr, compiled.program.data(),
                                                     compiled.program.size(), "program"));
  std::unique_ptr<Device> rtl = MakeDevice("rtl").value();
  OPUC_ASSIGN_OR_RETURN(ProgramRun run, RunProgram(program, *rtl, {input}));
  OPUC_ASSIGN_OR_RETURN(ProgramReport report, ReportProgram(program, &run.counters));
  return report.measured_cycles.value_or(0);
}

int Bench(const std::string& name, const HwConfig& hw) {
  Expected<LoadedModel> model = LoadModel(FetchedModelsDir() + "/" + name + ".tflite");
  if (!model.ok()) {
    std::fprintf(stderr, "%s (run scripts/fetch-models)\n", model.status().ToString().c_str());
    return 1;
  }
  const TensorType input = model->graph.tensor(model->graph.inputs[0]).type();
  std::vector<std::vector<HostTensor>> samples;
  for (uint64_t seed : {1u, 2u})
    samples.push_back({RandomTensor(input.dtype, input.shape, seed).value()});
  CompileOptions options;
  options.plan.chained_pairs = g_unchained ? 1 : 0;
  options.plan.runs = !g_no_runs;
  options.quantize.precision = g_precision;
  Expected<CompiledModel> compiled = CompileModel(model->graph, samples, hw, options);
  if (!compiled.ok()) {
    std::fprintf(stderr, "%s: %s\n", name.c_str(), compiled.status().ToString().c_str());
    return 1;
  }
  const std::vector<uint8_t>& bytes = compiled->program;
  Expected<Program> program = ReadProgram(nullptr, bytes.data(), bytes.size(), name);
  if (!program.ok()) {  // the reader's checks refuse it: say why
    std::fprintf(stderr, "%s: %s\n", name.c_str(), program.status().ToString().c_str());
    return 1;
  }
  std::unique_ptr<Device> rtl = MakeDevice("rtl").value();
  const auto start = std::chrono::steady_clock::now();
  Expected<ProgramRun> run =
      RunProgram(*program, *rtl, {RandomTensor(input.dtype, input.shape, 3).value()});
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!run.ok()) {
    std::fprintf(stderr, "%s: %s\n", name.c_str(), run.status().ToString().c_str());
    return 1;
  }
  Expected<ProgramReport> report = ReportProgram(*program, &run->counters);
  if (!report.ok() || !report->measured_cycles) {
    std::fprintf(stderr, "%s: no RTL cycles to report\n", name.c_str());
    return 1;
  }
  Worst worst[4];
  double worst_estimate = 1.0;
  size_t worst_step = 0;
  for (const StepReport& s : report->steps) {
    if (s.kind != StepKind::kOpu) continue;
    const int64_t measured = *s.measured_cycles;
    if (s.parts.empty()) {
      Worst& w = worst[static_cast<size_t>(s.layer_class)];
      if (Ratio(measured, s.physical.cycles) > w.ratio)
        w = {Ratio(measured, s.physical.cycles), std::to_string(s.step)};
    }
    for (const StepPart& p : s.parts) {  // a run's groups, each by its measured share
      Worst& w = worst[static_cast<size_t>(p.layer_class)];
      const int64_t cycles = p.measured_cycles.value_or(p.estimated_cycles);
      if (Ratio(cycles, p.physical.cycles) > w.ratio)
        w = {Ratio(cycles, p.physical.cycles), "g" + std::to_string(p.group)};
    }
    const double ratio = Ratio(s.estimated_cycles, measured);
    if (std::fabs(std::log(ratio)) > std::fabs(std::log(worst_estimate))) {
      worst_estimate = ratio;
      worst_step = s.step;
    }
    if (g_steps) {
      PrintStep(*program, s, run->counters[s.step]);
      for (const StepPart& p : s.parts) PrintPart(p);
    }
  }
  const ProgramReport& r = *report;
  ModelLine line{name,
                 *r.measured_cycles,
                 r.physical.cycles,
                 r.mapping_bound_cycles,
                 r.bytes_loaded + r.bytes_stored,
                 r.physical.dram_bytes,
                 r.estimated_cycles,
                 r.Efficiency(r.opu_macs, *r.measured_cycles),
                 {}};
  std::printf(
      "%s: %lld OPU steps, %lld RTL cycles (%.3f ms); physical limit %lld: %.2fx, MAC efficiency "
      "%.1f%%; mapping limit %lld: %.2fx\n  DRAM %lld bytes moved, fewest %lld: %.2fx; estimate "
      "%lld: %.3f of the RTL (worst %.3f @%zu); simulated in %.1f s\n",
      name.c_str(), static_cast<long long>(r.opu_steps), static_cast<long long>(line.cycles),
      r.Milliseconds(line.cycles), static_cast<long long>(line.physical),
      Ratio(line.cycles, line.physical), 100.0 * line.efficiency,
      static_cast<long long>(line.mapping), Ratio(line.cycles, line.mapping),
      static_cast<long long>(line.moved), static_cast<long long>(line.fewest),
      Ratio(line.moved, line.fewest), static_cast<long long>(line.estimate),
      Ratio(line.estimate, line.cycles), worst_estimate, worst_step, seconds);
  std::printf("  %-12s %5s %10s %6s %9s %8s %15s %8s %9s %6s %9s %6s %11s %10s\n", "kind", "groups",
              "rtl cycles", "share", "physical", "x", "(worst step)", "MAC eff", "mapping", "x",
              "gemms", "x phys", "DRAM fewest", "MAC share");
  for (LayerClass c : kClasses) {
    const ClassTotals t = r.Totals(c);
    if (t.steps == 0) continue;
    const Worst& w = worst[static_cast<size_t>(c)];
    line.by_class[static_cast<size_t>(c)] = Ratio(t.cycles, t.physical.cycles);
    std::printf(
        "  %-12s %5lld %10lld %5.1f%% %9lld %7.2fx %8.2fx @%-4s %7.1f%% %9lld %5.2fx %9lld %5.2fx "
        "%11lld %9.1f%%\n",
        LayerClassName(c), static_cast<long long>(t.steps), static_cast<long long>(t.cycles),
        100.0 * Ratio(t.cycles, line.cycles), static_cast<long long>(t.physical.cycles),
        Ratio(t.cycles, t.physical.cycles), w.ratio, w.where.c_str(),
        100.0 * r.Efficiency(t.macs, t.cycles), static_cast<long long>(t.mapping_bound_cycles),
        Ratio(t.cycles, t.mapping_bound_cycles), static_cast<long long>(t.gemm_cycles),
        Ratio(t.gemm_cycles, t.physical.cycles), static_cast<long long>(t.physical.dram_bytes),
        100.0 * Ratio(t.macs, r.opu_macs));
  }
  if (g_steps) {
    std::printf(
        "  beyond the mapping limit, %lld cycles: no engine busy %lld (the steps' ends), the "
        "busiest engine past the limit %lld (inside the steps)\n",
        static_cast<long long>(line.cycles - line.mapping),
        static_cast<long long>(g_no_engine_busy), static_cast<long long>(g_busiest_beyond_mapping));
    g_no_engine_busy = g_busiest_beyond_mapping = 0;
  }
  if (g_two_passes) {
    CompileOptions two = options;
    two.plan.whole_i16 = false;
    Expected<int64_t> cycles = RtlCycles(model->graph, samples, hw, two,
                                         RandomTensor(input.dtype, input.shape, 3).value());
    if (!cycles.ok()) {
      std::fprintf(stderr, "%s: %s\n", name.c_str(), cycles.status().ToString().c_str());
      return 1;
    }
    std::printf("  i16 in two array passes: %lld RTL cycles; read whole: %lld (%.3fx)\n",
                static_cast<long long>(*cycles), static_cast<long long>(line.cycles),
                Ratio(line.cycles, *cycles));
  }
  std::fflush(stdout);
  g_lines.push_back(line);
  return 0;
}

/// One line a model: the table docs/codegen.md holds.
void PrintTable() {
  std::printf(
      "\n| model | RTL cycles | physical | x | first | dense | depthwise | other | MAC eff. "
      "| mapping | x | DRAM moved / fewest | est./RTL |\n"
      "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  for (const ModelLine& l : g_lines) {
    std::printf("| %s | %lld | %lld | %.2f |", l.name.c_str(), static_cast<long long>(l.cycles),
                static_cast<long long>(l.physical), Ratio(l.cycles, l.physical));
    for (LayerClass c : kClasses) {
      const double x = l.by_class[static_cast<size_t>(c)];
      x > 0 ? std::printf(" %.2f |", x) : std::printf(" - |");
    }
    std::printf(" %.1f%% | %lld | %.2f | %.2f | %.3f |\n", 100.0 * l.efficiency,
                static_cast<long long>(l.mapping), Ratio(l.cycles, l.mapping),
                Ratio(l.moved, l.fewest), Ratio(l.estimate, l.cycles));
  }
}

}  // namespace

int main(int argc, char** argv) {
  rtl::RegisterRtlDevice();
  std::vector<std::string> names;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--all") == 0)
      names = FetchedModelNames();
    else if (std::strcmp(argv[i], "--steps") == 0)
      g_steps = true;
    else if (std::strcmp(argv[i], "--timeline") == 0)
      g_steps = g_timeline = true;
    else if (std::strcmp(argv[i], "--unchained") == 0)
      g_unchained = true;
    else if (std::strcmp(argv[i], "--no-runs") == 0)
      g_no_runs = true;
    else if (std::strcmp(argv[i], "--i16-two-passes") == 0)
      g_two_passes = true;
    else if (std::strcmp(argv[i], "--precision") == 0 && i + 1 < argc)
      g_precision = std::strcmp(argv[++i], "int16") == 0 ? Precision::kInt16 : Precision::kMixed;
    else if (argv[i][0] == '-') {
      // --help, or an option this bench does not know: the usage, not a model of that name.
      const bool help = std::strcmp(argv[i], "--help") == 0;
      std::fprintf(
          help ? stdout : stderr,
          "usage: opu_efficiency_bench [--all | MODEL...] [--steps] [--timeline]\n"
          "                            [--precision mixed|int16] [--i16-two-passes]\n"
          "                            [--unchained] [--no-runs]\n"
          "(the options: this program's opening comment, bench/opu_efficiency_bench.cc)\n");
      return help ? 0 : 2;
    } else
      names.emplace_back(argv[i]);
  }
  if (names.empty()) names.emplace_back("face_detection_short_range");
  const HwConfig hw = HwConfigPreset("opu1024").value();
  std::printf(
      "opu1024 (%lld x %lld array at %.0f MHz, DRAM %.0f bytes a cycle): RTL cycles "
      "against the hardware's physical limit and the limit of opuc's mapping\n",
      static_cast<long long>(hw.array.input_channels),
      static_cast<long long>(hw.array.output_channels), hw.array.clock_mhz, DramBytesPerCycle(hw));
  int failures = 0;
  for (const std::string& name : names) failures += Bench(name, hw);
  if (g_lines.size() > 1) PrintTable();
  return failures == 0 ? 0 : 1;
}
