//===- tests/quant/face_detector.cc - BlazeFace output decoding -----------===//
#include "quant/face_detector.h"

#include <algorithm>
#include <cmath>

namespace opuc::test {
namespace {

struct Anchor {
  float x = 0, y = 0;
};

std::vector<Anchor> Anchors() {
  std::vector<Anchor> anchors;
  // Layers with equal strides share one grid: stride 8 has 1 layer, stride
  // 16 has 3; each layer puts 2 anchors in every cell.
  const struct { int stride, anchors_per_cell; } grids[] = {{8, 2}, {16, 6}};
  for (const auto& grid : grids) {
    const int side = 128 / grid.stride;
    for (int y = 0; y < side; ++y)
      for (int x = 0; x < side; ++x)
        for (int k = 0; k < grid.anchors_per_cell; ++k)
          anchors.push_back({(static_cast<float>(x) + 0.5f) / static_cast<float>(side),
                             (static_cast<float>(y) + 0.5f) / static_cast<float>(side)});
  }
  return anchors;
}

}  // namespace

float IoU(const Box& a, const Box& b) {
  const float w = std::min(a.xmax, b.xmax) - std::max(a.xmin, b.xmin);
  const float h = std::min(a.ymax, b.ymax) - std::max(a.ymin, b.ymin);
  if (w <= 0 || h <= 0) return 0.0f;
  const float inter = w * h;
  const float area_a = (a.xmax - a.xmin) * (a.ymax - a.ymin);
  const float area_b = (b.xmax - b.xmin) * (b.ymax - b.ymin);
  return inter / (area_a + area_b - inter);
}

std::vector<Box> DecodeFaces(const HostTensor& regressors, const HostTensor& classificators,
                             float min_score) {
  const std::vector<Anchor> anchors = Anchors();
  const float* raw = regressors.data<float>();
  const float* logits = classificators.data<float>();
  std::vector<Box> candidates;
  for (size_t i = 0; i < anchors.size(); ++i) {
    const float score = 1.0f / (1.0f + std::exp(-std::clamp(logits[i], -100.0f, 100.0f)));
    if (score < min_score) continue;
    const float* r = raw + i * 16;
    const float cx = r[0] / 128.0f + anchors[i].x, cy = r[1] / 128.0f + anchors[i].y;
    const float w = r[2] / 128.0f, h = r[3] / 128.0f;
    candidates.push_back({cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2, score});
  }
  std::sort(candidates.begin(), candidates.end(),
            [](const Box& a, const Box& b) { return a.score > b.score; });
  std::vector<Box> kept;
  for (const Box& box : candidates)
    if (std::none_of(kept.begin(), kept.end(), [&](const Box& k) { return IoU(k, box) > 0.3f; }))
      kept.push_back(box);
  return kept;
}

}  // namespace opuc::test
