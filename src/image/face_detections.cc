//===- src/image/face_detections.cc - BlazeFace outputs to faces ----------===//
#include "opuc/image/face_detections.h"

#include <algorithm>
#include <cmath>

#include "support/format.h"

namespace opuc {
namespace {

struct Grid {
  int32_t stride = 0, anchors_per_cell = 0;
};

/// The anchor grids of MediaPipe's detector for a square input of `side`
/// pixels (layers with equal strides share one grid); empty for sizes
/// without a published configuration.
std::vector<Grid> GridsFor(int32_t side) {
  if (side == 128) return {{8, 2}, {16, 6}};
  if (side == 192) return {{4, 1}};
  return {};
}

struct Anchor {
  float x = 0, y = 0;
};

std::vector<Anchor> Anchors(int32_t side) {
  std::vector<Anchor> anchors;
  for (const Grid& grid : GridsFor(side)) {
    const int32_t cells = side / grid.stride;
    for (int32_t y = 0; y < cells; ++y)
      for (int32_t x = 0; x < cells; ++x)
        for (int32_t k = 0; k < grid.anchors_per_cell; ++k)
          anchors.push_back({(static_cast<float>(x) + 0.5f) / static_cast<float>(cells),
                             (static_cast<float>(y) + 0.5f) / static_cast<float>(cells)});
  }
  return anchors;
}

Status CheckOutput(const HostTensor& t, const char* what, int64_t boxes, int64_t values) {
  if (t.dtype() == DType::kF32 && t.shape() == Shape{1, boxes, values}) return OkStatus();
  return InvalidArgument(Cat("the ", what, " output is ", DescribeType(t), "; a BlazeFace detector",
                             " of this input size gives f32[1,", boxes, ",", values, "]"));
}

}  // namespace

float IoU(const FaceDetection& a, const FaceDetection& b) {
  const float w = std::min(a.xmax, b.xmax) - std::max(a.xmin, b.xmin);
  const float h = std::min(a.ymax, b.ymax) - std::max(a.ymin, b.ymin);
  if (!(w > 0 && h > 0)) return 0.0f;
  const float inter = w * h;
  const float area_a = (a.xmax - a.xmin) * (a.ymax - a.ymin);
  const float area_b = (b.xmax - b.xmin) * (b.ymax - b.ymin);
  return inter / (area_a + area_b - inter);
}

Expected<std::vector<FaceDetection>> DecodeFaceDetections(const HostTensor& regressors,
                                                          const HostTensor& classificators,
                                                          int32_t input_side, float min_score) {
  const std::vector<Anchor> anchors = Anchors(input_side);
  if (anchors.empty())
    return InvalidArgument(Cat("no BlazeFace anchor configuration for a ", input_side, "x",
                               input_side, " input (known: 128x128 short range, 192x192 full",
                               " range)"));
  const auto boxes = static_cast<int64_t>(anchors.size());
  OPUC_RETURN_IF_ERROR(CheckOutput(regressors, "regressors", boxes, 16));
  OPUC_RETURN_IF_ERROR(CheckOutput(classificators, "classificators", boxes, 1));

  const float side = static_cast<float>(input_side);
  const float* raw = regressors.data<float>();
  const float* logits = classificators.data<float>();
  std::vector<FaceDetection> candidates;
  for (size_t i = 0; i < anchors.size(); ++i) {
    const float score = 1.0f / (1.0f + std::exp(-std::clamp(logits[i], -100.0f, 100.0f)));
    if (!(score >= min_score)) continue;  // a NaN logit is no face
    const float* r = raw + i * 16;
    const float cx = r[0] / side + anchors[i].x, cy = r[1] / side + anchors[i].y;
    const float w = r[2] / side, h = r[3] / side;
    FaceDetection face{cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2, score, {}};
    for (int k = 0; k < kFaceKeypoints; ++k)
      face.keypoints[static_cast<size_t>(k)] = {r[4 + 2 * k] / side + anchors[i].x,
                                                r[5 + 2 * k] / side + anchors[i].y};
    candidates.push_back(face);
  }
  std::stable_sort(
      candidates.begin(), candidates.end(),
      [](const FaceDetection& a, const FaceDetection& b) { return a.score > b.score; });
  std::vector<FaceDetection> kept;
  for (const FaceDetection& face : candidates)
    if (std::none_of(kept.begin(), kept.end(),
                     [&](const FaceDetection& k) { return IoU(k, face) > 0.3f; }))
      kept.push_back(face);
  return kept;
}

}  // namespace opuc
