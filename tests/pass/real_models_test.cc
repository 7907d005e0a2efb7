// The default pipeline on every real model: it leaves no DEQUANTIZE or
// DENSIFY, and the float reference gives the same outputs before and after
// (within 1e-5 of each output's range; only FoldScaleAxis and FoldBatchNorm
// may change rounding at all).
#include <algorithm>
#include <cmath>

#include "frontend/model_cache.h"
#include "opuc/cpu_reference/reference.h"
#include "opuc/frontend/load_model.h"
#include "opuc/tensor_io/random_input.h"
#include "pass/pass_test_util.h"

namespace opuc {
namespace {

using namespace testing;

TEST_CASE("the default pipeline preserves every real model's outputs") {
  for (const std::string& name : test::RealModelNames()) {
    CAPTURE(name);
    Expected<LoadedModel> model = LoadModel(test::ModelPath(name + ".tflite"));
    REQUIRE_MESSAGE(model.ok(), model.status().ToString());
    Graph graph = std::move(model->graph);
    Expected<std::vector<HostTensor>> inputs = RandomInputs(graph, /*seed=*/7);
    REQUIRE(inputs.ok());
    const std::vector<HostTensor> before = ReferenceOutputs(graph, *inputs);

    auto run = RunPasses(graph, DefaultPipelineNames(), /*opt_level=*/3);
    REQUIRE(run.status.ok());
    for (const Node& node : graph.nodes) {
      CHECK(node.op != OpKind::kDequantize);
      CHECK(node.op != OpKind::kDensify);
    }
    const std::vector<HostTensor> after = ReferenceOutputs(graph, *inputs);
    REQUIRE(after.size() == before.size());
    for (size_t o = 0; o < before.size(); ++o) {
      const float* b = before[o].data<float>();
      const float* a = after[o].data<float>();
      const auto count = static_cast<size_t>(before[o].elements());
      REQUIRE(after[o].elements() == before[o].elements());
      const auto [lo, hi] = std::minmax_element(b, b + count);
      double max_diff = 0;
      for (size_t i = 0; i < count; ++i)
        max_diff = std::max(max_diff, std::fabs(double(a[i]) - b[i]));
      CAPTURE(o);
      CHECK(max_diff <= 1e-5 * std::max(double(*hi - *lo), 1e-30));
    }
  }
}

}  // namespace
}  // namespace opuc
