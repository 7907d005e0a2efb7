//===- bench/rtl_cycles_bench.cc - RTL cycles against the estimator -------===//
//
// Claim (issue 17, item 4): the RTL's clock cycles say what a program costs,
// and the codegen's estimator tracks them. Each model given (default:
// face_detection_short_range; `--all` for the thirteen of
// scripts/fetch-models) is compiled for opu1024 (calibrated on two seeded
// random inputs: the cycles do not depend on the values) and run on the
// `rtl` device. Per model: the OPU steps, RTL cycles, the estimate and
// their ratio, the time at the clock, MAC efficiency (MACs / (cycles x
// L x CO)), the group the estimator misses most, and how long the
// simulation took (simulated cycles per second).
//
//   build/bench/rtl_cycles_bench [--all | MODEL...] [--steps]
//
// --steps adds a line per OPU step: its group, RTL cycles, the estimate, and
// the counts that explain them (array issues, post-stage entries, bytes
// loaded and stored, instructions).
//
//===----------------------------------------------------------------------===//
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "opuc/compiler/compile.h"
#include "opuc/frontend/load_model.h"
#include "opuc/runtime/run_program.h"
#include "opuc/tensor_io/random_input.h"
#include "rtl.h"
#include "support/fetched_data.h"

namespace {

using namespace opuc;

const char* kAll[] = {"face_detection_short_range",
                      "face_detection_full_range",
                      "face_detection_full_range_sparse",
                      "palm_detection_lite",
                      "palm_detection_full",
                      "hand_landmark_lite",
                      "hand_landmark_full",
                      "pose_detection",
                      "pose_landmark_lite",
                      "pose_landmark_full",
                      "pose_landmark_heavy",
                      "selfie_segmentation",
                      "selfie_segmentation_landscape"};

bool g_steps = false;

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
  Expected<CompiledModel> compiled = CompileModel(model->graph, samples, hw, {});
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
  std::map<int32_t, int64_t> macs;
  for (const GroupReport& g : compiled->report.groups) macs[g.group] = g.macs;
  int64_t cycles = 0, estimated = 0, total_macs = 0, steps = 0;
  double worst = 1.0;
  int32_t worst_group = -1;
  for (size_t s = 0; s < program->steps().size(); ++s) {
    const ProgramStep& step = program->steps()[s];
    if (step.kind != StepKind::kOpu) continue;
    const int64_t c = run->counters[s].cycles;
    cycles += c;
    estimated += step.estimated_cycles;
    total_macs += macs[step.group];
    ++steps;
    const double ratio = static_cast<double>(step.estimated_cycles) / static_cast<double>(c);
    if (g_steps) {
      // The cycles do not depend on the values: the step again on a zero
      // image, for each engine's busy, token-wait and DRAM-wait cycles.
      std::vector<uint8_t> zeros(static_cast<size_t>(program->dram_bytes()));
      rtl::RtlStats e;
      if (!rtl::RunRtl(hw, step.Words(), zeros, &e).ok()) return 1;
      const OpuCounters& k = run->counters[s];
      std::printf(
          "  group %4d  rtl %9lld  est %9lld  %6.3f  issues %8lld  post %8lld  "
          "load %9lld  store %8lld",
          step.group, static_cast<long long>(c), static_cast<long long>(step.estimated_cycles),
          ratio, static_cast<long long>(k.gemm_issues), static_cast<long long>(k.post_entries),
          static_cast<long long>(k.bytes_loaded), static_cast<long long>(k.bytes_stored));
      for (const rtl::RtlEngineStats& en : e.engines)
        std::printf("  | %lld insns busy %lld token %lld dram %lld",
                    static_cast<long long>(en.retired), static_cast<long long>(en.busy_cycles),
                    static_cast<long long>(en.token_cycles),
                    static_cast<long long>(en.dram_cycles));
      std::printf("\n");
    }
    if (std::fabs(std::log(ratio)) > std::fabs(std::log(worst))) {
      worst = ratio;
      worst_group = step.group;
    }
  }
  const double array = static_cast<double>(hw.array.input_channels * hw.array.output_channels);
  std::printf("%-34s %5lld %11lld %11lld %6.3f %9.3f %6.1f%% %6d %6.3f %8.1f %7.2f\n", name.c_str(),
              static_cast<long long>(steps), static_cast<long long>(cycles),
              static_cast<long long>(estimated),
              static_cast<double>(estimated) / static_cast<double>(cycles),
              static_cast<double>(cycles) / hw.array.clock_mhz / 1000.0,
              100.0 * static_cast<double>(total_macs) / (static_cast<double>(cycles) * array),
              worst_group, worst, seconds, static_cast<double>(cycles) / seconds / 1e6);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  rtl::RegisterRtlDevice();
  std::vector<std::string> names;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--all") == 0)
      names.assign(std::begin(kAll), std::end(kAll));
    else if (std::strcmp(argv[i], "--steps") == 0)
      g_steps = true;
    else
      names.emplace_back(argv[i]);
  }
  if (names.empty()) names.emplace_back("face_detection_short_range");
  const HwConfig hw = HwConfigPreset("opu1024").value();
  std::printf("opu1024 (%lld x %lld array at %.0f MHz): RTL cycles per model, the estimator's\n",
              static_cast<long long>(hw.array.input_channels),
              static_cast<long long>(hw.array.output_channels), hw.array.clock_mhz);
  std::printf("%-34s %5s %11s %11s %6s %9s %7s %6s %6s %8s %7s\n", "model", "steps", "rtl cycles",
              "estimate", "est/rtl", "ms", "MAC eff", "worst", "est/rtl", "sim s", "Mcyc/s");
  int failures = 0;
  for (const std::string& name : names) failures += Bench(name, hw);
  return failures == 0 ? 0 : 1;
}
