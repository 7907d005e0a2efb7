// The task-level checks of quantization: face_detection_short_range finds
// the same face quantized as in float on astronaut.png (one face, Eileen
// Collins, upper middle) when calibrated on the other skimage photographs
// (issue 7), and on both portraits of the evaluation set when calibrated on
// the calibration set (issue 15), in int8 and with 16-bit activations and
// weights.
#include <doctest/doctest.h>

#include <cmath>

#include "frontend/model_cache.h"
#include "image/image_cache.h"
#include "image/image_sample.h"
#include "opuc/cpu_reference/reference.h"
#include "opuc/frontend/load_model.h"
#include "opuc/image/calibration_set.h"
#include "opuc/image/face_detections.h"
#include "opuc/image/model_defaults.h"
#include "opuc/quant/quantize.h"
#include "pass/pass_test_util.h"

namespace opuc {
namespace {

/// face_detection_short_range after the default pipeline, with its input
/// and MediaPipe's preprocessing.
struct Detector {
  Graph graph;
  TensorType input;
  PreprocessOptions preprocess;
};

/// The faces in face_detection_short_range's outputs (128 × 128 input).
std::vector<FaceDetection> Faces(const std::vector<HostTensor>& outputs) {
  Expected<std::vector<FaceDetection>> faces = DecodeFaceDetections(outputs[0], outputs[1], 128);
  REQUIRE_MESSAGE(faces.ok(), faces.status().ToString());
  return *faces;
}

Detector LoadDetector() {
  test::RequireImagesCache();
  Detector d;
  d.graph = testing::OptimizedModel(test::ModelPath("face_detection_short_range.tflite"));
  d.input = d.graph.tensor(d.graph.inputs[0]).type();
  Expected<PreprocessOptions> preprocess = DefaultPreprocess("face_detection_short_range", d.input);
  REQUIRE(preprocess.ok());
  d.preprocess = *preprocess;
  return d;
}

TEST_CASE("face detection: the quantized model finds the float model's face on astronaut.png") {
  const Detector detector = LoadDetector();
  const Graph& graph = detector.graph;
  const TensorType& input = detector.input;
  const PreprocessOptions& preprocess = detector.preprocess;

  std::vector<std::vector<HostTensor>> calibration, astronaut;
  for (const char* file : {"chelsea.png", "coffee.png", "ihc.png", "motorcycle_left.png",
                           "motorcycle_right.png", "astronaut.png"}) {
    Expected<CalibrationSample> sample =
        LoadCalibrationSample(test::ImagePath(file), input, preprocess);
    REQUIRE(sample.ok());
    auto& set = std::string(file) == "astronaut.png" ? astronaut : calibration;
    set.emplace_back();
    set.back().push_back(std::move(sample->tensor));
  }
  Expected<QuantizedGraph> quantized = Quantize(graph, calibration);
  REQUIRE(quantized.ok());

  Expected<std::vector<HostTensor>> real = RunReference(graph, astronaut[0]);
  Expected<std::vector<HostTensor>> fixed = RunReference(quantized->graph, astronaut[0]);
  REQUIRE(real.ok());
  REQUIRE(fixed.ok());
  // Outputs: regressors [1,896,16], classificators [1,896,1].
  const std::vector<FaceDetection> float_faces = Faces(*real);
  const std::vector<FaceDetection> int_faces = Faces(*fixed);
  REQUIRE(float_faces.size() == 1);  // one face in the photograph
  const FaceDetection& face = float_faces[0];
  MESSAGE("float face [" << face.xmin << ", " << face.ymin << ", " << face.xmax << ", " << face.ymax
                         << "] score " << face.score);
  // Where the face is, read off the 512×512 photograph by eye: centred near
  // pixel (225, 130), i.e. (0.44, 0.25), give or take 25 pixels.
  CHECK(std::abs((face.xmin + face.xmax) / 2 - 0.44f) < 0.05f);
  CHECK(std::abs((face.ymin + face.ymax) / 2 - 0.25f) < 0.05f);
  CHECK(int_faces.size() == float_faces.size());
  REQUIRE_FALSE(int_faces.empty());
  MESSAGE("quantized face IoU " << IoU(int_faces[0], face) << " score " << int_faces[0].score);
  CHECK(IoU(int_faces[0], face) >= 0.9f);
}

TEST_CASE("face detection, calibrated on calibration/: the same faces on both portraits") {
  // Issue 15's check: calibrated on the cache's calibration set (people among
  // its photographs), judged on the two portraits of the evaluation set.
  const Detector detector = LoadDetector();
  const Graph& graph = detector.graph;
  const TensorType& input = detector.input;
  const PreprocessOptions& preprocess = detector.preprocess;
  const std::vector<std::vector<HostTensor>> calibration =
      test::ImageSamples(test::CalibrationImagesDir(), input, preprocess);
  // int8, and 16-bit activations and weights (numerics.md §1b, §1c).
  QuantizeOptions wide;
  wide.precision = Precision::kInt16;
  wide.wide_weights = true;
  for (const QuantizeOptions& options : {QuantizeOptions(), wide}) {
    CAPTURE(options.wide_weights);
    Expected<QuantizedGraph> quantized = Quantize(graph, calibration, options);
    REQUIRE_MESSAGE(quantized.ok(), quantized.status().ToString());
    for (const std::string file : {"grace_hopper.jpg", "astronaut.png"}) {
      CAPTURE(file);
      Expected<CalibrationSample> portrait =
          LoadCalibrationSample(test::ImagePath(file), input, preprocess);
      REQUIRE(portrait.ok());
      std::vector<HostTensor> inputs;
      inputs.push_back(std::move(portrait->tensor));
      Expected<std::vector<HostTensor>> real = RunReference(graph, inputs);
      Expected<std::vector<HostTensor>> fixed = RunReference(quantized->graph, inputs);
      REQUIRE(real.ok());
      REQUIRE(fixed.ok());
      const std::vector<FaceDetection> float_faces = Faces(*real);
      const std::vector<FaceDetection> int_faces = Faces(*fixed);
      REQUIRE(float_faces.size() == 1);  // each portrait shows one face
      CHECK(int_faces.size() == float_faces.size());
      REQUIRE_FALSE(int_faces.empty());
      MESSAGE(file << std::string(options.wide_weights ? " (16-bit)" : " (int8)")
                   << ": quantized face IoU " << IoU(int_faces[0], float_faces[0]) << ", score "
                   << int_faces[0].score << " (float " << float_faces[0].score << ")");
      CHECK(IoU(int_faces[0], float_faces[0]) >= 0.9f);
    }
  }
}

}  // namespace
}  // namespace opuc
