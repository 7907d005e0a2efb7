// Issue 15's accuracy target: calibrated on the cache's calibration set and
// judged on its evaluation set (photographs of faces and people neither set
// shares), every output of face_detection_short_range, hand_landmark_lite
// and selfie_segmentation reaches 25 dB SQNR against the float model once the
// activations and the weights are 16-bit (docs/quantization.md). The float
// reference executor is the judge.
#include <doctest/doctest.h>

#include "frontend/model_cache.h"
#include "image/image_cache.h"
#include "image/image_sample.h"
#include "opuc/image/model_defaults.h"
#include "opuc/quant/accuracy.h"
#include "opuc/quant/quantize.h"
#include "pass/pass_test_util.h"

namespace opuc {
namespace {

TEST_CASE("16-bit activations and weights: 25 dB on every output of the evaluation set") {
  test::RequireImagesCache();
  for (const std::string name :
       {"face_detection_short_range", "hand_landmark_lite", "selfie_segmentation"}) {
    CAPTURE(name);
    const Graph graph = testing::OptimizedModel(test::ModelPath(name + ".tflite"));
    const TensorType input = graph.tensor(graph.inputs[0]).type();
    Expected<PreprocessOptions> preprocess = DefaultPreprocess(name, input);
    REQUIRE(preprocess.ok());
    QuantizeOptions options;
    options.precision = Precision::kInt16;
    options.wide_weights = true;
    Expected<QuantizedGraph> q = Quantize(
        graph, test::ImageSamples(test::CalibrationImagesDir(), input, *preprocess), options);
    REQUIRE_MESSAGE(q.ok(), q.status().ToString());
    Expected<std::vector<OutputAccuracy>> accuracy = CompareWithFloat(
        graph, q->graph, test::ImageSamples(test::EvaluationImagesDir(), input, *preprocess));
    REQUIRE(accuracy.ok());
    for (const OutputAccuracy& a : *accuracy) {
      CAPTURE(a.name);
      MESSAGE(name << " " << a.name << ": " << a.sqnr_db << " dB");
      CHECK(a.sqnr_db >= 25.0);
    }
  }
}

}  // namespace
}  // namespace opuc
