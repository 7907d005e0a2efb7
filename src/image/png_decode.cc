//===- src/image/png_decode.cc - PNG to 8-bit RGB with libspng ------------===//
//
// libspng converts every colour type and bit depth to SPNG_FMT_RGB8 itself:
// palette lookup, gray replicated, alpha dropped, 16-bit samples >> 8, and
// 1/2/4-bit gray scaled by 255 / (2^depth - 1). This file checks the size
// limits before anything is allocated and turns libspng's error codes into
// messages that name the file.
//
//===----------------------------------------------------------------------===//
#include <spng.h>

#include <cstring>
#include <memory>

#include "opuc/image/image.h"
#include "support/format.h"

namespace opuc {
namespace {

struct SpngContextDeleter {
  void operator()(spng_ctx* ctx) const { spng_ctx_free(ctx); }
};
using SpngContext = std::unique_ptr<spng_ctx, SpngContextDeleter>;

// Chunks opuc has no use for (text, ICC profiles, EXIF) may be large; these
// bound what libspng keeps of them while it decodes.
constexpr size_t kMaxChunkBytes = size_t{1} << 24;
constexpr size_t kMaxChunkCache = size_t{1} << 26;

// The IEND chunk: length 0, type "IEND", CRC AE 42 60 82 (always the same).
bool EndsWithIend(const uint8_t* data, size_t size) {
  static constexpr uint8_t kIend[] = {0, 0, 0, 0, 'I', 'E', 'N', 'D', 0xAE, 0x42, 0x60, 0x82};
  return size >= sizeof(kIend) &&
         std::memcmp(data + size - sizeof(kIend), kIend, sizeof(kIend)) == 0;
}

Status SpngError(std::string_view name, const char* what, int code) {
  return InvalidArgument(Cat(name, ": not a readable PNG: ", what, ": ", spng_strerror(code)));
}

}  // namespace

Expected<Image> DecodePng(const uint8_t* data, size_t size, std::string_view name) {
  SpngContext ctx(spng_ctx_new(0));
  if (!ctx) return InternalError(Cat(name, ": libspng could not allocate a decoder"));
  if (int rc = spng_set_image_limits(ctx.get(), kMaxImageSide, kMaxImageSide); rc != 0)
    return InternalError(Cat(name, ": spng_set_image_limits: ", spng_strerror(rc)));
  if (int rc = spng_set_chunk_limits(ctx.get(), kMaxChunkBytes, kMaxChunkCache); rc != 0)
    return InternalError(Cat(name, ": spng_set_chunk_limits: ", spng_strerror(rc)));
  if (int rc = spng_set_png_buffer(ctx.get(), data, size); rc != 0)
    return SpngError(name, "reading the buffer", rc);

  spng_ihdr ihdr{};
  if (int rc = spng_get_ihdr(ctx.get(), &ihdr); rc != 0) return SpngError(name, "header", rc);
  size_t bytes = 0;
  if (int rc = spng_decoded_image_size(ctx.get(), SPNG_FMT_RGB8, &bytes); rc != 0)
    return SpngError(name, "decoded size", rc);
  if (bytes > kMaxImageBytes)
    return InvalidArgument(Cat(name, ": ", ihdr.width, "x", ihdr.height, " pixels need ", bytes,
                               " bytes decoded; opuc accepts at most ", kMaxImageBytes));
  if (bytes != size_t{ihdr.width} * ihdr.height * 3)
    return InternalError(Cat(name, ": libspng reports ", bytes, " bytes for ", ihdr.width, "x",
                             ihdr.height, " RGB pixels"));

  Image image;
  image.width = static_cast<int32_t>(ihdr.width);  // <= kMaxImageSide
  image.height = static_cast<int32_t>(ihdr.height);
  image.pixels.resize(bytes);
  if (int rc = spng_decode_image(ctx.get(), image.pixels.data(), bytes, SPNG_FMT_RGB8, 0); rc != 0)
    return SpngError(name, "image data", rc);
  // libspng stops once the zlib stream is complete; reading on to IEND checks
  // the last IDAT's CRC, and IEND with its CRC must be there: the file is whole.
  if (int rc = spng_decode_chunks(ctx.get()); rc != 0)
    return SpngError(name, "after the image", rc);
  if (!EndsWithIend(data, size))
    return InvalidArgument(Cat(name, ": not a readable PNG: the IEND chunk is missing or cut"));
  return image;
}

}  // namespace opuc
