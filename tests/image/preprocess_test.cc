// Preprocess: bilinear resizing with values worked out by hand from the
// formula in src/image/resize_bilinear.h, then scale, offset and channel
// order, and the tensor's type.
#include "opuc/image/preprocess.h"

#include <doctest/doctest.h>

#include <cmath>
#include <vector>

namespace opuc {
namespace {

Image MakeImage(int32_t width, int32_t height, std::vector<uint8_t> pixels) {
  Image image;
  image.width = width;
  image.height = height;
  image.pixels = std::move(pixels);
  return image;
}

PreprocessOptions Raw(int32_t height, int32_t width) {  // value = pixel
  PreprocessOptions options;
  options.height = height;
  options.width = width;
  options.scale = 1.0;
  options.offset = 0.0;
  return options;
}

// Channel `c` of the tensor as rows of floats.
std::vector<std::vector<float>> Plane(const HostTensor& t, int c) {
  const auto h = static_cast<size_t>(t.shape()[1]);
  const auto w = static_cast<size_t>(t.shape()[2]);
  std::vector<std::vector<float>> rows(h, std::vector<float>(w));
  for (size_t y = 0; y < h; ++y)
    for (size_t x = 0; x < w; ++x)
      rows[y][x] = t.data<float>()[(y * w + x) * 3 + static_cast<size_t>(c)];
  return rows;
}

HostTensor Run(const Image& image, const PreprocessOptions& options) {
  Expected<HostTensor> t = Preprocess(image, options);
  REQUIRE_MESSAGE(t.ok(), t.status().ToString());
  return std::move(t).value();
}

TEST_CASE("2x2 -> 4x4 bilinear with half-pixel centres") {
  // R: a=0 b=100 / c=200 d=40; G = 255 - R; B = 7 everywhere.
  const Image image = MakeImage(2, 2, {0, 255, 7, 100, 155, 7, 200, 55, 7, 40, 215, 7});
  const HostTensor t = Run(image, Raw(4, 4));
  CHECK(t.dtype() == DType::kF32);
  CHECK(t.shape() == Shape{1, 4, 4, 3});
  // Taps of 4 outputs over 2 inputs: src = (i + 0.5) / 2 - 0.5 =
  // -0.25 (clamped to 0), 0.25, 0.75, 1.25 (clamped to 1). Row 0 mixes a and
  // b by 0, 1/4, 3/4, 1; row 3 mixes c and d the same way; rows 1 and 2 mix
  // rows 0 and 3 by 1/4 and 3/4:
  //   row 0:   0      25      75     100
  //   row 3: 200     160      80      40
  //   row 1: 0.75*row0 + 0.25*row3 =  50   58.75  76.25  85
  //   row 2: 0.25*row0 + 0.75*row3 = 150  126.25  78.75  55
  const std::vector<std::vector<float>> red = {
      {0, 25, 75, 100}, {50, 58.75f, 76.25f, 85}, {150, 126.25f, 78.75f, 55}, {200, 160, 80, 40}};
  CHECK(Plane(t, 0) == red);
  std::vector<std::vector<float>> green = red;
  for (auto& row : green)
    for (float& v : row) v = 255 - v;
  CHECK(Plane(t, 1) == green);
  CHECK(Plane(t, 2) == std::vector<std::vector<float>>(4, std::vector<float>(4, 7)));
}

TEST_CASE("downsampling averages neighbours without antialiasing") {
  // 4 -> 2: src = 2i + 0.5, so outputs are the means of pixels (0,1) and (2,3).
  const Image row = MakeImage(4, 1, {10, 0, 0, 20, 0, 0, 100, 0, 0, 51, 0, 0});
  CHECK(Plane(Run(row, Raw(1, 2)), 0) == std::vector<std::vector<float>>{{15, 75.5f}});
  // 3 -> 2: src = 1.5i + 0.25: 0.25 (pixels 0,1 by 3/4,1/4) and 1.75 (1,2 by 1/4,3/4).
  const Image three = MakeImage(3, 1, {0, 0, 0, 40, 0, 0, 200, 0, 0});
  CHECK(Plane(Run(three, Raw(1, 2)), 0) == std::vector<std::vector<float>>{{10, 160}});
  // The same size copies, a single pixel fills everything.
  CHECK(Plane(Run(three, Raw(1, 3)), 0) == std::vector<std::vector<float>>{{0, 40, 200}});
  const Image one = MakeImage(1, 1, {9, 8, 7});
  CHECK(Plane(Run(one, Raw(3, 2)), 2) == std::vector<std::vector<float>>(3, {7, 7}));
}

TEST_CASE("value = pixel * scale + offset, in rgb or bgr order") {
  const Image image = MakeImage(1, 1, {255, 0, 128});
  PreprocessOptions options = Raw(1, 1);
  options.scale = 2.0 / 255.0;
  options.offset = -1.0;
  HostTensor t = Run(image, options);
  CHECK(t.data<float>()[0] == 1.0f);
  CHECK(t.data<float>()[1] == -1.0f);
  CHECK(t.data<float>()[2] == doctest::Approx(1.0 / 255.0).epsilon(1e-6));  // (256-255)/255

  options.scale = 0.5;
  options.offset = 3.0;
  options.order = ChannelOrder::kBgr;
  t = Run(image, options);
  CHECK(std::vector<float>(t.data<float>(), t.data<float>() + 3) ==
        std::vector<float>{67.0f, 3.0f, 130.5f});
}

TEST_CASE("Preprocess refuses what it cannot produce") {
  const Image image = MakeImage(1, 1, {1, 2, 3});
  PreprocessOptions unset = Raw(1, 1);
  unset.height = unset.width = 0;
  Expected<HostTensor> t = Preprocess(image, unset);
  REQUIRE_FALSE(t.ok());
  CHECK(t.status().message() == "preprocess: size is not set (0x0); give size=HxW");

  PreprocessOptions nan = Raw(1, 1);
  nan.scale = std::nan("");
  CHECK_FALSE(Preprocess(image, nan).ok());
  CHECK_FALSE(Preprocess(image, Raw(1, kMaxPreprocessSide + 1)).ok());
  CHECK_FALSE(Preprocess(MakeImage(0, 0, {}), Raw(1, 1)).ok());
  CHECK_FALSE(Preprocess(MakeImage(2, 1, {1, 2, 3}), Raw(1, 1)).ok());  // 3 bytes for 2 pixels
}

}  // namespace
}  // namespace opuc
