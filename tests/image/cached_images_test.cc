// The photographs of scripts/fetch-images, decoded by opuc and compared with
// values read once with an independent decoder, netpbm's pngtopnm (Debian
// package netpbm 2:11.01.00-2, which applies no gamma by default):
//
//   pngtopnm astronaut.png > astronaut.ppm    # P6, 512 512, maxval 255
//
// and the raster bytes of astronaut.ppm (after the 15-byte header) read with
// a few lines of Python: single pixels, the per-channel sums, and the 64-bit
// FNV-1a hash (offset 0xcbf29ce484222325, prime 0x100000001b3) of all
// 786432 bytes in file order. The JPEGs likewise, read once with
// libjpeg-turbo's own command-line decoder (libjpeg-turbo-progs 2.1.5, the
// accurate integer IDCT, as opuc asks for):
//
//   djpeg -dct int -ppm grace_hopper.jpg > grace_hopper.ppm    # P6, 512 600
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "image/image_cache.h"
#include "opuc/image/calibration_set.h"
#include "opuc/image/image.h"
#include "opuc/image/model_defaults.h"

namespace opuc {
namespace {

uint64_t Fnv1a64(const std::vector<uint8_t>& bytes) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (uint8_t b : bytes) {
    hash ^= b;
    hash *= 0x100000001b3ull;
  }
  return hash;
}

struct Pixel {
  int32_t y, x;
  uint8_t r, g, b;
};

/// What another decoder read from a photograph of the cache.
struct Reference {
  const char* file;
  int32_t width, height;
  std::vector<Pixel> pixels;
  uint64_t sums[3];  ///< Per channel, over the image.
  uint64_t hash;     ///< FNV-1a of all RGB bytes.
};

void CheckDecodes(const Reference& want) {
  test::RequireImagesCache();
  CAPTURE(want.file);
  Expected<Image> image = LoadImage(test::ImagePath(want.file));
  REQUIRE_MESSAGE(image.ok(), image.status().ToString());
  CHECK(image->width == want.width);
  CHECK(image->height == want.height);
  REQUIRE(image->pixels.size() == size_t{3} * static_cast<size_t>(want.width * want.height));
  for (const Pixel& p : want.pixels) {
    CAPTURE(p.y);
    CAPTURE(p.x);
    CHECK(image->at(p.y, p.x, 0) == p.r);
    CHECK(image->at(p.y, p.x, 1) == p.g);
    CHECK(image->at(p.y, p.x, 2) == p.b);
  }
  uint64_t sums[3] = {0, 0, 0};
  for (size_t i = 0; i < image->pixels.size(); ++i) sums[i % 3] += image->pixels[i];
  for (int c = 0; c < 3; ++c) CHECK(sums[c] == want.sums[c]);
  CHECK(Fnv1a64(image->pixels) == want.hash);
}

TEST_CASE("astronaut.png decodes as pngtopnm does") {
  CheckDecodes({"astronaut.png",
                512,
                512,
                {
                    {0, 0, 154, 147, 151},
                    {0, 511, 125, 119, 110},
                    {511, 0, 184, 167, 172},
                    {511, 511, 0, 0, 0},
                    {256, 256, 19, 14, 7},
                    {100, 200, 81, 57, 17},
                    {1, 1, 144, 141, 143},
                    {1, 2, 113, 114, 124},
                    {2, 1, 182, 178, 175},
                    {2, 2, 168, 165, 164},
                    {257, 257, 18, 16, 6},
                    {257, 258, 15, 9, 3},
                    {258, 257, 21, 19, 12},
                    {258, 258, 14, 9, 2},
                },
                {37109758, 27724204, 25290362},
                0xfa4e6bff08e5e8fbull});
}

TEST_CASE("grace_hopper.jpg and messi5.jpg decode as djpeg does") {
  CheckDecodes({"grace_hopper.jpg",
                512,
                600,
                {{0, 0, 21, 24, 77}, {300, 256, 216, 136, 103}, {599, 511, 14, 13, 19}},
                {25339239, 22250529, 26549569},
                0xeaad7eb636c70992ull});
  CheckDecodes({"messi5.jpg",
                548,
                342,
                {{0, 0, 44, 43, 39}, {171, 274, 43, 74, 199}, {341, 547, 86, 124, 51}},
                {15399670, 16126715, 13570373},
                0x295c90f7c5062445ull});
}

TEST_CASE("the two sets as face_detection_short_range's inputs") {
  test::RequireImagesCache();
  const TensorType input{DType::kF32, {1, 128, 128, 3}};
  Expected<PreprocessOptions> options = DefaultPreprocess("face_detection_short_range", input);
  REQUIRE(options.ok());
  // scripts/images.sha256, each set sorted by name.
  const std::vector<std::string> calibration_names = {
      "basketball1.png", "chelsea.png",         "coffee.png",
      "messi5.jpg",      "motorcycle_left.png", "motorcycle_right.png"};
  Expected<std::vector<CalibrationSample>> calibration =
      LoadCalibrationSet(test::CalibrationImagesDir(), input, *options);
  REQUIRE_MESSAGE(calibration.ok(), calibration.status().ToString());
  REQUIRE(calibration->size() == calibration_names.size());
  for (size_t i = 0; i < calibration_names.size(); ++i)
    CHECK((*calibration)[i].path == test::CalibrationImagesDir() + "/" + calibration_names[i]);

  Expected<std::vector<CalibrationSample>> set =
      LoadCalibrationSet(test::EvaluationImagesDir(), input, *options);
  REQUIRE_MESSAGE(set.ok(), set.status().ToString());
  const std::vector<std::string> names = {"astronaut.png", "grace_hopper.jpg", "ihc.png"};
  REQUIRE(set->size() == names.size());
  for (size_t i = 0; i < names.size(); ++i) {
    CHECK((*set)[i].path == test::EvaluationImagesDir() + "/" + names[i]);
    CHECK((*set)[i].tensor.type() == input);
    const float* v = (*set)[i].tensor.data<float>();
    for (int64_t k = 0; k < (*set)[i].tensor.elements(); ++k) {
      if (v[k] < -1.0f || v[k] > 1.0f) FAIL(names[i] << " element " << k << " = " << v[k]);
    }
  }
  // 512 -> 128: src = 4i + 1.5, so output (i, j) is the mean of pixels
  // rows 4i+1..4i+2, columns 4j+1..4j+2 (the pixels read above), mapped by
  // x * 2/255 - 1.
  const float* astronaut = (*set)[0].tensor.data<float>();
  const auto expect = [](double mean) { return static_cast<float>(mean * (2.0 / 255.0) - 1.0); };
  CHECK(astronaut[0] == expect((144 + 113 + 182 + 168) / 4.0));  // (0, 0) R: 151.75
  CHECK(astronaut[1] == expect((141 + 114 + 178 + 165) / 4.0));  // G: 149.5
  CHECK(astronaut[2] == expect((143 + 124 + 175 + 164) / 4.0));  // B: 151.5
  const size_t at = (64 * 128 + 64) * 3;                         // (64, 64): rows 257, 258
  CHECK(astronaut[at + 0] == expect((18 + 15 + 21 + 14) / 4.0));
  CHECK(astronaut[at + 1] == expect((16 + 9 + 19 + 9) / 4.0));
  CHECK(astronaut[at + 2] == expect((6 + 3 + 12 + 2) / 4.0));
}

}  // namespace
}  // namespace opuc
