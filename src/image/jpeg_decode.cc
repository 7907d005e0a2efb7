//===- src/image/jpeg_decode.cc - JPEG to 8-bit RGB with libjpeg-turbo ----===//
//
// TurboJPEG decodes baseline and progressive JPEG, gray or colour, to RGB
// (gray is replicated). Its warnings (a truncated file, a corrupt entropy
// segment: libjpeg fills the rest with gray) are errors here, so a damaged
// photograph never calibrates a model silently. The size limits of image.h
// are checked from the header, before anything is allocated.
//
//===----------------------------------------------------------------------===//
#include <turbojpeg.h>

#include <memory>

#include "opuc/image/image.h"
#include "support/format.h"

namespace opuc {
namespace {

struct TurboJpegDeleter {
  void operator()(void* handle) const { tjDestroy(handle); }
};
using TurboJpeg = std::unique_ptr<void, TurboJpegDeleter>;

Status JpegError(std::string_view name, const char* what, void* handle) {
  return InvalidArgument(Cat(name, ": not a readable JPEG: ", what, ": ", tjGetErrorStr2(handle)));
}

}  // namespace

Expected<Image> DecodeJpeg(const uint8_t* data, size_t size, std::string_view name) {
  if (!data || size == 0) return InvalidArgument(Cat(name, ": not a readable JPEG: empty"));
  TurboJpeg handle(tjInitDecompress());
  if (!handle) return InternalError(Cat(name, ": libjpeg-turbo could not allocate a decoder"));
  int width = 0, height = 0, subsampling = 0, colorspace = 0;
  if (tjDecompressHeader3(handle.get(), data, static_cast<unsigned long>(size), &width, &height,
                          &subsampling, &colorspace) != 0)
    return JpegError(name, "header", handle.get());
  // A stream cut before its frame header reads as tables only, 0 × 0.
  if (width < 1 || height < 1)
    return InvalidArgument(Cat(name, ": not a readable JPEG: header: no frame (the file ends",
                               " before the image size)"));
  if (width > kMaxImageSide || height > kMaxImageSide)
    return InvalidArgument(Cat(name, ": ", width, "x", height, " pixels; opuc accepts 1 to ",
                               kMaxImageSide, " per side"));
  const size_t bytes = static_cast<size_t>(width) * static_cast<size_t>(height) * 3;
  if (bytes > kMaxImageBytes)
    return InvalidArgument(Cat(name, ": ", width, "x", height, " pixels need ", bytes,
                               " bytes decoded; opuc accepts at most ", kMaxImageBytes));
  Image image;
  image.width = width;
  image.height = height;
  image.pixels.resize(bytes);
  // Accurate integer IDCT: the same pixels on every machine and every run.
  const int flags = TJFLAG_ACCURATEDCT | TJFLAG_STOPONWARNING;
  if (tjDecompress2(handle.get(), data, static_cast<unsigned long>(size), image.pixels.data(),
                    width, 0, height, TJPF_RGB, flags) != 0)
    return JpegError(name, "image data", handle.get());
  return image;
}

}  // namespace opuc
