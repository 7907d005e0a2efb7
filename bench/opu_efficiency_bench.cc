//===- bench/opu_efficiency_bench.cc - RTL cycles against the hardware's limit ===//
//
// Claims (issue 19, items 3 and 4): how close compiled programs come to
// what the OPU can do, and how well the codegen's estimator predicts the
// RTL. Each model given (default: face_detection_short_range; `--all` for
// the thirteen of scripts/fetch-models) is compiled for opu1024 (calibrated
// on two seeded random inputs: the cycles do not depend on the values) and
// run on the `rtl` device. Per model, in one run:
//   - RTL cycles, the hardware's limit (opuc/program/step_bound.h: per
//     step, the array's cycles with its channel rounding or the DRAM bytes
//     the step must move, whichever is more) and their ratio;
//   - the same ratio over the dense inner-product steps (conv2d, fully
//     connected) and over the depthwise ones, each with its worst step;
//   - the estimate, its ratio to the RTL and the step it misses most;
//   - time at the clock, MAC efficiency (MACs / (cycles x L x Co)), and how
//     long the simulation took.
//
//   build/bench/opu_efficiency_bench [--all | MODEL...] [--steps] [--precision mixed|int16]
//
// --steps adds a line per OPU step: its RTL cycles, bound, estimate, the
// counts that explain them and each engine's busy, token-wait and DRAM-wait
// cycles. --precision compiles with u8/i16 activations (docs/quantization.md)
// instead of int8: the i16 passes, residuals and stores.
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
#include "opuc/program/program_report.h"
#include "opuc/runtime/run_program.h"
#include "opuc/tensor_io/random_input.h"
#include "rtl.h"
#include "support/fetched_data.h"

namespace {

using namespace opuc;

bool g_steps = false;
Precision g_precision = Precision::kInt8;

double Ratio(int64_t a, int64_t b) {
  return b > 0 ? static_cast<double>(a) / static_cast<double>(b) : 0.0;
}

/// RTL cycles over bound for a set of steps, and the worst step.
struct Gap {
  int64_t cycles = 0, bound = 0;
  double worst = 0;
  size_t worst_step = 0;
  void Add(const StepReport& s, int64_t measured) {
    cycles += measured;
    bound += s.bound.cycles();
    if (Ratio(measured, s.bound.cycles()) > worst) {
      worst = Ratio(measured, s.bound.cycles());
      worst_step = s.step;
    }
  }
  std::string Text() const {
    if (bound == 0) return "-";
    char text[48];
    std::snprintf(text, sizeof text, "%.2f (%.2f @%zu)", Ratio(cycles, bound), worst, worst_step);
    return text;
  }
};

void PrintStep(const Program& program, const StepReport& s, const OpuCounters& k) {
  std::printf(
      "  step %4zu  rtl %9lld  bound %9lld  %5.2fx  est %9lld  %6.3f  issues %8lld  "
      "post %8lld  load %9lld  store %8lld",
      s.step, static_cast<long long>(*s.measured_cycles), static_cast<long long>(s.bound.cycles()),
      Ratio(*s.measured_cycles, s.bound.cycles()), static_cast<long long>(s.estimated_cycles),
      Ratio(s.estimated_cycles, *s.measured_cycles), static_cast<long long>(k.gemm_issues),
      static_cast<long long>(k.post_entries), static_cast<long long>(k.bytes_loaded),
      static_cast<long long>(k.bytes_stored));
  // The cycles do not depend on the values: the step again on a zero image,
  // for each engine's busy, token-wait and DRAM-wait cycles.
  std::vector<uint8_t> zeros(static_cast<size_t>(program.dram_bytes()));
  rtl::RtlStats e;
  if (rtl::RunRtl(program.hw(), program.steps()[s.step].Words(), zeros, &e).ok())
    for (const rtl::RtlEngineStats& en : e.engines)
      std::printf("  | %lld insns busy %lld token %lld dram %lld",
                  static_cast<long long>(en.retired), static_cast<long long>(en.busy_cycles),
                  static_cast<long long>(en.token_cycles), static_cast<long long>(en.dram_cycles));
  std::printf("\n");
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
  options.quantize.precision = g_precision;
  Expected<CompiledModel> compiled = CompileModel(model->graph, samples, hw, options);
  if (!compiled.ok()) {
    std::fprintf(stderr, "%s: %s\n", name.c_str(), compiled.status().ToString().c_str());
    return 1;
  }
  const std::vector<uint8_t>& bytes = compiled->program;
  Expected<Program> program = ReadProgram(nullptr, bytes.data(), bytes.size(), name);
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
  Gap dense, depthwise;
  double worst_estimate = 1.0;
  size_t worst_step = 0;
  for (const StepReport& s : report->steps) {
    if (s.kind != StepKind::kOpu) continue;
    const int64_t measured = *s.measured_cycles;
    if (s.bound.kind == InnerProductKind::kDense) dense.Add(s, measured);
    if (s.bound.kind == InnerProductKind::kDepthwise) depthwise.Add(s, measured);
    const double ratio = Ratio(s.estimated_cycles, measured);
    if (std::fabs(std::log(ratio)) > std::fabs(std::log(worst_estimate))) {
      worst_estimate = ratio;
      worst_step = s.step;
    }
    if (g_steps) PrintStep(*program, s, run->counters[s.step]);
  }
  const int64_t cycles = *report->measured_cycles;
  std::printf(
      "%-34s %5lld %10lld %10lld %5.2f  %-20s %-20s %10lld %6.3f %6.3f@%-4zu %8.3f %6.1f%% %6.1f\n",
      name.c_str(), static_cast<long long>(report->opu_steps), static_cast<long long>(cycles),
      static_cast<long long>(report->bound_cycles), Ratio(cycles, report->bound_cycles),
      dense.Text().c_str(), depthwise.Text().c_str(),
      static_cast<long long>(report->estimated_cycles), Ratio(report->estimated_cycles, cycles),
      worst_estimate, worst_step, report->Milliseconds(cycles),
      100.0 * report->Efficiency(report->opu_macs, cycles), seconds);
  std::fflush(stdout);
  return 0;
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
    else if (std::strcmp(argv[i], "--precision") == 0 && i + 1 < argc)
      g_precision = std::strcmp(argv[++i], "int16") == 0 ? Precision::kInt16 : Precision::kMixed;
    else
      names.emplace_back(argv[i]);
  }
  if (names.empty()) names.emplace_back("face_detection_short_range");
  const HwConfig hw = HwConfigPreset("opu1024").value();
  std::printf(
      "opu1024 (%lld x %lld array at %.0f MHz): RTL cycles against the hardware's limit "
      "(bound) and the estimate;\nx = rtl/bound over all OPU steps, over the dense and the "
      "depthwise ones (worst step after @)\n",
      static_cast<long long>(hw.array.input_channels),
      static_cast<long long>(hw.array.output_channels), hw.array.clock_mhz);
  std::printf("%-34s %5s %10s %10s %5s  %-20s %-20s %10s %6s %11s %8s %7s %6s\n", "model", "steps",
              "rtl cycles", "bound", "x", "dense x (worst)", "depthwise x (worst)", "estimate",
              "est/rtl", "worst", "ms", "MAC eff", "sim s");
  int failures = 0;
  for (const std::string& name : names) failures += Bench(name, hw);
  return failures == 0 ? 0 : 1;
}
