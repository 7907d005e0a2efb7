// Issue 49: the default program is right on photographs no choice saw.
// Quantized as `opuc compile` does by default (DefaultQuantizeOptions on
// the augmented views of calibration/), each model is judged on heldout/
// (camera, basketball2, baboon, home: in neither the calibration nor the
// evaluation set) and on evaluation/ (kept from calibration too). The expected
// values come from the float model on the reference executor.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "frontend/model_cache.h"
#include "image/image_cache.h"
#include "image/image_sample.h"
#include "opuc/cpu/executor.h"
#include "opuc/cpu_reference/reference.h"
#include "opuc/image/augment.h"
#include "opuc/image/calibration_set.h"
#include "opuc/image/face_detections.h"
#include "opuc/image/model_defaults.h"
#include "opuc/quant/accuracy.h"
#include "opuc/quant/quantize.h"
#include "pass/pass_test_util.h"

namespace opuc {
namespace {

struct Model {
  Graph graph;
  TensorType input;
  PreprocessOptions preprocess;
};

Model LoadOptimized(const std::string& name) {
  test::RequireImagesCache();
  Model m;
  m.graph = testing::OptimizedModel(test::ModelPath(name + ".tflite"));
  m.input = m.graph.tensor(m.graph.inputs[0]).type();
  Expected<PreprocessOptions> preprocess = DefaultPreprocess(name, m.input);
  REQUIRE(preprocess.ok());
  m.preprocess = *preprocess;
  return m;
}

/// Quantized as `opuc compile` quantizes by default.
QuantizedGraph QuantizeByDefault(const Model& m) {
  Expected<std::vector<CalibrationSample>> views =
      LoadAugmentedCalibrationSet(test::CalibrationImagesDir(), m.input, m.preprocess);
  REQUIRE_MESSAGE(views.ok(), views.status().ToString());
  std::vector<std::vector<HostTensor>> calibration;
  for (CalibrationSample& v : *views) calibration.push_back({std::move(v.tensor)});
  QuantizeOptions options = DefaultQuantizeOptions();
  options.views_per_photograph = kAugmentedViews;
  Expected<QuantizedGraph> quantized = Quantize(m.graph, calibration, options);
  REQUIRE_MESSAGE(quantized.ok(), quantized.status().ToString());
  MESSAGE("precision: " << quantized->report.i16_tensors << " i16 activations, "
                        << quantized->report.wide_weight_layers << " layers with 16-bit weights, +"
                        << quantized->report.extra_mac_passes_percent
                        << "% array passes; held-out part of the choice "
                        << quantized->report.held_out_sqnr_db << " dB");
  return std::move(*quantized);
}

std::vector<FaceDetection> Faces(const std::vector<HostTensor>& outputs) {
  Expected<std::vector<FaceDetection>> faces = DecodeFaceDetections(outputs[0], outputs[1], 128);
  REQUIRE_MESSAGE(faces.ok(), faces.status().ToString());
  return *faces;
}

/// Checks that the program finds exactly the float model's faces on every
/// photograph of `dir`: as many, and each float face matched by
/// its own program face at IoU >= 0.9 (greedy, best first). Returns the
/// photographs seen.
int CheckFaces(const Model& m, const QuantizedGraph& q, const std::string& dir) {
  Expected<std::vector<CalibrationSample>> set = LoadCalibrationSet(dir, m.input, m.preprocess);
  REQUIRE_MESSAGE(set.ok(), set.status().ToString());
  for (CalibrationSample& s : *set) {
    const std::string name = std::filesystem::path(s.path).filename().string();
    CAPTURE(name);
    std::vector<HostTensor> inputs;
    inputs.push_back(std::move(s.tensor));
    Expected<std::vector<HostTensor>> real = RunReference(m.graph, inputs);
    Expected<std::vector<HostTensor>> fixed = RunReference(q.graph, inputs);
    REQUIRE(real.ok());
    REQUIRE(fixed.ok());
    const std::vector<FaceDetection> want = Faces(*real), got = Faces(*fixed);
    MESSAGE(name << ": float " << want.size() << " faces, program " << got.size());
    CHECK(got.size() == want.size());
    std::vector<bool> used(got.size(), false);
    for (const FaceDetection& f : want) {
      float best = 0.0f;
      size_t at = got.size();
      for (size_t i = 0; i < got.size(); ++i)
        if (!used[i] && IoU(got[i], f) > best) {
          best = IoU(got[i], f);
          at = i;
        }
      MESSAGE("  float face score " << f.score << ": IoU " << best);
      CHECK(best >= 0.9f);
      if (at < got.size()) used[at] = true;
    }
  }
  return static_cast<int>(set->size());
}

TEST_CASE("default face detector: exactly the float model's faces on photographs it never saw") {
  const Model m = LoadOptimized("face_detection_short_range");
  const QuantizedGraph q = QuantizeByDefault(m);
  // heldout/ (camera.png: the float model's one face; basketball2.png,
  // baboon.jpg, home.jpg: none): the same faces, each at IoU >= 0.9.
  CHECK(CheckFaces(m, q, test::HeldOutImagesDir()) == 4);
  // evaluation/ (astronaut.png, grace_hopper.jpg: one face each; ihc.png:
  // none): the same faces, each at IoU >= 0.9.
  CHECK(CheckFaces(m, q, test::EvaluationImagesDir()) == 3);
}

// The least output SQNR of `q` against the float model on the photographs
// of `dir`, per output, each shown.
std::vector<OutputAccuracy> AccuracyOn(const Model& m, const QuantizedGraph& q,
                                       const std::string& dir) {
  const std::vector<std::vector<HostTensor>> photos =
      test::ImageSamples(dir, m.input, m.preprocess);
  Expected<std::vector<OutputAccuracy>> accuracy = CompareWithFloat(m.graph, q.graph, photos);
  REQUIRE_MESSAGE(accuracy.ok(), accuracy.status().ToString());
  for (const OutputAccuracy& a : *accuracy)
    MESSAGE(a.name << ": " << a.sqnr_db << " dB on " << dir);
  return *accuracy;
}

TEST_CASE("default program: 25 dB on every output on held-out photographs") {
  for (const std::string name :
       {"face_detection_short_range", "hand_landmark_lite", "selfie_segmentation"}) {
    CAPTURE(name);
    const Model m = LoadOptimized(name);
    const QuantizedGraph q = QuantizeByDefault(m);
    for (const OutputAccuracy& a : AccuracyOn(m, q, test::HeldOutImagesDir())) {
      CAPTURE(a.name);
      CHECK(a.sqnr_db >= 25.0);
    }
    // evaluation/ is kept from calibration too (the selfie mask on ihc.png, a
    // micrograph without a person, needs the fitted knots of its hard_swish
    // tables; docs/quantization.md).
    for (const OutputAccuracy& a : AccuracyOn(m, q, test::EvaluationImagesDir())) {
      CAPTURE(a.name);
      CHECK(a.sqnr_db >= 25.0);
    }
    // Issue 49: at most +35% array passes over int8 (the array reads an i16
    // whole; docs/quantization.md measures +0%, +24% and +12%).
    CHECK(q.report.extra_mac_passes_percent <= 35.0);
  }
}

}  // namespace
}  // namespace opuc
