//===- tools/opuc/detect.cc - `opuc detect` -------------------------------===//
//
// opuc detect MODEL|PROG.opup IMAGE [--device D] [--draw OUT.png]
//             [--float MODEL] [--min-score S] [--preprocess TEXT]
//             [--profile FILE] [--json]
//
// The photograph goes through the model's published preprocessing (resized
// whole to the input, so the faces' normalized coordinates are fractions of
// the photograph), the model or program runs on the device, and its two
// outputs are decoded as BlazeFace faces (opuc/image/face_detections.h).
//
//===----------------------------------------------------------------------===//
#include "opuc/detect.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "opuc/calibration_inputs.h"
#include "opuc/exit_codes.h"
#include "opuc/image/draw.h"
#include "opuc/image/face_detections.h"
#include "opuc/image/model_defaults.h"
#include "opuc/output.h"
#include "opuc/profile.h"
#include "opuc/run_target.h"
#include "opuc/text_format.h"

namespace opuc::cli {
namespace {

using Json = nlohmann::ordered_json;

constexpr const char* kKeypointNames[kFaceKeypoints] = {"right eye", "left eye",  "nose tip",
                                                        "mouth",     "right ear", "left ear"};
constexpr Rgb kRunColor{0, 230, 64};     // green: this run's faces
constexpr Rgb kFloatColor{255, 176, 0};  // amber: the float model's
constexpr Rgb kKeypointColor{255, 32, 32};

/// The detector's input side and which output is which: the regressors
/// end in 16 values, the classificators in 1.
struct DetectorShape {
  int32_t side = 0;
  size_t regressors = 0, classificators = 1;
};

Expected<DetectorShape> InspectDetector(const Graph& graph) {
  if (graph.inputs.size() != 1 || graph.outputs.size() != 2)
    return InvalidArgument(
        "opuc detect decodes BlazeFace face detectors (one image input; two outputs, regressors "
        "[1,N,16] and classificators [1,N,1]); this model has " +
        std::to_string(graph.inputs.size()) + " input(s) and " +
        std::to_string(graph.outputs.size()) + " output(s)");
  const TensorType input = graph.tensor(graph.inputs[0]).type();
  OPUC_RETURN_IF_ERROR(CheckImageInput(input));
  if (input.shape[1] != input.shape[2])
    return InvalidArgument(
        "the model input is not square; BlazeFace detectors take 128x128 or "
        "192x192 photographs");
  DetectorShape d;
  d.side = static_cast<int32_t>(input.shape[1]);
  const Shape& first = graph.tensor(graph.outputs[0]).shape;
  if (!first.empty() && first.back() == 1) std::swap(d.regressors, d.classificators);
  return d;
}

Expected<std::vector<FaceDetection>> Detect(const RunTarget& target, const std::string& device,
                                            const HostTensor& input, float min_score,
                                            std::vector<OpuCounters>* counters) {
  OPUC_ASSIGN_OR_RETURN(DetectorShape d, InspectDetector(target.graph()));
  std::vector<HostTensor> inputs;
  OPUC_ASSIGN_OR_RETURN(HostTensor copy,
                        HostTensor::Copy(input.dtype(), input.shape(), input.raw(), input.bytes()));
  inputs.push_back(std::move(copy));
  OPUC_ASSIGN_OR_RETURN(TargetRun run, RunOn(target, device, std::move(inputs)));
  if (counters != nullptr) *counters = std::move(run.counters);
  Expected<std::vector<FaceDetection>> faces = DecodeFaceDetections(
      run.outputs[d.regressors], run.outputs[d.classificators], d.side, min_score);
  if (!faces.ok()) return faces.status().WithContext(target.path);
  return faces;
}

/// The pixel at `fraction` of `size`, kept within a million pixels of the
/// image (a regressor far out of range, or NaN, must not overflow the cast).
int32_t Pixel(float fraction, int32_t size) {
  const float p = std::round(fraction * static_cast<float>(size));
  if (!std::isfinite(p)) return 0;
  return static_cast<int32_t>(std::clamp(p, -1e6f, 1e6f));
}

void Draw(Image& image, const std::vector<FaceDetection>& faces, Rgb color, int32_t thickness,
          bool keypoints) {
  const int32_t dot = std::max(2, std::min(image.width, image.height) / 120);
  for (const FaceDetection& f : faces) {
    DrawRectangle(image, Pixel(f.xmin, image.width), Pixel(f.ymin, image.height),
                  Pixel(f.xmax, image.width), Pixel(f.ymax, image.height), thickness, color);
    if (!keypoints) continue;
    for (const auto& k : f.keypoints)
      DrawDot(image, Pixel(k[0], image.width), Pixel(k[1], image.height), dot, kKeypointColor);
  }
}

/// The float face this one overlaps most, and by how much.
std::pair<const FaceDetection*, float> Nearest(const FaceDetection& face,
                                               const std::vector<FaceDetection>& others) {
  std::pair<const FaceDetection*, float> best{nullptr, 0.0f};
  for (const FaceDetection& o : others)
    if (IoU(face, o) > best.second) best = {&o, IoU(face, o)};
  return best;
}

Json FaceJson(const FaceDetection& f, const Image& image) {
  Json points = Json::array();
  for (const auto& k : f.keypoints) points.push_back({k[0], k[1]});
  return {{"score", f.score},
          {"box", {f.xmin, f.ymin, f.xmax, f.ymax}},
          {"box_pixels",
           {Pixel(f.xmin, image.width), Pixel(f.ymin, image.height), Pixel(f.xmax, image.width),
            Pixel(f.ymax, image.height)}},
          {"keypoints", points}};
}

void PrintFaces(const DetectOptions& o, const Image& image, const std::vector<FaceDetection>& faces,
                const std::vector<FaceDetection>* float_faces, std::ostream& out) {
  out << o.image << ": " << image.width << "x" << image.height << ", " << faces.size()
      << (faces.size() == 1 ? " face" : " faces") << " (" << o.model << " on " << o.device
      << ", score >= " << o.min_score << ")\n";
  for (size_t i = 0; i < faces.size(); ++i) {
    const FaceDetection& f = faces[i];
    out << "  face " << i + 1 << ": score " << Fixed(f.score, 3) << ", box x "
        << Pixel(f.xmin, image.width) << ".." << Pixel(f.xmax, image.width) << " y "
        << Pixel(f.ymin, image.height) << ".." << Pixel(f.ymax, image.height) << " px\n   ";
    for (int k = 0; k < kFaceKeypoints; ++k)
      out << (k ? ", " : " ") << kKeypointNames[k] << " ("
          << Pixel(f.keypoints[static_cast<size_t>(k)][0], image.width) << ", "
          << Pixel(f.keypoints[static_cast<size_t>(k)][1], image.height) << ")";
    out << '\n';
    if (!float_faces) continue;
    const auto [match, iou] = Nearest(f, *float_faces);
    if (match)
      out << "    float model: score " << Fixed(match->score, 3) << ", IoU " << Fixed(iou, 3)
          << '\n';
    else
      out << "    float model: no face here\n";
  }
  if (float_faces)
    out << "  float model: " << float_faces->size()
        << (float_faces->size() == 1 ? " face" : " faces") << " (" << o.float_model << " on cpu)\n";
}

Expected<std::vector<FaceDetection>> FloatFaces(const DetectOptions& o, const HostTensor& input) {
  OPUC_ASSIGN_OR_RETURN(RunTarget reference, LoadRunTarget(o.float_model));
  if (reference.program)
    return InvalidArgument(o.float_model + ": --float takes the float model, not a program");
  return Detect(reference, "cpu", input, static_cast<float>(o.min_score), nullptr);
}

int Run(const DetectOptions& o, std::ostream& out, std::ostream& err) {
  if (!(o.min_score >= 0 && o.min_score <= 1))
    return ReportError(InvalidArgument("--min-score must lie in [0, 1]"), err);
  Expected<RunTarget> target = LoadRunTarget(o.model);
  if (!target.ok()) return ReportError(target.status(), err);
  if (!o.profile.empty() && !target->program)
    return ReportError(InvalidArgument("--profile: a model has no OPU steps to profile; compile "
                                       "it (opuc compile) and detect with the program"),
                       err);
  Expected<DetectorShape> shape = InspectDetector(target->graph());
  if (!shape.ok()) return ReportError(shape.status().WithContext(o.model), err);
  const TensorType input_type = target->graph().tensor(target->graph().inputs[0]).type();
  Expected<PreprocessOptions> preprocess =
      ChoosePreprocess(target->ModelName(), o.preprocess, input_type);
  if (!preprocess.ok()) return ReportError(preprocess.status(), err);
  Expected<Image> image = LoadImage(o.image);
  if (!image.ok()) return ReportError(image.status(), err);
  Expected<HostTensor> input = Preprocess(*image, *preprocess);
  if (!input.ok()) return ReportError(input.status().WithContext(o.image), err);

  std::vector<OpuCounters> counters;
  Expected<std::vector<FaceDetection>> faces =
      Detect(*target, o.device, *input, static_cast<float>(o.min_score), &counters);
  if (!faces.ok()) return ReportError(faces.status(), err);
  std::optional<std::vector<FaceDetection>> float_faces;
  if (!o.float_model.empty()) {
    Expected<std::vector<FaceDetection>> found = FloatFaces(o, *input);
    if (!found.ok()) return ReportError(found.status(), err);
    float_faces = std::move(found).value();
  }
  if (!o.profile.empty())
    if (Status s = WriteProfile(o.profile, *target->program, o.device, counters); !s.ok())
      return ReportError(s, err);
  if (!o.draw.empty()) {
    Image drawn = *image;
    const int32_t thickness = std::max(2, std::min(drawn.width, drawn.height) / 160);
    if (float_faces) Draw(drawn, *float_faces, kFloatColor, std::max(1, thickness / 2), false);
    Draw(drawn, *faces, kRunColor, thickness, true);
    if (Status s = SavePng(drawn, o.draw); !s.ok()) return ReportError(s, err);
  }

  if (o.json) {
    Json json{{"image", o.image},      {"width", image->width}, {"height", image->height},
              {"model", o.model},      {"device", o.device},    {"min_score", o.min_score},
              {"faces", Json::array()}};
    for (const FaceDetection& f : *faces) json["faces"].push_back(FaceJson(f, *image));
    if (float_faces) {
      json["float_faces"] = Json::array();
      for (const FaceDetection& f : *float_faces)
        json["float_faces"].push_back(FaceJson(f, *image));
    }
    if (!o.draw.empty()) json["drawn"] = o.draw;
    // Names from the file system may be any bytes: shown, not thrown on.
    out << JsonText(json) << '\n';
    return kExitOk;
  }
  PrintFaces(o, *image, *faces, float_faces ? &*float_faces : nullptr, out);
  if (!o.draw.empty())
    out << "  drawn -> " << o.draw
        << (float_faces ? " (green: this run, red dots: its keypoints; amber: the float model)\n"
                        : " (green: the faces, red dots: their keypoints)\n");
  return kExitOk;
}

}  // namespace

int RunDetect(const DetectOptions& options, std::ostream& out, std::ostream& err) {
  return Run(options, out, err);
}

Command AddDetectCommand(CLI::App& app) {
  return AddCommand(
      app, "detect",
      "Find the faces in a photograph with a BlazeFace face detector (a model or a program "
      "compiled from one) and draw them",
      [](CLI::App& cli, DetectOptions& o) {
        cli.add_option("MODEL", o.model,
                       "face_detection_short_range or _full_range (.tflite, .opug) or a program "
                       "compiled from one (.opup)")
            ->required();
        cli.add_option("IMAGE", o.image, "The photograph (PNG or JPEG)")->required();
        cli.add_option("--device", o.device,
                       "Where to run: a model on ref or cpu; a program's OPU steps on ref, cpu, "
                       "fsim or rtl (its CPU steps on the CPU executor)")
            ->capture_default_str();
        cli.add_option("--draw", o.draw,
                       "Write the photograph with the faces' boxes and keypoints drawn (PNG)");
        cli.add_option("--float", o.float_model,
                       "The float model too: each face beside the float model's nearest, with "
                       "their IoU (drawn in amber)");
        cli.add_option("--min-score", o.min_score, "Faces scored at least this (0 to 1)")
            ->capture_default_str();
        cli.add_option("--preprocess", o.preprocess,
                       "key=value,... over the model's preprocessing (docs/calibration.md)");
        cli.add_option("--profile", o.profile,
                       "With a program: write what the device counted on each OPU step, for "
                       "opuc report --profile");
        cli.add_flag("--json", o.json, "Print one JSON object instead of text");
      },
      RunDetect);
}

}  // namespace opuc::cli
