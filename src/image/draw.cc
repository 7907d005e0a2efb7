//===- src/image/draw.cc - Boxes and points on an image -------------------===//
#include "opuc/image/draw.h"

#include <algorithm>

namespace opuc {
namespace {

/// Fills the pixels of [x0, x1] × [y0, y1] that are inside the image.
void Fill(Image& image, int32_t x0, int32_t y0, int32_t x1, int32_t y1, Rgb color) {
  x0 = std::max(x0, 0);
  y0 = std::max(y0, 0);
  x1 = std::min(x1, image.width - 1);
  y1 = std::min(y1, image.height - 1);
  for (int32_t y = y0; y <= y1; ++y)
    for (int32_t x = x0; x <= x1; ++x) {
      uint8_t* pixel =
          image.pixels.data() +
          (static_cast<size_t>(y) * static_cast<size_t>(image.width) + static_cast<size_t>(x)) * 3;
      std::copy(color.begin(), color.end(), pixel);
    }
}

}  // namespace

void DrawRectangle(Image& image, int32_t x0, int32_t y0, int32_t x1, int32_t y1, int32_t thickness,
                   Rgb color) {
  if (x0 > x1) std::swap(x0, x1);
  if (y0 > y1) std::swap(y0, y1);
  const int32_t t = std::max(thickness, 1) - 1;
  Fill(image, x0, y0, x1, std::min(y0 + t, y1), color);  // top
  Fill(image, x0, std::max(y1 - t, y0), x1, y1, color);  // bottom
  Fill(image, x0, y0, std::min(x0 + t, x1), y1, color);  // left
  Fill(image, std::max(x1 - t, x0), y0, x1, y1, color);  // right
}

void DrawDot(Image& image, int32_t x, int32_t y, int32_t radius, Rgb color) {
  const int32_t r = std::clamp(radius, 0, 4096);  // r·r stays far from overflow
  for (int32_t dy = -r; dy <= r; ++dy)
    for (int32_t dx = -r; dx <= r; ++dx)
      if (dx * dx + dy * dy <= r * r) Fill(image, x + dx, y + dy, x + dx, y + dy, color);
}

}  // namespace opuc
