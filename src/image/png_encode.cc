//===- src/image/png_encode.cc - 8-bit RGB to PNG with libspng ------------===//
//
// The other direction of png_decode.cc: what `opuc detect --draw` writes.
// Plain 8-bit RGB, no interlacing, no ancillary chunks, so the bytes depend
// only on the pixels (and libspng's zlib).
//
//===----------------------------------------------------------------------===//
#include <spng.h>

#include <cstdlib>
#include <memory>

#include "opuc/image/image.h"
#include "support/format.h"
#include "support/output_file.h"

namespace opuc {

Expected<std::vector<uint8_t>> EncodePng(const Image& image, std::string_view name) {
  if (image.width <= 0 || image.height <= 0 || image.width > kMaxImageSide ||
      image.height > kMaxImageSide)
    return InvalidArgument(Cat(name, ": cannot encode a ", image.width, "x", image.height,
                               " image (each side must be 1 to ", kMaxImageSide, ")"));
  const size_t bytes = static_cast<size_t>(image.width) * static_cast<size_t>(image.height) * 3;
  if (image.pixels.size() != bytes)
    return InvalidArgument(Cat(name, ": ", image.pixels.size(), " bytes of pixels for a ",
                               image.width, "x", image.height, " RGB image (", bytes,
                               " expected)"));
  std::unique_ptr<spng_ctx, void (*)(spng_ctx*)> ctx(spng_ctx_new(SPNG_CTX_ENCODER), spng_ctx_free);
  if (!ctx) return InternalError(Cat(name, ": libspng could not allocate an encoder"));
  if (int rc = spng_set_option(ctx.get(), SPNG_ENCODE_TO_BUFFER, 1); rc != 0)
    return InternalError(Cat(name, ": spng_set_option: ", spng_strerror(rc)));
  spng_ihdr ihdr{};
  ihdr.width = static_cast<uint32_t>(image.width);
  ihdr.height = static_cast<uint32_t>(image.height);
  ihdr.bit_depth = 8;
  ihdr.color_type = SPNG_COLOR_TYPE_TRUECOLOR;
  if (int rc = spng_set_ihdr(ctx.get(), &ihdr); rc != 0)
    return InternalError(Cat(name, ": spng_set_ihdr: ", spng_strerror(rc)));
  if (int rc = spng_encode_image(ctx.get(), image.pixels.data(), bytes, SPNG_FMT_PNG,
                                 SPNG_ENCODE_FINALIZE);
      rc != 0)
    return InternalError(Cat(name, ": encoding: ", spng_strerror(rc)));
  size_t size = 0;
  int rc = 0;
  void* buffer = spng_get_png_buffer(ctx.get(), &size, &rc);
  if (buffer == nullptr) return InternalError(Cat(name, ": encoding: ", spng_strerror(rc)));
  std::vector<uint8_t> png(static_cast<uint8_t*>(buffer), static_cast<uint8_t*>(buffer) + size);
  std::free(buffer);
  return png;
}

Status SavePng(const Image& image, const std::string& path) {
  OPUC_ASSIGN_OR_RETURN(std::vector<uint8_t> png, EncodePng(image, path));
  return WriteOutputFile(path,
                         {std::string_view(reinterpret_cast<const char*>(png.data()), png.size())});
}

}  // namespace opuc
