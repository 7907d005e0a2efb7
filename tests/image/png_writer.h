//===- tests/image/png_writer.h - Small PNG files for the tests -*- C++ -*-===//
//
// Encodes hand-written pixels as PNG with libspng's encoder, so each test
// states its pixels and their expected decoding side by side.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_TESTS_IMAGE_PNG_WRITER_H
#define OPUC_TESTS_IMAGE_PNG_WRITER_H

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace opuc::test {

/// PNG colour types, with the numbers of the PNG specification.
enum class PngColor : uint8_t { kGray = 0, kRgb = 2, kPalette = 3, kGrayAlpha = 4, kRgba = 6 };

struct PngSpec {
  uint32_t width = 0;
  uint32_t height = 0;
  PngColor color = PngColor::kRgb;
  uint8_t bit_depth = 8;
  bool interlaced = false;
  /// Palette entries (kPalette only).
  std::vector<std::array<uint8_t, 3>> palette;
  /// Rows as the PNG stores them: samples packed into bytes for depths
  /// below 8; for depth 16 two bytes per sample in host order (libspng's
  /// SPNG_FMT_PNG), written with Samples16.
  std::vector<uint8_t> data;
};

/// The PNG file of `spec`; fails the test when libspng refuses it.
std::vector<uint8_t> EncodePng(const PngSpec& spec);

/// 16-bit samples laid out as EncodePng expects them.
std::vector<uint8_t> Samples16(const std::vector<uint16_t>& samples);

/// Writes `bytes` to `path`; fails the test on error.
void WriteBytes(const std::string& path, const std::vector<uint8_t>& bytes);

}  // namespace opuc::test

#endif  // OPUC_TESTS_IMAGE_PNG_WRITER_H
