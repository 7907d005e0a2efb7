// Issue 15's accuracy target: calibrated on the cache's calibration set and
// judged on its evaluation set (photographs of faces and people neither set
// shares), every output of face_detection_short_range, hand_landmark_lite
// and selfie_segmentation is within 25 dB SQNR of the float model once the
// activations and the weights are 16-bit (docs/quantization.md). The float
// reference executor is the judge.
#include <doctest/doctest.h>

#include "frontend/model_cache.h"
#include "image/image_cache.h"
#include "opuc/image/calibration_set.h"
#include "opuc/image/model_defaults.h"
#include "opuc/quant/accuracy.h"
#include "opuc/quant/quantize.h"
#include "pass/pass_test_util.h"

namespace opuc {
namespace {

std::vector<std::vector<HostTensor>> Samples(const std::string& dir, const TensorType& input,
                                             const PreprocessOptions& preprocess) {
  Expected<std::vector<CalibrationSample>> set = LoadCalibrationSet(dir, input, preprocess);
  REQUIRE_MESSAGE(set.ok(), set.status().ToString());
  std::vector<std::vector<HostTensor>> samples;
  for (CalibrationSample& sample : *set) {
    samples.emplace_back();
    samples.back().push_back(std::move(sample.tensor));
  }
  return samples;
}

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
    Expected<QuantizedGraph> q =
        Quantize(graph, Samples(test::CalibrationImagesDir(), input, *preprocess), options);
    REQUIRE_MESSAGE(q.ok(), q.status().ToString());
    Expected<std::vector<OutputAccuracy>> accuracy =
        CompareWithFloat(graph, q->graph, Samples(test::EvaluationImagesDir(), input, *preprocess));
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
