//===- opuc/image/model_defaults.h - Published preprocessing per model -*- C++ -*-===//
//
// How MediaPipe feeds each of the 13 models of scripts/models.sha256: the
// float range of its ImageToTensorCalculator (output_tensor_float_range
// [min, max] means value = pixel × (max − min) / 255 + min), RGB order, and
// the model's input size. docs/calibration.md lists the graph files these
// come from.
//
//   face_detection_{short_range, full_range, full_range_sparse}, pose_detection: [-1, 1]
//   palm_detection_{lite, full}, hand_landmark_{lite, full},
//   pose_landmark_{lite, full, heavy}, selfie_segmentation{, _landscape}:        [0, 1]
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_IMAGE_MODEL_DEFAULTS_H
#define OPUC_IMAGE_MODEL_DEFAULTS_H

#include <string>
#include <string_view>
#include <vector>

#include "opuc/image/preprocess.h"
#include "opuc/ir/tensor.h"
#include "opuc/status.h"

namespace opuc {

/// The preprocessing MediaPipe uses for the model named `model` (a file stem
/// such as "hand_landmark_lite"; a path or a ".tflite", ".opug" or
/// ".opug.json" ending is stripped first), sized to `input`, which must be
/// f32 [1, H, W, 3]. NotFound names the model and lists the known ones;
/// InvalidArgument names the input type when it is not an image.
Expected<PreprocessOptions> DefaultPreprocess(std::string_view model, const TensorType& input);

/// The model stems DefaultPreprocess knows, sorted.
std::vector<std::string> ModelsWithDefaultPreprocess();

/// Ok when `input` is an image input, f32 [1, H, W, 3] with H and W at most
/// kMaxPreprocessSide; otherwise an error naming the type.
Status CheckImageInput(const TensorType& input);

}  // namespace opuc

#endif  // OPUC_IMAGE_MODEL_DEFAULTS_H
