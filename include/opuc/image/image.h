//===- opuc/image/image.h - 8-bit RGB images from PNG files -----*- C++ -*-===//
//
// The pixels that calibration starts from: 8-bit RGB, row-major, decoded
// from PNG with libspng. Every PNG colour type and bit depth is converted:
// gray is copied to R, G and B; palette indices are looked up; alpha (an
// alpha channel or a tRNS chunk) is dropped, not composited; 16-bit samples
// keep their high byte; 1-, 2- and 4-bit gray is scaled to 0..255. No gamma
// or colour-profile correction is applied. docs/calibration.md has the rules.
//
// Part of opuc_image, a tools-only library (it needs libspng): the core
// `opuc` library does not include it.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_IMAGE_IMAGE_H
#define OPUC_IMAGE_IMAGE_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "opuc/status.h"

namespace opuc {

/// An 8-bit RGB image: `pixels` holds height × width × 3 bytes, rows top to
/// bottom, each pixel R, G, B.
struct Image {
  int32_t width = 0;
  int32_t height = 0;
  std::vector<uint8_t> pixels;

  /// Channel `c` (0 = R, 1 = G, 2 = B) of the pixel in row `y`, column `x`.
  uint8_t at(int32_t y, int32_t x, int32_t c) const {
    return pixels[(static_cast<size_t>(y) * static_cast<size_t>(width) + static_cast<size_t>(x)) *
                      3 +
                  static_cast<size_t>(c)];
  }
};

/// The largest width or height LoadPng accepts, and the largest decoded
/// size in bytes (width × height × 3): bigger files are refused, not read.
inline constexpr int32_t kMaxImageSide = 16384;
inline constexpr size_t kMaxImageBytes = size_t{1} << 28;  // 256 MiB

/// Reads and decodes the PNG file at `path`. Errors name `path`: a missing
/// file is NotFound, an unreadable one IoError, a file that is not a valid
/// PNG (or is larger than the limits above) InvalidArgument with libspng's
/// reason.
Expected<Image> LoadPng(const std::string& path);

/// Decodes PNG bytes held in memory; `name` names them in errors.
Expected<Image> DecodePng(const uint8_t* data, size_t size, std::string_view name);

}  // namespace opuc

#endif  // OPUC_IMAGE_IMAGE_H
