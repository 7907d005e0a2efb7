// Drawing, pixel by pixel: which pixels of a small image each call paints.
#include <doctest/doctest.h>

#include <string>

#include "opuc/image/draw.h"

namespace opuc {
namespace {

Image Blank(int32_t width, int32_t height) {
  Image image;
  image.width = width;
  image.height = height;
  image.pixels.assign(static_cast<size_t>(width * height * 3), 0);
  return image;
}

/// One row per image row: '#' where the red channel is 255, '.' elsewhere.
std::string Picture(const Image& image) {
  std::string text;
  for (int32_t y = 0; y < image.height; ++y) {
    for (int32_t x = 0; x < image.width; ++x) text += image.at(y, x, 0) == 255 ? '#' : '.';
    text += '\n';
  }
  return text;
}

constexpr Rgb kRed{255, 0, 0};

TEST_CASE("draw: a rectangle's outline, its corners included, in either order") {
  Image image = Blank(6, 5);
  DrawRectangle(image, 4, 3, 1, 1, 1, kRed);
  CHECK(Picture(image) ==
        "......\n"
        ".####.\n"
        ".#..#.\n"
        ".####.\n"
        "......\n");
  CHECK(image.at(1, 1, 1) == 0);  // green and blue as given
  CHECK(image.at(1, 1, 2) == 0);
}

TEST_CASE("draw: a thick outline grows inwards and a rectangle past the edges is clipped") {
  Image image = Blank(6, 6);
  DrawRectangle(image, 0, 0, 5, 5, 2, kRed);
  CHECK(Picture(image) ==
        "######\n"
        "######\n"
        "##..##\n"
        "##..##\n"
        "######\n"
        "######\n");
  Image clipped = Blank(4, 3);
  DrawRectangle(clipped, -3, 1, 2, 100, 1, kRed);
  CHECK(Picture(clipped) ==
        "....\n"
        "###.\n"
        "..#.\n");
}

TEST_CASE("draw: a dot of radius 1 is a plus, radius 0 one pixel, clipped at the corner") {
  Image image = Blank(5, 4);
  DrawDot(image, 2, 1, 1, kRed);
  DrawDot(image, 4, 3, 0, kRed);
  CHECK(Picture(image) ==
        "..#..\n"
        ".###.\n"
        "..#..\n"
        "....#\n");
  Image corner = Blank(3, 3);
  DrawDot(corner, 0, 0, 2, kRed);  // (1, 1) is at distance² 2 ≤ 4; (2, 1) at 5
  CHECK(Picture(corner) ==
        "###\n"
        "##.\n"
        "#..\n");
}

}  // namespace
}  // namespace opuc
