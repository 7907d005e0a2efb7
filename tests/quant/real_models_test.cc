// Every real model quantizes and runs on the integer reference executor
// (issue 7): calibrated on two photographs, run on a third. The quantized
// graph is integer between its quantize and dequantize ends, and its outputs
// point the way the float model's do (cosine against the float reference).
// The SQNR figures are printed for docs/quantization.md.
#include <doctest/doctest.h>

#include "frontend/model_cache.h"
#include "image/image_cache.h"
#include "image/image_sample.h"
#include "opuc/frontend/load_model.h"
#include "opuc/image/model_defaults.h"
#include "opuc/ir/verifier.h"
#include "opuc/quant/accuracy.h"
#include "opuc/quant/quantize.h"
#include "pass/pass_test_util.h"

namespace opuc {
namespace {

TEST_CASE("quantize: every real model quantizes and runs in integers") {
  test::RequireImagesCache();
  for (const std::string& name : test::RealModelNames()) {
    CAPTURE(name);
    const Graph graph = testing::OptimizedModel(test::ModelPath(name + ".tflite"));
    const TensorType input = graph.tensor(graph.inputs[0]).type();
    Expected<PreprocessOptions> preprocess = DefaultPreprocess(name, input);
    REQUIRE(preprocess.ok());
    std::vector<std::vector<HostTensor>> calibration = {
        test::ImageSample("chelsea.png", input, *preprocess),
        test::ImageSample("coffee.png", input, *preprocess)};
    Expected<QuantizedGraph> q = Quantize(graph, calibration);
    REQUIRE(q.ok());
    CHECK(Verify(q->graph).ok());
    // Integer inside: f32 only at the graph's ends (and int32 biases, tables).
    for (TensorId t = 0; t < static_cast<TensorId>(q->graph.tensors.size()); ++t) {
      const Tensor& tensor = q->graph.tensor(t);
      if (tensor.dtype != DType::kF32) continue;
      const bool end = std::count(q->graph.inputs.begin(), q->graph.inputs.end(), t) +
                           std::count(q->graph.outputs.begin(), q->graph.outputs.end(), t) >
                       0;
      CHECK_MESSAGE(end, "f32 tensor inside the quantized graph: " << tensor.name);
    }
    Expected<std::vector<OutputAccuracy>> acc =
        CompareWithFloat(graph, q->graph, {test::ImageSample("astronaut.png", input, *preprocess)});
    REQUIRE(acc.ok());
    for (const OutputAccuracy& a : *acc)
      MESSAGE(name << " " << a.name << ": SQNR " << a.sqnr_db << " dB, cosine " << a.cosine);
    // The first output is each model's main one (boxes, landmarks, mask).
    CHECK((*acc)[0].cosine >= 0.6);
  }
}

}  // namespace
}  // namespace opuc
