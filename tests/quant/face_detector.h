//===- tests/quant/face_detector.h - BlazeFace output decoding --*- C++ -*-===//
//
// Turns face_detection_short_range's two outputs (regressors [1,896,16],
// classificators [1,896,1]) into boxes, from the model's published
// parameters (MediaPipe's face_detection_short_range graph):
//
//   anchors: SSD anchors for a 128×128 input, strides 8, 16, 16, 16, two
//            anchors per layer and cell (aspect 1 and its interpolated
//            twin), fixed size 1: 16·16·2 + 8·8·6 = 896, centres at
//            ((x + 0.5) / W, (y + 0.5) / H) in cell order;
//   boxes:   centre = raw[0..1] / 128 + anchor centre, size = raw[2..3] / 128;
//   scores:  sigmoid(clamp(raw, −100, 100)), kept at >= 0.5;
//   overlap: greedy non-maximum suppression at IoU 0.3 (MediaPipe averages
//            the overlapping boxes instead; either keeps one box per face).
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_TESTS_QUANT_FACE_DETECTOR_H
#define OPUC_TESTS_QUANT_FACE_DETECTOR_H

#include <vector>

#include "opuc/tensor_io/host_tensor.h"

namespace opuc::test {

struct Box {
  float xmin = 0, ymin = 0, xmax = 0, ymax = 0;  ///< Normalized to [0, 1].
  float score = 0;
};

float IoU(const Box& a, const Box& b);

/// Detections above `min_score`, best first, after suppression.
std::vector<Box> DecodeFaces(const HostTensor& regressors, const HostTensor& classificators,
                             float min_score = 0.5f);

}  // namespace opuc::test

#endif  // OPUC_TESTS_QUANT_FACE_DETECTOR_H
