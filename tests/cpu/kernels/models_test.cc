//===- tests/cpu/kernels/models_test.cc - Real models on the CPU executor -===//
//
// Each real model after the default pass pipeline, on seeded random inputs:
// the float graph on the CPU executor within 1e-4 of each output's range of
// the float reference (a hundred layers of differently ordered sums), and
// its int8 quantization (calibrated on two other seeded inputs) bit for bit
// equal to the integer reference. The default run takes the main job's
// model; the slow build (OPUC_ALL_MODELS) all thirteen.
//
//===----------------------------------------------------------------------===//
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "frontend/model_cache.h"
#include "opuc/cpu/executor.h"
#include "opuc/frontend/load_model.h"
#include "opuc/pass/pass_context.h"
#include "opuc/pass/registry.h"
#include "opuc/quant/quantize.h"
#include "opuc/tensor_io/random_input.h"
#include "within_range.h"

namespace opuc {
namespace {

std::vector<std::string> Models() {
#ifdef OPUC_ALL_MODELS
  return test::RealModelNames();
#else
  return {"face_detection_short_range"};
#endif
}

std::vector<HostTensor> Inputs(const Graph& graph, uint64_t seed) {
  std::vector<HostTensor> inputs;
  for (TensorId t : graph.inputs)
    inputs.push_back(RandomTensor(graph.tensor(t).dtype, graph.tensor(t).shape, seed++).value());
  return inputs;
}

Graph Optimized(const std::string& name) {
  Expected<LoadedModel> model = LoadModel(test::ModelPath(name + ".tflite"));
  REQUIRE_MESSAGE(model.ok(), model.status().ToString());
  Graph graph = std::move(model->graph);
  PassContext ctx;
  PassCounters counters;
  auto pipeline = CreatePipeline(DefaultPipelineNames()).value();
  REQUIRE(pipeline->Run(graph, ctx, counters).ok());
  return graph;
}

TEST_CASE("real models: the CPU executor gives the reference's results") {
  for (const std::string& name : Models()) {
    CAPTURE(name);
    const Graph graph = Optimized(name);
    const std::vector<HostTensor> inputs = Inputs(graph, 5);
    const std::vector<HostTensor> want = RunReference(graph, inputs).value();
    Expected<std::vector<HostTensor>> got = RunCpu(graph, inputs);
    REQUIRE_MESSAGE(got.ok(), got.status().ToString());
    for (size_t i = 0; i < want.size(); ++i) {
      CAPTURE(graph.tensor(graph.outputs[i]).name);
      testing::CheckWithinRange((*got)[i], want[i], 1e-4, 1e-3);
    }

    Expected<QuantizedGraph> q = Quantize(graph, {Inputs(graph, 1), Inputs(graph, 2)});
    REQUIRE_MESSAGE(q.ok(), q.status().ToString());
    const std::vector<HostTensor> qwant = RunReference(q->graph, inputs).value();
    Expected<std::vector<HostTensor>> qgot = RunCpu(q->graph, inputs);
    REQUIRE_MESSAGE(qgot.ok(), qgot.status().ToString());
    for (size_t i = 0; i < qwant.size(); ++i) {
      REQUIRE((*qgot)[i].type() == qwant[i].type());
      CHECK(std::memcmp((*qgot)[i].raw(), qwant[i].raw(), qwant[i].bytes()) == 0);
    }
  }
}

}  // namespace
}  // namespace opuc
