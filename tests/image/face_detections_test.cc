// BlazeFace decoding on hand-made outputs: each expected box and keypoint is
// worked out here from the anchor formula in opuc/image/face_detections.h.
#include <doctest/doctest.h>

#include "opuc/image/face_detections.h"

namespace opuc {
namespace {

struct Outputs {
  HostTensor regressors, classificators;
};

/// Outputs for `boxes` anchors, every logit -10 (score 4.5e-5: no face).
Outputs Empty(int64_t boxes) {
  Outputs o{*HostTensor::Zeros(DType::kF32, {1, boxes, 16}),
            *HostTensor::Zeros(DType::kF32, {1, boxes, 1})};
  for (int64_t i = 0; i < boxes; ++i) o.classificators.data<float>()[i] = -10.0f;
  return o;
}

void SetAnchor(Outputs& o, int64_t anchor, float logit, std::initializer_list<float> raw) {
  o.classificators.data<float>()[anchor] = logit;
  float* r = o.regressors.data<float>() + anchor * 16;
  for (float v : raw) *r++ = v;
}

std::vector<FaceDetection> Decode(const Outputs& o, int32_t side) {
  Expected<std::vector<FaceDetection>> faces =
      DecodeFaceDetections(o.regressors, o.classificators, side);
  REQUIRE_MESSAGE(faces.ok(), faces.status().ToString());
  return *faces;
}

TEST_CASE("face detections: one anchor of the short-range 8x8 grid, decoded by hand") {
  Outputs o = Empty(896);
  // The 16x16 grid holds anchors 0..511; in the 8x8 grid (6 per cell),
  // cell x = 5, y = 3, k = 2 is 512 + (3·8 + 5)·6 + 2 = 688, centred at
  // (5.5 / 8, 3.5 / 8) = (0.6875, 0.4375).
  // Logit 0 is score 0.5 exactly: kept at the default threshold 0.5.
  SetAnchor(o, 688, 0.0f,
            {12.8f, -6.4f, 25.6f, 38.4f, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 64.0f, -128.0f});
  const std::vector<FaceDetection> faces = Decode(o, 128);
  REQUIRE(faces.size() == 1);
  const FaceDetection& f = faces[0];
  // centre (0.6875 + 0.1, 0.4375 − 0.05), size (0.2, 0.3).
  CHECK(f.xmin == doctest::Approx(0.6875));
  CHECK(f.xmax == doctest::Approx(0.8875));
  CHECK(f.ymin == doctest::Approx(0.2375));
  CHECK(f.ymax == doctest::Approx(0.5375));
  CHECK(f.score == doctest::Approx(0.5));
  CHECK(f.keypoints[0][0] == doctest::Approx(0.6875));  // right eye on the anchor
  CHECK(f.keypoints[0][1] == doctest::Approx(0.4375));
  CHECK(f.keypoints[5][0] == doctest::Approx(1.1875));  // left ear: + 64/128, − 128/128
  CHECK(f.keypoints[5][1] == doctest::Approx(-0.5625));
}

TEST_CASE("face detections: best first, an overlapping weaker box suppressed, a distant one kept") {
  Outputs o = Empty(896);
  // Anchors 0 and 1 share the first cell's centre (1/32, 1/32); anchor 511
  // is the 16x16 grid's last cell, centre (31/32, 31/32).
  SetAnchor(o, 0, 1.0f, {0, 0, 12.8f, 12.8f});      // score 0.731, box ±0.05
  SetAnchor(o, 1, 3.0f, {1.28f, 0, 12.8f, 12.8f});  // score 0.953, shifted 0.01: IoU 0.82
  SetAnchor(o, 511, 2.0f, {0, 0, 6.4f, 6.4f});      // score 0.881, far away
  const std::vector<FaceDetection> faces = Decode(o, 128);
  REQUIRE(faces.size() == 2);
  CHECK(faces[0].score == doctest::Approx(0.9526).epsilon(1e-3));
  CHECK(faces[0].xmin == doctest::Approx(1.0 / 32 + 0.01 - 0.05));
  CHECK(faces[1].score == doctest::Approx(0.8808).epsilon(1e-3));
  CHECK(faces[1].xmin == doctest::Approx(31.0 / 32 - 0.025));
}

TEST_CASE("face detections: the full-range 48x48 grid") {
  Outputs o = Empty(2304);
  // Cell x = 7, y = 10 is anchor 10·48 + 7 = 487, centred at (7.5/48, 10.5/48).
  SetAnchor(o, 487, 4.0f, {0, 0, 19.2f, 38.4f});  // size (0.1, 0.2) at side 192
  const std::vector<FaceDetection> faces = Decode(o, 192);
  REQUIRE(faces.size() == 1);
  CHECK(faces[0].xmin == doctest::Approx(7.5 / 48 - 0.05));
  CHECK(faces[0].ymax == doctest::Approx(10.5 / 48 + 0.1));
}

TEST_CASE("face detections: IoU of two boxes by hand") {
  FaceDetection a{0, 0, 2, 2, 1, {}}, b{1, 1, 3, 3, 1, {}}, c{5, 5, 6, 6, 1, {}};
  CHECK(IoU(a, b) == doctest::Approx(1.0 / 7));  // overlap 1, union 4 + 4 − 1
  CHECK(IoU(a, a) == doctest::Approx(1.0));
  CHECK(IoU(a, c) == 0.0f);
}

TEST_CASE("face detections: outputs of another model are refused by name") {
  Outputs o = Empty(896);
  Expected<std::vector<FaceDetection>> wrong_side =
      DecodeFaceDetections(o.regressors, o.classificators, 100);
  REQUIRE_FALSE(wrong_side.ok());
  CHECK(wrong_side.status().message().find("100x100") != std::string::npos);
  Expected<std::vector<FaceDetection>> swapped =
      DecodeFaceDetections(o.classificators, o.regressors, 128);
  REQUIRE_FALSE(swapped.ok());
  CHECK(swapped.status().message() ==
        "the regressors output is f32[1,896,1]; a BlazeFace detector of this input size gives "
        "f32[1,896,16]");
  Expected<std::vector<FaceDetection>> full_on_short =
      DecodeFaceDetections(o.regressors, o.classificators, 192);
  CHECK_FALSE(full_on_short.ok());
}

}  // namespace
}  // namespace opuc
