//===- src/image/augment.cc - More views of a calibration photograph -----===//
#include "opuc/image/augment.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "opuc/image/model_defaults.h"
#include "opuc/image/preprocess.h"
#include "support/format.h"

namespace opuc {
namespace {

Image Mirrored(const Image& image) {
  Image out = image;
  for (int32_t y = 0; y < image.height; ++y)
    for (int32_t x = 0; x < image.width; ++x)
      for (int32_t c = 0; c < 3; ++c)
        out.pixels[(static_cast<size_t>(y) * static_cast<size_t>(image.width) +
                    static_cast<size_t>(x)) *
                       3 +
                   static_cast<size_t>(c)] = image.at(y, image.width - 1 - x, c);
  return out;
}

Image Cropped(const Image& image, int32_t top, int32_t left, int32_t height, int32_t width) {
  Image out{width, height,
            std::vector<uint8_t>(static_cast<size_t>(width) * static_cast<size_t>(height) * 3)};
  for (int32_t y = 0; y < height; ++y)
    for (int32_t x = 0; x < width; ++x)
      for (int32_t c = 0; c < 3; ++c)
        out.pixels[(static_cast<size_t>(y) * static_cast<size_t>(width) + static_cast<size_t>(x)) *
                       3 +
                   static_cast<size_t>(c)] = image.at(top + y, left + x, c);
  return out;
}

/// The image at 3/4 of each side (every 4 × 4 block of output pixels reads
/// the nearest source pixel), centred on a black frame of the same size.
Image Shrunk(const Image& image) {
  Image out{image.width, image.height, std::vector<uint8_t>(image.pixels.size(), 0)};
  const int32_t h = image.height * 3 / 4, w = image.width * 3 / 4;
  const int32_t top = (image.height - h) / 2, left = (image.width - w) / 2;
  for (int32_t y = 0; y < h; ++y) {
    const int32_t sy = std::min(image.height - 1, (y * 4 + 2) / 3);
    for (int32_t x = 0; x < w; ++x) {
      const int32_t sx = std::min(image.width - 1, (x * 4 + 2) / 3);
      for (int32_t c = 0; c < 3; ++c)
        out.pixels[(static_cast<size_t>(top + y) * static_cast<size_t>(image.width) +
                    static_cast<size_t>(left + x)) *
                       3 +
                   static_cast<size_t>(c)] = image.at(sy, sx, c);
    }
  }
  return out;
}

Image Scaled(const Image& image, double factor) {
  Image out = image;
  for (uint8_t& v : out.pixels)
    v = static_cast<uint8_t>(std::min(255.0, std::floor(v * factor + 0.5)));
  return out;
}

}  // namespace

std::vector<Image> AugmentedViews(const Image& image) {
  std::vector<Image> views;
  views.reserve(kAugmentedViews);
  views.push_back(image);
  views.push_back(Mirrored(image));
  const int32_t h = std::max(1, image.height * 3 / 4), w = std::max(1, image.width * 3 / 4);
  views.push_back(Cropped(image, (image.height - h) / 2, (image.width - w) / 2, h, w));
  views.push_back(Shrunk(image));
  views.push_back(Scaled(image, 0.6));
  views.push_back(Scaled(image, 1.4));
  return views;
}

Expected<std::vector<CalibrationSample>> LoadAugmentedCalibrationSample(
    const std::string& file, const TensorType& input, const PreprocessOptions& options) {
  std::vector<CalibrationSample> samples;
  std::string ext = std::filesystem::path(file).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (ext == ".npy") {
    OPUC_ASSIGN_OR_RETURN(CalibrationSample sample, LoadCalibrationSample(file, input, options));
    samples.assign(kAugmentedViews, sample);
    return samples;
  }
  OPUC_RETURN_IF_ERROR(CheckImageInput(input).WithContext(file));
  PreprocessOptions sized = options;
  if (sized.height == 0 && sized.width == 0) {
    sized.height = static_cast<int32_t>(input.shape[1]);
    sized.width = static_cast<int32_t>(input.shape[2]);
  }
  if (sized.height != input.shape[1] || sized.width != input.shape[2])
    return InvalidArgument(Cat(file, ": preprocess size ", sized.height, "x", sized.width,
                               " differs from the model input's ", input.shape[1], "x",
                               input.shape[2]));
  OPUC_ASSIGN_OR_RETURN(const Image image, LoadImage(file));
  for (const Image& view : AugmentedViews(image)) {
    Expected<HostTensor> tensor = Preprocess(view, sized);
    if (!tensor.ok()) return tensor.status().WithContext(file);
    samples.push_back({file, std::move(*tensor)});
  }
  return samples;
}

Expected<std::vector<CalibrationSample>> LoadAugmentedCalibrationSet(
    const std::string& dir, const TensorType& input, const PreprocessOptions& options) {
  OPUC_ASSIGN_OR_RETURN(std::vector<std::string> files, ListCalibrationFiles(dir));
  std::vector<CalibrationSample> samples;
  for (const std::string& file : files) {
    OPUC_ASSIGN_OR_RETURN(std::vector<CalibrationSample> views,
                          LoadAugmentedCalibrationSample(file, input, options));
    for (CalibrationSample& v : views) samples.push_back(std::move(v));
  }
  return samples;
}

}  // namespace opuc
