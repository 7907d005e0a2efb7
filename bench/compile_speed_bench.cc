//===- bench/compile_speed_bench.cc - How long `opuc compile` takes, by stage ===//
//
// Claim (issue 19, item 5): compiling pose_landmark_heavy (27 MB, the
// largest real model) for opu1024 with one calibration photograph takes
// under 2 s here. Per model given (default pose_landmark_heavy; `--all`
// for the thirteen), the time of each stage as `opuc compile` runs them:
// loading the file, then CompileModel's passes, quantize (calibration,
// weight rounding, lowering), partition, codegen and program, and the
// whole against the 2 s goal. One photograph: calibration/coffee.png,
// preprocessed as MediaPipe does for the model.
//
//   build/bench/compile_speed_bench [--all | MODEL...]
//
//===----------------------------------------------------------------------===//
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "opuc/compiler/compile.h"
#include "opuc/frontend/load_model.h"
#include "opuc/image/calibration_set.h"
#include "opuc/image/model_defaults.h"
#include "support/batch_allocator.h"
#include "support/fetched_data.h"

namespace {

using namespace opuc;
using Clock = std::chrono::steady_clock;

double Ms(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

int Bench(const std::string& name, const HwConfig& hw) {
  const auto start = Clock::now();
  Expected<LoadedModel> model = LoadModel(FetchedModelsDir() + "/" + name + ".tflite");
  if (!model.ok()) {
    std::fprintf(stderr, "%s (run scripts/fetch-models)\n", model.status().ToString().c_str());
    return 1;
  }
  const auto loaded = Clock::now();
  const TensorType input = model->graph.tensor(model->graph.inputs[0]).type();
  Expected<PreprocessOptions> preprocess = DefaultPreprocess(name, input);
  Expected<CalibrationSample> sample =
      preprocess.ok() ? LoadCalibrationSample(FetchedImagesDir() + "/calibration/coffee.png", input,
                                              *preprocess)
                      : Expected<CalibrationSample>(preprocess.status());
  if (!sample.ok()) {
    std::fprintf(stderr, "%s: %s\n", name.c_str(), sample.status().ToString().c_str());
    return 1;
  }
  std::vector<std::vector<HostTensor>> calibration(1);
  calibration[0].push_back(std::move(sample->tensor));
  const auto photographed = Clock::now();

  std::vector<std::pair<std::string, Clock::time_point>> stages;
  CompileOptions options;  // as `opuc compile` gives them: the file to hash, then let go
  options.source_name = name + ".tflite";
  options.source = std::move(model->file);
  Expected<CompiledModel> compiled = CompileModel(
      std::move(model->graph), calibration, hw, std::move(options),
      [&](std::string_view stage) { stages.emplace_back(std::string(stage), Clock::now()); });
  const auto done = Clock::now();
  if (!compiled.ok()) {
    std::fprintf(stderr, "%s: %s\n", name.c_str(), compiled.status().ToString().c_str());
    return 1;
  }
  std::printf("%-32s load %7.1f  photo %6.1f", name.c_str(), Ms(start, loaded),
              Ms(loaded, photographed));
  for (size_t i = 0; i < stages.size(); ++i)
    std::printf("  %s %7.1f", stages[i].first.c_str(),
                Ms(stages[i].second, i + 1 < stages.size() ? stages[i + 1].second : done));
  const double total = Ms(start, done) / 1000.0;
  std::printf("  | total %6.2f s (%.2fx the 2 s goal)\n", total, total / 2.0);
  std::fflush(stdout);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  PrepareAllocatorForBatchJob();  // as `opuc` does
  std::vector<std::string> names;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--all") == 0)
      names = FetchedModelNames();
    else
      names.emplace_back(argv[i]);
  }
  if (names.empty()) names.emplace_back("pose_landmark_heavy");
  const HwConfig hw = HwConfigPreset("opu1024").value();
  std::printf("opuc compile for opu1024 with one calibration photograph: milliseconds per stage\n");
  int failures = 0;
  for (const std::string& name : names) failures += Bench(name, hw);
  return failures == 0 ? 0 : 1;
}
