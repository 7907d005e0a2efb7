// PNG decoding: small files written here with hand-chosen pixels, one per
// colour type and bit depth, and the RGB bytes each must decode to, derived
// from the conversion rules in opuc/image/image.h; then malformed input.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "image/png_writer.h"
#include "image/temp_dir.h"
#include "opuc/image/image.h"

namespace opuc {
namespace {

using test::EncodePng;
using test::PngColor;
using test::PngSpec;

PngSpec Spec(uint32_t width, uint32_t height, PngColor color, uint8_t depth,
             std::vector<uint8_t> data) {
  PngSpec spec;
  spec.width = width;
  spec.height = height;
  spec.color = color;
  spec.bit_depth = depth;
  spec.data = std::move(data);
  return spec;
}

Image Decode(const PngSpec& spec) {
  const std::vector<uint8_t> png = EncodePng(spec);
  Expected<Image> image = DecodePng(png.data(), png.size(), "t.png");
  REQUIRE_MESSAGE(image.ok(), image.status().ToString());
  return std::move(image).value();
}

bool MessageHas(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST_CASE("8-bit RGB decodes as stored, row by row") {
  // 2x2: row 0 = (1,2,3) (4,5,6); row 1 = (7,8,9) (250,251,252).
  const Image image =
      Decode(Spec(2, 2, PngColor::kRgb, 8, {1, 2, 3, 4, 5, 6, 7, 8, 9, 250, 251, 252}));
  CHECK(image.width == 2);
  CHECK(image.height == 2);
  CHECK(image.pixels == std::vector<uint8_t>{1, 2, 3, 4, 5, 6, 7, 8, 9, 250, 251, 252});
  CHECK(image.at(0, 1, 0) == 4);
  CHECK(image.at(1, 0, 2) == 9);
  CHECK(image.at(1, 1, 1) == 251);
}

TEST_CASE("interlaced (Adam7) decodes to the same pixels") {
  std::vector<uint8_t> data;
  for (uint8_t i = 0; i < 27; ++i) data.push_back(static_cast<uint8_t>(i * 9));
  PngSpec spec = Spec(3, 3, PngColor::kRgb, 8, data);
  spec.interlaced = true;
  CHECK(Decode(spec).pixels == data);
}

TEST_CASE("gray is copied to R, G and B") {
  const Image image = Decode(Spec(3, 1, PngColor::kGray, 8, {0, 77, 255}));
  CHECK(image.pixels == std::vector<uint8_t>{0, 0, 0, 77, 77, 77, 255, 255, 255});
}

TEST_CASE("1-, 2- and 4-bit gray is scaled to 0..255") {
  // 1 bit: 0xA0 = 1,0,1,0 -> x255.
  CHECK(Decode(Spec(4, 1, PngColor::kGray, 1, {0xA0})).pixels ==
        std::vector<uint8_t>{255, 255, 255, 0, 0, 0, 255, 255, 255, 0, 0, 0});
  // 2 bits: 0x1B = 0,1,2,3 -> x85.
  CHECK(Decode(Spec(4, 1, PngColor::kGray, 2, {0x1B})).pixels ==
        std::vector<uint8_t>{0, 0, 0, 85, 85, 85, 170, 170, 170, 255, 255, 255});
  // 4 bits: 0x0F 0x7A = 0,15,7,10 -> x17.
  CHECK(Decode(Spec(4, 1, PngColor::kGray, 4, {0x0F, 0x7A})).pixels ==
        std::vector<uint8_t>{0, 0, 0, 255, 255, 255, 119, 119, 119, 170, 170, 170});
}

TEST_CASE("alpha is dropped, not composited") {
  CHECK(Decode(Spec(2, 1, PngColor::kGrayAlpha, 8, {77, 0, 200, 255})).pixels ==
        std::vector<uint8_t>{77, 77, 77, 200, 200, 200});
  CHECK(Decode(Spec(2, 1, PngColor::kRgba, 8, {10, 20, 30, 0, 40, 50, 60, 128})).pixels ==
        std::vector<uint8_t>{10, 20, 30, 40, 50, 60});
}

TEST_CASE("16-bit samples keep their high byte (truncated, not rounded)") {
  // 0x12FF -> 0x12 = 18 (rounding v/257 would give 19); 0x80FF -> 128;
  // 0xFFFF -> 255; 0x0001 -> 0; 0x00FF -> 0; 0xFF00 -> 255.
  CHECK(Decode(Spec(2, 1, PngColor::kRgb, 16,
                    test::Samples16({0x12FF, 0x80FF, 0xFFFF, 0x0001, 0x00FF, 0xFF00})))
            .pixels == std::vector<uint8_t>{18, 128, 255, 0, 0, 255});
  CHECK(Decode(Spec(2, 1, PngColor::kGray, 16, test::Samples16({0x12FF, 0xFE01}))).pixels ==
        std::vector<uint8_t>{18, 18, 18, 254, 254, 254});
  CHECK(Decode(Spec(1, 1, PngColor::kRgba, 16, test::Samples16({0x0102, 0xABCD, 0xFF00, 0x1234})))
            .pixels == std::vector<uint8_t>{1, 0xAB, 0xFF});
}

TEST_CASE("palette indices are looked up, also packed below 8 bits") {
  PngSpec spec = Spec(3, 1, PngColor::kPalette, 8, {2, 0, 1});
  spec.palette = {{1, 2, 3}, {250, 128, 0}, {9, 99, 199}};
  CHECK(Decode(spec).pixels == std::vector<uint8_t>{9, 99, 199, 1, 2, 3, 250, 128, 0});
  // 2-bit indices 2,0,1,2 packed into 0b10'00'01'10.
  spec = Spec(4, 1, PngColor::kPalette, 2, {0x86});
  spec.palette = {{1, 2, 3}, {250, 128, 0}, {9, 99, 199}};
  CHECK(Decode(spec).pixels == std::vector<uint8_t>{9, 99, 199, 1, 2, 3, 250, 128, 0, 9, 99, 199});
}

TEST_CASE("malformed PNG bytes are errors that name the source") {
  const std::string text = "this is not a PNG file";
  Expected<Image> image =
      DecodePng(reinterpret_cast<const uint8_t*>(text.data()), text.size(), "notes.png");
  REQUIRE_FALSE(image.ok());
  CHECK(image.status().code() == StatusCode::kInvalidArgument);
  CHECK(MessageHas(image.status().message(), "notes.png: not a readable PNG"));

  CHECK_FALSE(DecodePng(nullptr, 0, "empty.png").ok());

  // Every truncation is an error, never a crash: libspng would stop once the
  // zlib stream is complete, but the decoder reads on to IEND, so a file
  // missing only its last bytes (IDAT's CRC, the IEND chunk) is refused too.
  const std::vector<uint8_t> pixels = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  const std::vector<uint8_t> png = EncodePng(Spec(2, 2, PngColor::kRgb, 8, pixels));
  for (size_t size = 0; size < png.size(); ++size) {
    CAPTURE(size);
    CHECK_FALSE(DecodePng(png.data(), size, "cut.png").ok());
  }
  REQUIRE(DecodePng(png.data(), png.size(), "whole.png").ok());
  // The last IDAT's own CRC (the 4 bytes before the 12-byte IEND chunk).
  std::vector<uint8_t> bad_crc = png;
  bad_crc[png.size() - 13] ^= 0x01;
  Expected<Image> crc = DecodePng(bad_crc.data(), bad_crc.size(), "idat_crc.png");
  REQUIRE_FALSE(crc.ok());
  CHECK(crc.status().message().rfind("idat_crc.png: not a readable PNG", 0) == 0);
  // A flipped bit in the image data breaks a CRC.
  std::vector<uint8_t> corrupt = png;
  corrupt[corrupt.size() - 20] ^= 0x10;
  CHECK_FALSE(DecodePng(corrupt.data(), corrupt.size(), "crc.png").ok());
}

// The PNG CRC-32 (ISO 3309, reflected polynomial 0xEDB88320), bit by bit.
uint32_t Crc32(const uint8_t* data, size_t size) {
  uint32_t crc = 0xFFFFFFFFu;
  for (size_t i = 0; i < size; ++i) {
    crc ^= data[i];
    for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
  }
  return crc ^ 0xFFFFFFFFu;
}

// `png` with the IHDR width and height replaced (and the chunk's CRC
// refreshed). IHDR is the first chunk: type at 12..15, width at 16, height
// at 20 (big-endian), its CRC at 29.
std::vector<uint8_t> WithSize(std::vector<uint8_t> png, uint32_t width, uint32_t height) {
  const auto put = [&png](size_t at, uint32_t v) {
    for (int i = 0; i < 4; ++i)
      png[at + static_cast<size_t>(i)] = static_cast<uint8_t>(v >> (24 - 8 * i));
  };
  put(16, width);
  put(20, height);
  put(29, Crc32(png.data() + 12, 17));
  return png;
}

TEST_CASE("images larger than the limits are refused before decoding") {
  const std::vector<uint8_t> png = EncodePng(Spec(1, 1, PngColor::kGray, 8, {0}));
  // The header alone decides: 16384 x 16384 RGB needs 768 MiB > kMaxImageBytes.
  Expected<Image> big = DecodePng(WithSize(png, 16384, 16384).data(), png.size(), "big.png");
  REQUIRE_FALSE(big.ok());
  CHECK(MessageHas(big.status().message(),
                   "big.png: 16384x16384 pixels need 805306368 bytes decoded; opuc accepts at "
                   "most 268435456"));
  // Past kMaxImageSide, libspng's own limit refuses it.
  Expected<Image> wide = DecodePng(WithSize(png, 16385, 1).data(), png.size(), "wide.png");
  REQUIRE_FALSE(wide.ok());
  CHECK(MessageHas(wide.status().message(), "wide.png: not a readable PNG: header"));
  // The rewriting itself is sound: the same size decodes.
  CHECK(DecodePng(WithSize(png, 1, 1).data(), png.size(), "same.png").ok());
}

TEST_CASE("LoadImage names the file in every error") {
  test::TempDir dir;
  Expected<Image> missing = LoadImage(dir.Path("missing.png"));
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.status().code() == StatusCode::kNotFound);
  CHECK(MessageHas(missing.status().message(), dir.Path("missing.png")));

  Expected<Image> folder = LoadImage(dir.path());
  REQUIRE_FALSE(folder.ok());
  CHECK(MessageHas(folder.status().message(), "not a regular file"));

  test::WriteBytes(dir.Path("bad.png"), {0x89, 'P', 'N', 'G', 1, 2, 3});
  Expected<Image> bad = LoadImage(dir.Path("bad.png"));
  REQUIRE_FALSE(bad.ok());
  CHECK(MessageHas(bad.status().message(), dir.Path("bad.png") + ": not a readable PNG"));

  test::WriteBytes(dir.Path("ok.png"), EncodePng(Spec(1, 1, PngColor::kRgb, 8, {5, 6, 7})));
  Expected<Image> ok = LoadImage(dir.Path("ok.png"));
  REQUIRE(ok.ok());
  CHECK(ok->pixels == std::vector<uint8_t>{5, 6, 7});
}

}  // namespace
}  // namespace opuc
