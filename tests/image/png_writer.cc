//===- tests/image/png_writer.cc - Small PNG files for the tests ----------===//
#include "image/png_writer.h"

#include <doctest/doctest.h>
#include <spng.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>

namespace opuc::test {

std::vector<uint8_t> EncodePng(const PngSpec& spec) {
  std::unique_ptr<spng_ctx, void (*)(spng_ctx*)> ctx(spng_ctx_new(SPNG_CTX_ENCODER), spng_ctx_free);
  REQUIRE(ctx);
  REQUIRE(spng_set_option(ctx.get(), SPNG_ENCODE_TO_BUFFER, 1) == 0);
  spng_ihdr ihdr{};
  ihdr.width = spec.width;
  ihdr.height = spec.height;
  ihdr.bit_depth = spec.bit_depth;
  ihdr.color_type = static_cast<uint8_t>(spec.color);
  ihdr.interlace_method = spec.interlaced ? 1 : 0;
  int rc = spng_set_ihdr(ctx.get(), &ihdr);
  REQUIRE_MESSAGE(rc == 0, spng_strerror(rc));
  if (!spec.palette.empty()) {
    spng_plte plte{};
    plte.n_entries = static_cast<uint32_t>(spec.palette.size());
    for (size_t i = 0; i < spec.palette.size(); ++i) {
      plte.entries[i].red = spec.palette[i][0];
      plte.entries[i].green = spec.palette[i][1];
      plte.entries[i].blue = spec.palette[i][2];
    }
    rc = spng_set_plte(ctx.get(), &plte);
    REQUIRE_MESSAGE(rc == 0, spng_strerror(rc));
  }
  rc = spng_encode_image(ctx.get(), spec.data.data(), spec.data.size(), SPNG_FMT_PNG,
                         SPNG_ENCODE_FINALIZE);
  REQUIRE_MESSAGE(rc == 0, spng_strerror(rc));
  size_t size = 0;
  void* buffer = spng_get_png_buffer(ctx.get(), &size, &rc);
  REQUIRE_MESSAGE(buffer != nullptr, spng_strerror(rc));
  std::vector<uint8_t> bytes(static_cast<uint8_t*>(buffer), static_cast<uint8_t*>(buffer) + size);
  std::free(buffer);
  return bytes;
}

std::vector<uint8_t> Samples16(const std::vector<uint16_t>& samples) {
  std::vector<uint8_t> bytes(samples.size() * 2);
  std::memcpy(bytes.data(), samples.data(), bytes.size());
  return bytes;
}

void WriteBytes(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  REQUIRE_MESSAGE(out.good(), "cannot write " << path);
}

}  // namespace opuc::test
