//===- opuc/image/draw.h - Boxes and points on an image ---------*- C++ -*-===//
//
// Just enough drawing to show detections on a photograph: an outlined
// rectangle and a filled dot, in one colour, clipped to the image. Pixel
// coordinates are integers, x to the right and y down from the top-left
// pixel (0, 0); both corners of a rectangle are inside it.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_IMAGE_DRAW_H
#define OPUC_IMAGE_DRAW_H

#include <array>
#include <cstdint>

#include "opuc/image/image.h"

namespace opuc {

using Rgb = std::array<uint8_t, 3>;

/// The outline of the rectangle with corners (x0, y0) and (x1, y1) (either
/// order), `thickness` pixels wide, drawn inwards from its edges.
void DrawRectangle(Image& image, int32_t x0, int32_t y0, int32_t x1, int32_t y1, int32_t thickness,
                   Rgb color);

/// Every pixel within `radius` of (x, y) (Euclidean, centre included).
void DrawDot(Image& image, int32_t x, int32_t y, int32_t radius, Rgb color);

}  // namespace opuc

#endif  // OPUC_IMAGE_DRAW_H
