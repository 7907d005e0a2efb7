//===- src/image/calibration_set.cc - A folder of model inputs ------------===//
#include "opuc/image/calibration_set.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <system_error>

#include "opuc/image/image.h"
#include "opuc/image/model_defaults.h"
#include "opuc/tensor_io/npy.h"
#include "support/format.h"

namespace opuc {
namespace {

namespace fs = std::filesystem;

enum class SampleKind { kNone, kImage, kNpy };

SampleKind KindOf(const fs::path& path) {
  std::string ext = path.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (ext == ".png" || ext == ".jpg" || ext == ".jpeg") return SampleKind::kImage;
  if (ext == ".npy") return SampleKind::kNpy;
  return SampleKind::kNone;
}

// A NaN or infinity in a sample would poison calibration's ranges and every
// accuracy figure.
Status RequireFinite(const HostTensor& tensor, const std::string& path) {
  if (tensor.dtype() != DType::kF32) return OkStatus();
  const float* v = tensor.data<float>();
  for (int64_t i = 0; i < tensor.elements(); ++i)
    if (!std::isfinite(v[i]))
      return InvalidArgument(Cat(path, ": element ", i, " is ", v[i],
                                 "; calibration and evaluation samples must be finite"));
  return OkStatus();
}

std::string TypeText(const TensorType& type) {
  return Cat(DTypeName(type.dtype), ShapeToString(type.shape));
}

Expected<HostTensor> LoadImageSample(const std::string& path, const TensorType& input,
                                     PreprocessOptions options) {
  OPUC_RETURN_IF_ERROR(CheckImageInput(input).WithContext(path));
  const auto height = static_cast<int32_t>(input.shape[1]);
  const auto width = static_cast<int32_t>(input.shape[2]);
  if (options.height == 0 && options.width == 0) {
    options.height = height;
    options.width = width;
  }
  if (options.height != height || options.width != width)
    return InvalidArgument(Cat(path, ": preprocess size ", options.height, "x", options.width,
                               " differs from the model input's ", height, "x", width, " (",
                               TypeText(input), ")"));
  OPUC_ASSIGN_OR_RETURN(Image image, LoadImage(path));
  Expected<HostTensor> tensor = Preprocess(image, options);
  if (!tensor.ok()) return tensor.status().WithContext(path);
  return tensor;
}

}  // namespace

Expected<std::vector<std::string>> ListCalibrationFiles(const std::string& dir) {
  std::error_code ec;
  if (!fs::exists(dir, ec)) return NotFound(Cat(dir, ": no such folder"));
  if (!fs::is_directory(dir, ec))
    return InvalidArgument(Cat(dir,
                               ": not a folder (the calibration set is a folder of "
                               ".png, .jpg and .npy files)"));
  std::vector<fs::path> files;
  fs::directory_iterator it(dir, ec);
  for (; !ec && it != fs::directory_iterator(); it.increment(ec)) {
    const fs::directory_entry& entry = *it;
    std::error_code type_ec;
    if (!entry.is_regular_file(type_ec) || KindOf(entry.path()) == SampleKind::kNone) continue;
    files.push_back(entry.path());
  }
  if (ec) return IoError(Cat(dir, ": cannot list the folder: ", ec.message()));
  if (files.empty()) return NotFound(Cat(dir, ": holds no .png, .jpg or .npy files"));
  std::sort(files.begin(), files.end(), [](const fs::path& a, const fs::path& b) {
    return a.filename().string() < b.filename().string();
  });
  std::vector<std::string> paths;
  paths.reserve(files.size());
  for (const fs::path& file : files) paths.push_back(file.string());
  return paths;
}

Expected<CalibrationSample> LoadCalibrationSample(const std::string& path, const TensorType& input,
                                                  const PreprocessOptions& options) {
  CalibrationSample sample;
  sample.path = path;
  switch (KindOf(path)) {
    case SampleKind::kImage: {
      OPUC_ASSIGN_OR_RETURN(sample.tensor, LoadImageSample(path, input, options));
      return sample;
    }
    case SampleKind::kNpy: {
      OPUC_ASSIGN_OR_RETURN(sample.tensor, ReadNpy(path));
      if (!(sample.tensor.type() == input))
        return InvalidArgument(Cat(path, ": holds ", DescribeType(sample.tensor),
                                   "; the model input is ", TypeText(input)));
      OPUC_RETURN_IF_ERROR(RequireFinite(sample.tensor, path));
      return sample;
    }
    case SampleKind::kNone: break;
  }
  return InvalidArgument(Cat(path, ": not a calibration sample (.png, .jpg, .jpeg or .npy)"));
}

Expected<std::vector<CalibrationSample>> LoadCalibrationSet(const std::string& dir,
                                                            const TensorType& input,
                                                            const PreprocessOptions& options) {
  OPUC_ASSIGN_OR_RETURN(std::vector<std::string> files, ListCalibrationFiles(dir));
  // A model that takes no image is the problem, not the first photograph.
  const auto photograph = std::find_if(files.begin(), files.end(), [](const std::string& f) {
    return KindOf(f) == SampleKind::kImage;
  });
  if (photograph != files.end() && !CheckImageInput(input).ok())
    return InvalidArgument(Cat(dir, ": holds photographs (",
                               fs::path(*photograph).filename().string(),
                               ", ...) but the model input is ", TypeText(input),
                               ", not an image f32[1,H,W,3]; calibrate it on .npy samples"));
  std::vector<CalibrationSample> samples;
  samples.reserve(files.size());
  for (const std::string& file : files) {
    OPUC_ASSIGN_OR_RETURN(CalibrationSample sample, LoadCalibrationSample(file, input, options));
    samples.push_back(std::move(sample));
  }
  return samples;
}

}  // namespace opuc
