//===- tests/cpu/models_test.cc - Real models on the CPU executor -===//
//
// Each real model after the default pass pipeline, on seeded random inputs:
// the float graph on the CPU executor within 1e-4 of each output's range of
// the float reference (a hundred layers of differently ordered sums), and
// its int8 quantization (calibrated on two other seeded inputs) bit for bit
// equal to the integer reference; then both again after FuseOps, the
// functions' elementwise chains run as one kernel (counted). The default
// run takes the main job's model; the slow build (OPUC_ALL_MODELS) all
// thirteen.
//
//===----------------------------------------------------------------------===//
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "frontend/model_cache.h"
#include "fused_match.h"
#include "opuc/cpu/executor.h"
#include "opuc/frontend/load_model.h"
#include "opuc/fusion/fuse_mutator.h"
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

/// `graph` fused; adds its functions to *functions and those that run as one
/// kernel to *one_kernel.
Graph Fused(Graph graph, int64_t* functions, int64_t* one_kernel) {
  REQUIRE(FuseOps(graph, FuseOptions()).ok());
  for (const Node& node : graph.nodes) {
    if (node.op != OpKind::kFused) continue;
    ++*functions;
    *one_kernel += cpu::MatchFusedTail(*node.body).has_value();
  }
  return graph;
}

void CheckSameBytes(const std::vector<HostTensor>& got, const std::vector<HostTensor>& want) {
  REQUIRE(got.size() == want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    REQUIRE(got[i].type() == want[i].type());
    CHECK(std::memcmp(got[i].raw(), want[i].raw(), want[i].bytes()) == 0);
  }
}

TEST_CASE("real models: the CPU executor gives the reference's results") {
  int64_t functions[2] = {0, 0}, one_kernel[2] = {0, 0};  // float, int8
  for (const std::string& name : Models()) {
    CAPTURE(name);
    const Graph graph = Optimized(name);
    const std::vector<HostTensor> inputs = Inputs(graph, 5);
    const std::vector<HostTensor> want = RunReference(graph, inputs).value();
    Expected<std::vector<HostTensor>> got = RunCpu(graph, inputs);
    REQUIRE_MESSAGE(got.ok(), got.status().ToString());
    const Graph fused = Fused(graph, &functions[0], &one_kernel[0]);
    Expected<std::vector<HostTensor>> got_fused = RunCpu(fused, inputs);
    REQUIRE_MESSAGE(got_fused.ok(), got_fused.status().ToString());
    for (size_t i = 0; i < want.size(); ++i) {
      CAPTURE(graph.tensor(graph.outputs[i]).name);
      testing::CheckWithinRange((*got)[i], want[i], 1e-4, 1e-3);
      testing::CheckWithinRange((*got_fused)[i], want[i], 1e-4, 1e-3);
    }

    Expected<QuantizedGraph> q = Quantize(graph, {Inputs(graph, 1), Inputs(graph, 2)});
    REQUIRE_MESSAGE(q.ok(), q.status().ToString());
    const std::vector<HostTensor> qwant = RunReference(q->graph, inputs).value();
    Expected<std::vector<HostTensor>> qgot = RunCpu(q->graph, inputs);
    REQUIRE_MESSAGE(qgot.ok(), qgot.status().ToString());
    CheckSameBytes(*qgot, qwant);
    Expected<std::vector<HostTensor>> qgot_fused =
        RunCpu(Fused(q->graph, &functions[1], &one_kernel[1]), inputs);
    REQUIRE_MESSAGE(qgot_fused.ok(), qgot_fused.status().ToString());
    CheckSameBytes(*qgot_fused, qwant);
  }
  // Nearly every function of a real model is an elementwise chain.
  CHECK(one_kernel[0] * 10 > functions[0] * 8);
  CHECK(one_kernel[1] * 10 > functions[1] * 8);
  MESSAGE("one kernel: float ", one_kernel[0], " of ", functions[0], " functions, int8 ",
          one_kernel[1], " of ", functions[1]);
}

}  // namespace
}  // namespace opuc
