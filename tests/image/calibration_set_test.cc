// Calibration folders: which files count, their order, PNG and .npy samples,
// and the errors that name the file at fault.
#include "opuc/image/calibration_set.h"

#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "image/png_writer.h"
#include "image/temp_dir.h"
#include "opuc/tensor_io/npy.h"

namespace opuc {
namespace {

const TensorType kInput{DType::kF32, {1, 2, 2, 3}};

void WriteRgbPng(const std::string& path, uint32_t w, uint32_t h, std::vector<uint8_t> rgb) {
  test::PngSpec spec;
  spec.width = w;
  spec.height = h;
  spec.data = std::move(rgb);
  test::WriteBytes(path, test::EncodePng(spec));
}

bool StartsWith(const std::string& text, const std::string& prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}

TEST_CASE("png and npy files, any case, sorted by name, others ignored") {
  test::TempDir dir;
  WriteRgbPng(dir.Path("b.png"), 1, 1, {255, 0, 51});
  WriteRgbPng(dir.Path("A.PNG"), 2, 2, std::vector<uint8_t>(12, 102));
  HostTensor npy = HostTensor::Zeros(DType::kF32, {1, 2, 2, 3}).value();
  for (int i = 0; i < 12; ++i) npy.data<float>()[i] = 0.25f * static_cast<float>(i);
  REQUIRE(WriteNpy(dir.Path("c.npy"), npy).ok());
  test::WriteBytes(dir.Path("notes.txt"), {'h', 'i'});
  std::filesystem::create_directory(dir.Path("sub.png"));  // a folder, not a file

  Expected<std::vector<std::string>> files = ListCalibrationFiles(dir.path());
  REQUIRE(files.ok());
  CHECK(*files ==
        std::vector<std::string>{dir.Path("A.PNG"), dir.Path("b.png"), dir.Path("c.npy")});

  Expected<std::vector<CalibrationSample>> set =
      LoadCalibrationSet(dir.path(), kInput, PreprocessOptions());  // [0, 1], size from input
  REQUIRE_MESSAGE(set.ok(), set.status().ToString());
  REQUIRE(set->size() == 3);
  for (const CalibrationSample& s : *set) CHECK(s.tensor.type() == kInput);
  // A.PNG is uniformly 102: 102/255 = 0.4 everywhere.
  CHECK((*set)[0].tensor.data<float>()[11] == static_cast<float>(102.0 / 255.0));
  // b.png's one pixel fills 2x2: (255, 0, 51)/255 = (1, 0, 0.2).
  CHECK((*set)[1].tensor.data<float>()[9] == 1.0f);
  CHECK((*set)[1].tensor.data<float>()[10] == 0.0f);
  CHECK((*set)[1].tensor.data<float>()[11] == static_cast<float>(51.0 / 255.0));
  // The .npy is taken as it is.
  CHECK((*set)[2].path == dir.Path("c.npy"));
  CHECK((*set)[2].tensor.data<float>()[11] == 2.75f);
}

TEST_CASE("errors name the folder or the file") {
  test::TempDir dir;
  Expected<std::vector<std::string>> empty = ListCalibrationFiles(dir.path());
  REQUIRE_FALSE(empty.ok());
  CHECK(empty.status().message() == dir.path() + ": holds no .png, .jpg or .npy files");
  CHECK(ListCalibrationFiles(dir.Path("none")).status().code() == StatusCode::kNotFound);

  WriteRgbPng(dir.Path("x.png"), 1, 1, {1, 2, 3});
  CHECK(StartsWith(ListCalibrationFiles(dir.Path("x.png")).status().message(),
                   dir.Path("x.png") + ": not a folder"));

  // A size that disagrees with the input.
  PreprocessOptions wrong;
  wrong.height = wrong.width = 3;
  Expected<CalibrationSample> sized = LoadCalibrationSample(dir.Path("x.png"), kInput, wrong);
  REQUIRE_FALSE(sized.ok());
  CHECK(sized.status().message() ==
        dir.Path("x.png") +
            ": preprocess size 3x3 differs from the model input's 2x2 (f32[1,2,2,3])");

  // An input that is not an image.
  Expected<CalibrationSample> gray =
      LoadCalibrationSample(dir.Path("x.png"), {DType::kF32, {1, 2, 2, 1}}, PreprocessOptions());
  REQUIRE_FALSE(gray.ok());
  CHECK(StartsWith(gray.status().message(), dir.Path("x.png") + ": the model input is"));

  // A .npy of another type.
  REQUIRE(WriteNpy(dir.Path("y.npy"), HostTensor::Zeros(DType::kF32, {1, 2, 2}).value()).ok());
  Expected<CalibrationSample> npy =
      LoadCalibrationSample(dir.Path("y.npy"), kInput, PreprocessOptions());
  REQUIRE_FALSE(npy.ok());
  CHECK(npy.status().message() ==
        dir.Path("y.npy") + ": holds f32[1,2,2]; the model input is f32[1,2,2,3]");

  // A NaN or an infinity in a sample.
  HostTensor poisoned = HostTensor::Zeros(DType::kF32, {1, 2, 2, 3}).value();
  poisoned.data<float>()[5] = std::numeric_limits<float>::quiet_NaN();
  REQUIRE(WriteNpy(dir.Path("nan.npy"), poisoned).ok());
  CHECK(
      LoadCalibrationSample(dir.Path("nan.npy"), kInput, PreprocessOptions()).status().message() ==
      dir.Path("nan.npy") +
          ": element 5 is nan; calibration and evaluation samples must be finite");
  poisoned.data<float>()[5] = -std::numeric_limits<float>::infinity();
  REQUIRE(WriteNpy(dir.Path("nan.npy"), poisoned).ok());
  CHECK(
      LoadCalibrationSample(dir.Path("nan.npy"), kInput, PreprocessOptions()).status().message() ==
      dir.Path("nan.npy") +
          ": element 5 is -inf; calibration and evaluation samples must be finite");
  std::remove(dir.Path("nan.npy").c_str());

  // A broken PNG stops the whole set, naming it.
  test::WriteBytes(dir.Path("z.png"), {1, 2, 3});
  Expected<std::vector<CalibrationSample>> set =
      LoadCalibrationSet(dir.path(), kInput, PreprocessOptions());
  REQUIRE_FALSE(set.ok());
  CHECK(StartsWith(set.status().message(), dir.Path("y.npy")));  // sorted: x, y, z
  CHECK(LoadCalibrationSample(dir.Path("z.png"), kInput, PreprocessOptions())
            .status()
            .message()
            .find(dir.Path("z.png") + ": neither a PNG nor a JPEG file") == 0);

  // Photographs for a model whose input is no image: the folder and the
  // model are named, not the first photograph.
  Expected<std::vector<CalibrationSample>> vector_input =
      LoadCalibrationSet(dir.path(), {DType::kF32, {1, 10}}, PreprocessOptions());
  REQUIRE_FALSE(vector_input.ok());
  CHECK(vector_input.status().message() ==
        dir.path() +
            ": holds photographs (x.png, ...) but the model input is f32[1,10], not an "
            "image f32[1,H,W,3]; calibrate it on .npy samples");
}

}  // namespace
}  // namespace opuc
