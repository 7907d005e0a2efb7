//===- opuc/image/face_detections.h - BlazeFace outputs to faces -*- C++ -*-===//
//
// Turns a BlazeFace detector's two outputs (regressors [1, N, 16],
// classificators [1, N, 1]) into faces, from the models' published
// parameters (MediaPipe's face_detection_short_range and _full_range
// graphs):
//
//   anchors: SSD anchors of fixed size 1, centres ((x + 0.5) / side,
//            (y + 0.5) / side) in cell order; short range (128 × 128):
//            a 16 × 16 grid with 2 anchors per cell, then an 8 × 8 grid
//            with 6 (16·16·2 + 8·8·6 = 896); full range (192 × 192): one
//            48 × 48 grid with 1 (2304);
//   boxes:   centre = raw[0..1] / side + anchor centre, size = raw[2..3] / side;
//   points:  keypoint k = raw[4 + 2k .. 5 + 2k] / side + anchor centre
//            (right eye, left eye, nose tip, mouth, right ear, left ear);
//   scores:  sigmoid(clamp(raw, −100, 100)), kept at >= min_score;
//   overlap: greedy non-maximum suppression at IoU 0.3 (MediaPipe averages
//            the overlapping boxes instead; either keeps one box per face).
//
// Coordinates are normalized to the model input, [0, 1] across and down;
// the input is the whole photograph resized (not cropped), so they are
// fractions of the photograph too.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_IMAGE_FACE_DETECTIONS_H
#define OPUC_IMAGE_FACE_DETECTIONS_H

#include <array>
#include <cstdint>
#include <vector>

#include "opuc/status.h"
#include "opuc/tensor_io/host_tensor.h"

namespace opuc {

inline constexpr int kFaceKeypoints = 6;

struct FaceDetection {
  float xmin = 0, ymin = 0, xmax = 0, ymax = 0;  ///< Normalized to [0, 1].
  float score = 0;
  std::array<std::array<float, 2>, kFaceKeypoints> keypoints{};  ///< (x, y), normalized.
};

/// Intersection over union of two boxes; 0 when they do not overlap.
float IoU(const FaceDetection& a, const FaceDetection& b);

/// The faces above `min_score`, best first, after suppression, for a
/// detector whose square input is `input_side` pixels (128 or 192). Errors
/// (InvalidArgument) name the output whose type or shape does not match a
/// BlazeFace detector of that size.
Expected<std::vector<FaceDetection>> DecodeFaceDetections(const HostTensor& regressors,
                                                          const HostTensor& classificators,
                                                          int32_t input_side,
                                                          float min_score = 0.5f);

}  // namespace opuc

#endif  // OPUC_IMAGE_FACE_DETECTIONS_H
