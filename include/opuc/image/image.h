//===- opuc/image/image.h - 8-bit RGB images from PNG and JPEG ---*- C++ -*-===//
//
// The pixels that calibration starts from: 8-bit RGB, row-major, decoded
// from PNG with libspng or from JPEG with libjpeg-turbo (and encoded back to
// PNG with libspng, for pictures with detections drawn on them). Every PNG colour
// type and bit depth is converted: gray is copied to R, G and B; palette
// indices are looked up; alpha (an alpha channel or a tRNS chunk) is
// dropped, not composited; 16-bit samples keep their high byte; 1-, 2- and
// 4-bit gray is scaled to 0..255. A JPEG is decoded with the accurate
// integer IDCT, gray replicated; a truncated or corrupt one is an error, not
// a partly gray picture. No gamma or colour-profile correction is applied.
// docs/calibration.md has the rules.
//
// Part of opuc_image, a tools-only library (libspng, libturbojpeg): the core
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

/// The largest width or height accepted, and the largest decoded
/// size in bytes (width × height × 3): bigger files are refused, not read.
inline constexpr int32_t kMaxImageSide = 16384;
inline constexpr size_t kMaxImageBytes = size_t{1} << 28;  // 256 MiB

/// Reads and decodes the PNG or JPEG file at `path` (told apart by their
/// signatures, not by the name). Errors name `path`: a missing file is
/// NotFound, an unreadable one IoError, a file that is not a valid PNG or
/// JPEG (or is larger than the limits above) InvalidArgument with the
/// decoder's reason.
Expected<Image> LoadImage(const std::string& path);

/// Decodes PNG or JPEG bytes held in memory; `name` names them in errors.
Expected<Image> DecodeImage(const std::vector<uint8_t>& bytes, std::string_view name);

/// Decodes PNG bytes held in memory; `name` names them in errors.
Expected<Image> DecodePng(const uint8_t* data, size_t size, std::string_view name);

/// Decodes JPEG bytes held in memory; `name` names them in errors.
Expected<Image> DecodeJpeg(const uint8_t* data, size_t size, std::string_view name);

/// The PNG file of `image` (8-bit RGB, not interlaced); `name` names it in
/// errors (an empty image, pixels that do not match the size).
Expected<std::vector<uint8_t>> EncodePng(const Image& image, std::string_view name);

/// Encodes `image` as PNG and writes it to `path` (replacing a file there).
Status SavePng(const Image& image, const std::string& path);

}  // namespace opuc

#endif  // OPUC_IMAGE_IMAGE_H
