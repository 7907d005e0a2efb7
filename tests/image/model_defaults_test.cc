// DefaultPreprocess: MediaPipe's published float ranges, copied by hand from
// the graph files listed in docs/calibration.md (output_tensor_float_range
// [min, max] -> scale (max - min) / 255, offset min), and the input sizes
// of environment.md §3.
#include "opuc/image/model_defaults.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace opuc {
namespace {

TensorType ImageInput(int64_t h, int64_t w) { return {DType::kF32, {1, h, w, 3}}; }

struct Expectation {
  const char* model;
  int64_t h, w;
  double min;  // max is 1 for all
};

TEST_CASE("the 13 models") {
  const std::vector<Expectation> table = {
      {"face_detection_short_range", 128, 128, -1},
      {"face_detection_full_range", 192, 192, -1},
      {"face_detection_full_range_sparse", 192, 192, -1},
      {"selfie_segmentation", 256, 256, 0},
      {"selfie_segmentation_landscape", 144, 256, 0},
      {"hand_landmark_lite", 224, 224, 0},
      {"hand_landmark_full", 224, 224, 0},
      {"palm_detection_lite", 192, 192, 0},
      {"palm_detection_full", 192, 192, 0},
      {"pose_detection", 224, 224, -1},
      {"pose_landmark_lite", 256, 256, 0},
      {"pose_landmark_full", 256, 256, 0},
      {"pose_landmark_heavy", 256, 256, 0},
  };
  CHECK(ModelsWithDefaultPreprocess().size() == table.size());
  for (const Expectation& e : table) {
    CAPTURE(e.model);
    Expected<PreprocessOptions> o = DefaultPreprocess(e.model, ImageInput(e.h, e.w));
    REQUIRE(o.ok());
    CHECK(o->height == e.h);
    CHECK(o->width == e.w);
    CHECK(o->scale == (1.0 - e.min) / 255.0);
    CHECK(o->offset == e.min);
    CHECK(o->order == ChannelOrder::kRgb);
  }
}

TEST_CASE("[-1, 1] maps 0 to -1 and 255 to 1, [0, 1] maps 255 to 1") {
  Expected<PreprocessOptions> face =
      DefaultPreprocess("face_detection_short_range", ImageInput(128, 128));
  REQUIRE(face.ok());
  CHECK(0 * face->scale + face->offset == -1.0);
  CHECK(255 * face->scale + face->offset == doctest::Approx(1.0).epsilon(1e-15));
  Expected<PreprocessOptions> hand = DefaultPreprocess("hand_landmark_lite", ImageInput(224, 224));
  REQUIRE(hand.ok());
  CHECK(255 * hand->scale + hand->offset == doctest::Approx(1.0).epsilon(1e-15));
}

TEST_CASE("paths and extensions are stripped to the stem") {
  for (const char* name : {"/cache/models/pose_detection.tflite", "pose_detection.opug",
                           "out/pose_detection.opug.json", "pose_detection"}) {
    CAPTURE(name);
    Expected<PreprocessOptions> o = DefaultPreprocess(name, ImageInput(224, 224));
    REQUIRE(o.ok());
    CHECK(o->offset == -1.0);
  }
}

TEST_CASE("unknown models and non-image inputs are errors") {
  Expected<PreprocessOptions> unknown = DefaultPreprocess("my_net.tflite", ImageInput(8, 8));
  REQUIRE_FALSE(unknown.ok());
  CHECK(unknown.status().code() == StatusCode::kNotFound);
  CHECK(unknown.status().message().find("no published preprocessing for model 'my_net'; give "
                                        "--preprocess scale=...,offset=... (known models: "
                                        "[face_detection_full_range,") == 0);

  Expected<PreprocessOptions> gray =
      DefaultPreprocess("hand_landmark_lite", {DType::kF32, {1, 224, 224, 1}});
  REQUIRE_FALSE(gray.ok());
  CHECK(gray.status().message() ==
        "hand_landmark_lite: the model input is f32[1,224,224,1]; an image input is "
        "f32[1,H,W,3]");
  CHECK_FALSE(DefaultPreprocess("hand_landmark_lite", {DType::kI8, {1, 224, 224, 3}}).ok());
  CHECK_FALSE(DefaultPreprocess("hand_landmark_lite", {DType::kF32, {2, 224, 224, 3}}).ok());
  CHECK_FALSE(DefaultPreprocess("hand_landmark_lite", {DType::kF32, {224, 224, 3}}).ok());
}

}  // namespace
}  // namespace opuc
