//===- src/image/model_defaults.cc - Published preprocessing per model ----===//
#include "opuc/image/model_defaults.h"

#include <algorithm>
#include <array>

#include "support/format.h"

namespace opuc {
namespace {

struct ModelRange {
  std::string_view stem;
  double min;  // output_tensor_float_range of the model's ImageToTensorCalculator
  double max;
};

// From MediaPipe's graphs (mediapipe/modules/...; docs/calibration.md).
constexpr std::array<ModelRange, 13> kModelRanges = {{
    {"face_detection_full_range", -1.0, 1.0},         // face_detection/face_detection.pbtxt
    {"face_detection_full_range_sparse", -1.0, 1.0},  // face_detection/face_detection.pbtxt
    {"face_detection_short_range", -1.0, 1.0},        // face_detection/face_detection.pbtxt
    {"hand_landmark_full", 0.0, 1.0},                 // hand_landmark/hand_landmark_cpu.pbtxt
    {"hand_landmark_lite", 0.0, 1.0},                 // hand_landmark/hand_landmark_cpu.pbtxt
    {"palm_detection_full", 0.0, 1.0},                // palm_detection/palm_detection_cpu.pbtxt
    {"palm_detection_lite", 0.0, 1.0},                // palm_detection/palm_detection_cpu.pbtxt
    {"pose_detection", -1.0, 1.0},                    // pose_detection/pose_detection_cpu.pbtxt
    {"pose_landmark_full", 0.0, 1.0},   // pose_landmark/pose_landmark_by_roi_cpu.pbtxt
    {"pose_landmark_heavy", 0.0, 1.0},  // pose_landmark/pose_landmark_by_roi_cpu.pbtxt
    {"pose_landmark_lite", 0.0, 1.0},   // pose_landmark/pose_landmark_by_roi_cpu.pbtxt
    {"selfie_segmentation", 0.0, 1.0},  // selfie_segmentation/selfie_segmentation_cpu.pbtxt
    {"selfie_segmentation_landscape", 0.0, 1.0},  // the same graph, second model
}};

// "dir/hand_landmark_lite.tflite" -> "hand_landmark_lite".
std::string_view ModelStem(std::string_view model) {
  if (const size_t slash = model.find_last_of('/'); slash != std::string_view::npos)
    model.remove_prefix(slash + 1);
  for (std::string_view ending : {".tflite", ".opug.json", ".opug"}) {
    if (model.size() > ending.size() && model.substr(model.size() - ending.size()) == ending) {
      model.remove_suffix(ending.size());
      break;
    }
  }
  return model;
}

}  // namespace

Status CheckImageInput(const TensorType& input) {
  const Shape& s = input.shape;
  if (input.dtype == DType::kF32 && s.size() == 4 && s[0] == 1 && s[1] > 0 &&
      s[1] <= kMaxPreprocessSide && s[2] > 0 && s[2] <= kMaxPreprocessSide && s[3] == 3)
    return OkStatus();
  return InvalidArgument(Cat("the model input is ", DTypeName(input.dtype),
                             ShapeToString(input.shape), "; an image input is f32[1,H,W,3]"));
}

Expected<PreprocessOptions> DefaultPreprocess(std::string_view model, const TensorType& input) {
  const std::string_view stem = ModelStem(model);
  const auto* found = std::find_if(kModelRanges.begin(), kModelRanges.end(),
                                   [&](const ModelRange& m) { return m.stem == stem; });
  if (found == kModelRanges.end())
    return NotFound(
        Cat("no published preprocessing for model '", stem,
            "'; give --preprocess scale=...,offset=... (known models: ",
            JoinList(ModelsWithDefaultPreprocess(), [](const std::string& s) { return s; }), ")"));
  OPUC_RETURN_IF_ERROR(CheckImageInput(input).WithContext(stem));
  PreprocessOptions options;
  options.height = static_cast<int32_t>(input.shape[1]);
  options.width = static_cast<int32_t>(input.shape[2]);
  options.scale = (found->max - found->min) / 255.0;
  options.offset = found->min;
  options.order = ChannelOrder::kRgb;
  return options;
}

std::vector<std::string> ModelsWithDefaultPreprocess() {
  std::vector<std::string> names;
  for (const ModelRange& m : kModelRanges) names.emplace_back(m.stem);
  return names;  // kModelRanges is sorted
}

}  // namespace opuc
