//===- bench/pass_pipeline_bench.cc - Import + default pipeline time ------===//
//
// Claim (issue 5): importing a real model and running the default pipeline
// is fast because imports read constants in place and passes do not copy
// weights; the 27 MB pose_landmark_heavy goes through in well under a second
// on one core. For every model in the cache this prints the file size, the
// median time of import and of the pipeline over several runs, and what
// share of the pipeline each pass takes.
//
//   build/bench/pass_pipeline_bench [runs]      (models: scripts/fetch-models)
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "opuc/frontend/load_model.h"
#include "opuc/pass/pass_context.h"
#include "opuc/pass/registry.h"
#include "support/fetched_data.h"

namespace {

using Clock = std::chrono::steady_clock;

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

double Seconds(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  const int runs = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;
  const std::string dir = opuc::FetchedModelsDir();
  std::map<std::string, double> pass_seconds;
  double pipeline_total = 0;
  std::printf("%-34s %8s %11s %13s %10s %13s\n", "model", "MB", "import ms", "pipeline ms",
              "total ms", "nodes");
  for (const std::string& name : opuc::FetchedModelNames()) {
    const std::string path = dir + "/" + name + ".tflite";
    std::vector<double> import_s, pipeline_s;
    size_t nodes_before = 0, nodes_after = 0;
    for (int r = 0; r < runs; ++r) {
      auto start = Clock::now();
      opuc::Expected<opuc::LoadedModel> model = opuc::LoadModel(path);
      import_s.push_back(Seconds(start));
      if (!model.ok()) {
        std::fprintf(stderr, "%s: %s (run scripts/fetch-models)\n", name.c_str(),
                     model.status().message().c_str());
        return 2;
      }
      nodes_before = model->graph.nodes.size();
      opuc::PassContext ctx;
      ctx.opt_level = 3;
      auto timing = std::make_shared<opuc::TimingInstrument>();
      ctx.instruments = {timing};
      auto pipeline = opuc::CreatePipeline(opuc::DefaultPipelineNames());
      opuc::PassCounters unused;
      start = Clock::now();
      opuc::Expected<bool> changed = (*pipeline)->Run(model->graph, ctx, unused);
      pipeline_s.push_back(Seconds(start));
      if (!changed.ok()) {
        std::fprintf(stderr, "%s: %s\n", name.c_str(), changed.status().message().c_str());
        return 1;
      }
      nodes_after = model->graph.nodes.size();
      for (const auto& entry : timing->entries()) pass_seconds[entry.pass] += entry.seconds;
    }
    for (double s : pipeline_s) pipeline_total += s;
    const double import_ms = Median(import_s) * 1e3, pipeline_ms = Median(pipeline_s) * 1e3;
    std::printf("%-34s %8.2f %11.2f %13.2f %10.2f %6zu -> %4zu\n", name.c_str(),
                static_cast<double>(std::filesystem::file_size(path)) / 1e6, import_ms, pipeline_ms,
                import_ms + pipeline_ms, nodes_before, nodes_after);
  }
  std::printf("\nshare of pipeline time per pass (all models, %d runs each):\n", runs);
  for (const auto& [pass, seconds] : pass_seconds)
    std::printf("  %-24s %6.1f%%\n", pass.c_str(), 100.0 * seconds / pipeline_total);
  return 0;
}
