// JPEG decoding: files encoded here by libjpeg-turbo from pixels chosen so
// that their decoding is exact (flat gray 8×8 blocks at quality 100: each
// block is its DC term alone, quantized with step 1), then damaged files.
#include <doctest/doctest.h>
#include <turbojpeg.h>

#include <string>
#include <vector>

#include "image/png_writer.h"
#include "image/temp_dir.h"
#include "opuc/image/image.h"

namespace opuc {
namespace {

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// A gray JPEG of `width` × 8 pixels at quality 100: one 8×8 block per entry
// of `levels`, left to right.
std::vector<uint8_t> GrayBlocks(const std::vector<uint8_t>& levels) {
  const int width = static_cast<int>(levels.size()) * 8, height = 8;
  std::vector<uint8_t> gray(static_cast<size_t>(width * height));
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      gray[static_cast<size_t>(y * width + x)] = levels[static_cast<size_t>(x / 8)];
  tjhandle encoder = tjInitCompress();
  REQUIRE(encoder != nullptr);
  unsigned char* jpeg = nullptr;
  unsigned long size = 0;
  const int rc = tjCompress2(encoder, gray.data(), width, 0, height, TJPF_GRAY, &jpeg, &size,
                             TJSAMP_GRAY, 100, TJFLAG_ACCURATEDCT);
  REQUIRE_MESSAGE(rc == 0, tjGetErrorStr2(encoder));
  std::vector<uint8_t> bytes(jpeg, jpeg + size);
  tjFree(jpeg);
  tjDestroy(encoder);
  return bytes;
}

TEST_CASE("a gray JPEG decodes to its levels, copied to R, G and B") {
  const std::vector<uint8_t> jpeg = GrayBlocks({40, 200, 128});
  Expected<Image> image = DecodeJpeg(jpeg.data(), jpeg.size(), "blocks.jpg");
  REQUIRE_MESSAGE(image.ok(), image.status().ToString());
  CHECK(image->width == 24);
  CHECK(image->height == 8);
  for (int32_t y : {0, 7})
    for (int32_t c = 0; c < 3; ++c) {
      CHECK(image->at(y, 0, c) == 40);
      CHECK(image->at(y, 15, c) == 200);
      CHECK(image->at(y, 23, c) == 128);
    }
  // DecodeImage tells JPEG from PNG by the signature.
  Expected<Image> same = DecodeImage(jpeg, "blocks.png");
  REQUIRE(same.ok());
  CHECK(same->pixels == image->pixels);
}

TEST_CASE("truncated, corrupt and oversized JPEGs are errors naming the file") {
  const std::vector<uint8_t> jpeg = GrayBlocks({10, 250, 10, 250});
  // Cut inside the entropy-coded data: libjpeg would fill the rest with gray
  // and warn; opuc refuses it.
  const std::vector<uint8_t> cut(jpeg.begin(), jpeg.end() - 40);
  Expected<Image> truncated = DecodeJpeg(cut.data(), cut.size(), "cut.jpg");
  REQUIRE_FALSE(truncated.ok());
  CHECK(Contains(truncated.status().message(), "cut.jpg: not a readable JPEG"));

  const std::vector<uint8_t> header_only(jpeg.begin(), jpeg.begin() + 20);
  Expected<Image> no_frame = DecodeJpeg(header_only.data(), header_only.size(), "head.jpg");
  REQUIRE_FALSE(no_frame.ok());
  CHECK(no_frame.status().message() ==
        "head.jpg: not a readable JPEG: header: no frame (the file ends before the image size)");

  CHECK(DecodeJpeg(nullptr, 0, "empty.jpg").status().message() ==
        "empty.jpg: not a readable JPEG: empty");

  // The frame header (SOF0: FF C0, length, precision, height, width) says
  // 20000 × 8: refused from the header, before 480 MB are allocated.
  std::vector<uint8_t> huge = jpeg;
  for (size_t i = 0; i + 8 < huge.size(); ++i)
    if (huge[i] == 0xFF && huge[i + 1] == 0xC0) {
      huge[i + 7] = 20000 >> 8;
      huge[i + 8] = 20000 & 0xFF;
      break;
    }
  Expected<Image> big = DecodeJpeg(huge.data(), huge.size(), "big.jpg");
  REQUIRE_FALSE(big.ok());
  CHECK(big.status().message() == "big.jpg: 20000x8 pixels; opuc accepts 1 to 16384 per side");

  CHECK(DecodeImage({'G', 'I', 'F', '8', '9', 'a'}, "cat.gif").status().message() ==
        "cat.gif: neither a PNG nor a JPEG file (its first bytes are no PNG or JPEG signature)");
}

TEST_CASE("LoadImage reads a JPEG whatever its extension") {
  test::TempDir dir;
  test::WriteBytes(dir.Path("photo.png"), GrayBlocks({77}));
  Expected<Image> image = LoadImage(dir.Path("photo.png"));
  REQUIRE_MESSAGE(image.ok(), image.status().ToString());
  CHECK(image->pixels == std::vector<uint8_t>(8 * 8 * 3, 77));
}

}  // namespace
}  // namespace opuc
