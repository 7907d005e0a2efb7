// The augmented calibration views (opuc/image/augment.h), on a 4 × 4 image
// whose pixels are written by hand; every expected pixel follows from the
// header's description.
#include "opuc/image/augment.h"

#include <doctest/doctest.h>

namespace opuc {
namespace {

/// 4 × 4, gray, pixel (y, x) = 10·(4y + x) + 10 in every channel.
Image Ramp() {
  Image image{4, 4, std::vector<uint8_t>(48)};
  for (int32_t y = 0; y < 4; ++y)
    for (int32_t x = 0; x < 4; ++x)
      for (int32_t c = 0; c < 3; ++c)
        image.pixels[static_cast<size_t>((y * 4 + x) * 3 + c)] =
            static_cast<uint8_t>(10 * (4 * y + x) + 10);
  return image;
}

TEST_CASE("AugmentedViews: itself, mirrored, centre crop, shrunk on black, darker, brighter") {
  const Image image = Ramp();
  const std::vector<Image> views = AugmentedViews(image);
  REQUIRE(views.size() == static_cast<size_t>(kAugmentedViews));
  CHECK(views[0].pixels == image.pixels);
  // Mirrored: row 0 is 40 30 20 10.
  CHECK(views[1].at(0, 0, 0) == 40);
  CHECK(views[1].at(0, 3, 0) == 10);
  CHECK(views[1].at(3, 0, 2) == 160);
  // Centre crop of 3 × 3 starting at (0, 0): (4 − 3) / 2 = 0.
  REQUIRE(views[2].width == 3);
  REQUIRE(views[2].height == 3);
  CHECK(views[2].at(0, 0, 0) == 10);
  CHECK(views[2].at(2, 2, 0) == 110);
  // Shrunk: 3 × 3 at offset 0, source (y·4 + 2) / 3 = 0, 2, 3; the rest black.
  REQUIRE(views[3].width == 4);
  CHECK(views[3].at(0, 0, 0) == 10);
  CHECK(views[3].at(1, 1, 0) == 10 * (4 * 2 + 2) + 10);
  CHECK(views[3].at(2, 2, 1) == 10 * (4 * 3 + 3) + 10);
  CHECK(views[3].at(3, 3, 0) == 0);
  CHECK(views[3].at(0, 3, 0) == 0);
  // Darker ×0.6 and brighter ×1.4 (clipped), rounded half up: 160 → 96 and 224.
  CHECK(views[4].at(3, 3, 0) == 96);
  CHECK(views[5].at(3, 3, 0) == 224);
  CHECK(views[5].at(0, 0, 0) == 14);
  Image bright = image;
  bright.pixels[0] = 200;
  CHECK(AugmentedViews(bright)[5].pixels[0] == 255);
}

}  // namespace
}  // namespace opuc
