//===- bench/quant_bench_models.h - Real models and photographs for the quantization benches -===//
//
// The model after the default pass pipeline (opt level 3), calibrated on
// chelsea, coffee, motorcycle_left and motorcycle_right, evaluated on
// astronaut and ihc: the split of the figures in docs/quantization.md (what
// `opuc quantize` used before the photographs of people joined the two
// sets). Models from scripts/fetch-models, photographs from
// scripts/fetch-images (OPUC_MODELS_DIR, OPUC_IMAGES_DIR or the XDG cache).
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_BENCH_QUANT_BENCH_MODELS_H
#define OPUC_BENCH_QUANT_BENCH_MODELS_H

#include <cstdlib>
#include <string>
#include <vector>

#include "opuc/frontend/load_model.h"
#include "opuc/image/calibration_set.h"
#include "opuc/image/model_defaults.h"
#include "opuc/pass/pass_context.h"
#include "opuc/pass/registry.h"
#include "support/fetched_data.h"

namespace opuc::bench {

using Samples = std::vector<std::vector<HostTensor>>;

struct BenchModel {
  Graph graph;
  Samples calibration, evaluation;
};

inline const char* kBenchSplit =
    "calibrated on chelsea, coffee, motorcycle_left, motorcycle_right; evaluated on astronaut "
    "and ihc (the split of docs/quantization.md)";

inline Expected<BenchModel> LoadBenchModel(const std::string& name) {
  const std::string model_dir = FetchedModelsDir();
  const std::string image_dir = FetchedImagesDir();
  Expected<LoadedModel> model = LoadModel(model_dir + "/" + name + ".tflite");
  if (!model.ok()) return model.status().WithContext("run scripts/fetch-models");
  BenchModel result;
  result.graph = std::move(model->graph);
  PassContext ctx;
  ctx.opt_level = 3;
  PassCounters counters;
  OPUC_ASSIGN_OR_RETURN(auto pipeline, CreatePipeline(DefaultPipelineNames()));
  OPUC_RETURN_IF_ERROR(pipeline->Run(result.graph, ctx, counters).status());
  const TensorType input = result.graph.tensor(result.graph.inputs[0]).type();
  OPUC_ASSIGN_OR_RETURN(const PreprocessOptions pre, DefaultPreprocess(name, input));
  for (const std::string file :
       {"astronaut", "chelsea", "coffee", "ihc", "motorcycle_left", "motorcycle_right"}) {
    const bool held = file == "astronaut" || file == "ihc";
    const std::string set = held ? "/evaluation/" : "/calibration/";
    Expected<CalibrationSample> s =
        LoadCalibrationSample(image_dir + set + file + ".png", input, pre);
    if (!s.ok()) return s.status().WithContext("run scripts/fetch-images");
    (held ? result.evaluation : result.calibration).push_back({std::move(s->tensor)});
  }
  return result;
}

}  // namespace opuc::bench

#endif  // OPUC_BENCH_QUANT_BENCH_MODELS_H
