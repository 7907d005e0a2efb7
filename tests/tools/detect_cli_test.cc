// `opuc detect` on face_detection_short_range and grace_hopper.jpg, a
// portrait of the evaluation set: where the face is (read off the
// photograph by eye), the compiled program's face against the float
// model's, every device of the bit-exact chain finding the same face, the
// picture drawn, and the errors for a model that is not a face detector.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "frontend/model_cache.h"
#include "image/image_cache.h"
#include "opuc/image/image.h"
#include "tools/cli_util.h"

namespace {

using namespace opuc::cli_test;
using Json = nlohmann::json;

double IoU(const Json& a, const Json& b) {
  const double w = std::min(a[2].get<double>(), b[2].get<double>()) -
                   std::max(a[0].get<double>(), b[0].get<double>());
  const double h = std::min(a[3].get<double>(), b[3].get<double>()) -
                   std::max(a[1].get<double>(), b[1].get<double>());
  if (w <= 0 || h <= 0) return 0;
  const auto area = [](const Json& x) {
    return (x[2].get<double>() - x[0].get<double>()) * (x[3].get<double>() - x[1].get<double>());
  };
  return w * h / (area(a) + area(b) - w * h);
}

Json Detect(const std::string& args) {
  Run run = Opuc("detect " + args + " --json");
  REQUIRE_MESSAGE(run.exit_code == 0, run.err);
  return Json::parse(run.out);
}

TEST_CASE("opuc detect: the face on grace_hopper.jpg, float and compiled, drawn") {
  const std::string model = opuc::test::ModelPath("face_detection_short_range.tflite");
  const std::string photo = opuc::test::ImagePath("grace_hopper.jpg");
  const Json float_run = Detect(model + " " + photo);
  REQUIRE(float_run["faces"].size() == 1);  // one person in the portrait
  CHECK(float_run["width"] == 512);
  CHECK(float_run["height"] == 600);
  // Read off the photograph by eye: her face is centred near pixel
  // (265, 240), about 180 pixels wide.
  const Json& box = float_run["faces"][0]["box_pixels"];
  CHECK(std::abs((box[0].get<int>() + box[2].get<int>()) / 2 - 265) < 30);
  CHECK(std::abs((box[1].get<int>() + box[3].get<int>()) / 2 - 240) < 30);
  CHECK(std::abs(box[2].get<int>() - box[0].get<int>() - 180) < 40);

  // Compiled (calibrated on the default calibration set, which does not
  // hold this photograph): the same face, on every device of the chain. In
  // int8, the fastest compile: tests/quant/held_out_test.cc checks the
  // default precision's faces (label slow).
  const std::string program = TempPath("face.opup");
  Run compile = Opuc("compile " + model + " -o " + program + " --precision int8");
  REQUIRE_MESSAGE(compile.exit_code == 0, compile.err);
  const std::string drawn = TempPath("face.png");
  const Json fsim =
      Detect(program + " " + photo + " --device fsim --float " + model + " --draw " + drawn);
  REQUIRE(fsim["faces"].size() == 1);
  REQUIRE(fsim["float_faces"].size() == 1);
  CHECK(fsim["float_faces"] == float_run["faces"]);
  CHECK(IoU(fsim["faces"][0]["box"], float_run["faces"][0]["box"]) >= 0.9);
  CHECK(Detect(program + " " + photo + " --device cpu")["faces"] == fsim["faces"]);
  CHECK(Detect(program + " " + photo + " --device ref")["faces"] == fsim["faces"]);
#ifdef OPUC_HAVE_RTL
  CHECK(Detect(program + " " + photo + " --device rtl")["faces"] == fsim["faces"]);
#endif

  // The picture: the photograph, with the box's corner painted green.
  opuc::Expected<opuc::Image> picture = opuc::LoadImage(drawn);
  opuc::Expected<opuc::Image> original = opuc::LoadImage(photo);
  REQUIRE(picture.ok());
  REQUIRE(original.ok());
  CHECK(picture->width == 512);
  CHECK(picture->height == 600);
  const Json& corner = fsim["faces"][0]["box_pixels"];
  const int x = corner[0].get<int>(), y = corner[1].get<int>();
  CHECK(picture->at(y, x, 0) == 0);
  CHECK(picture->at(y, x, 1) == 230);
  CHECK(picture->at(y, x, 2) == 64);
  CHECK(picture->at(590, 10, 0) == original->at(590, 10, 0));  // far from the face: untouched
  CHECK(picture->at(590, 10, 1) == original->at(590, 10, 1));

  Run text = Opuc("detect " + program + " " + photo + " --device fsim --float " + model);
  CHECK(text.exit_code == 0);
  CHECK(text.out.find(": 512x600, 1 face (") != std::string::npos);
  CHECK(text.out.find("    float model: score ") != std::string::npos);
}

TEST_CASE("opuc detect: a model that is not a face detector, or a bad option, exits 2") {
  const std::string photo = opuc::test::ImagePath("grace_hopper.jpg");
  Run other = Opuc(std::string("detect ") + OPUC_EXAMPLE_MODEL + " " + photo);
  CHECK(other.exit_code == 2);
  CHECK(other.err.find("opuc: error: " + std::string(OPUC_EXAMPLE_MODEL) +
                       ": opuc detect decodes BlazeFace face detectors") == 0);
  const std::string model = opuc::test::ModelPath("face_detection_short_range.tflite");
  Run score = Opuc("detect " + model + " " + photo + " --min-score 2");
  CHECK(score.exit_code == 2);
  CHECK(score.err == "opuc: error: --min-score must lie in [0, 1]\n");
  Run device = Opuc("detect " + model + " " + photo + " --device fsim");
  CHECK(device.exit_code == 2);
  CHECK(device.err.find("--device fsim: a model runs on ref") != std::string::npos);
  Run missing = Opuc("detect " + model + " " + TempPath("none.jpg"));
  CHECK(missing.exit_code == 2);
  CHECK(missing.err.find("none.jpg: no such file") != std::string::npos);
}

}  // namespace
