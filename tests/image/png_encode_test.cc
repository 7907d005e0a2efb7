// PNG encoding: what is written decodes back to the same pixels, through
// the decoder of png_decode.cc and through a file; bad images are refused.
#include <doctest/doctest.h>

#include "image/temp_dir.h"
#include "opuc/image/image.h"

namespace opuc {
namespace {

Image Gradient(int32_t width, int32_t height) {
  Image image;
  image.width = width;
  image.height = height;
  for (int32_t y = 0; y < height; ++y)
    for (int32_t x = 0; x < width; ++x)
      for (int32_t c = 0; c < 3; ++c)
        image.pixels.push_back(static_cast<uint8_t>((x * 37 + y * 11 + c * 101) & 0xFF));
  return image;
}

TEST_CASE("png encode: pixels survive the round trip, in memory and through a file") {
  const Image image = Gradient(13, 7);
  Expected<std::vector<uint8_t>> png = EncodePng(image, "g.png");
  REQUIRE_MESSAGE(png.ok(), png.status().ToString());
  Expected<Image> back = DecodePng(png->data(), png->size(), "g.png");
  REQUIRE_MESSAGE(back.ok(), back.status().ToString());
  CHECK(back->width == 13);
  CHECK(back->height == 7);
  CHECK(back->pixels == image.pixels);

  test::TempDir dir;
  REQUIRE(SavePng(image, dir.Path("g.png")).ok());
  Expected<Image> loaded = LoadImage(dir.Path("g.png"));
  REQUIRE_MESSAGE(loaded.ok(), loaded.status().ToString());
  CHECK(loaded->pixels == image.pixels);
}

TEST_CASE("png encode: an empty or inconsistent image, or an unwritable path, is an error") {
  Image empty;
  Expected<std::vector<uint8_t>> none = EncodePng(empty, "e.png");
  REQUIRE_FALSE(none.ok());
  CHECK(none.status().message() ==
        "e.png: cannot encode a 0x0 image (each side must be 1 to 16384)");
  Image short_pixels = Gradient(4, 4);
  short_pixels.pixels.pop_back();
  Expected<std::vector<uint8_t>> bad = EncodePng(short_pixels, "s.png");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.status().message() == "s.png: 47 bytes of pixels for a 4x4 RGB image (48 expected)");
  test::TempDir dir;
  const Status s = SavePng(Gradient(2, 2), dir.Path("missing/g.png"));
  REQUIRE_FALSE(s.ok());
  CHECK(s.message().find(dir.Path("missing/g.png") + ": cannot create") == 0);
}

}  // namespace
}  // namespace opuc
