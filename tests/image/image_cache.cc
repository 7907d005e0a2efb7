//===- tests/image/image_cache.cc - The calibration photographs -----------===//
#include "image/image_cache.h"

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>

#include "support/fetched_data.h"

namespace opuc::test {

std::string ImagesDir() { return FetchedImagesDir(); }

void RequireImagesCache() {
  REQUIRE_MESSAGE(std::filesystem::is_directory(ImagesDir()),
                  "the image cache " << ImagesDir()
                                     << " does not exist; run scripts/fetch-images (or "
                                        "scripts/setup), or point OPUC_IMAGES_DIR at it");
}

std::string ImagePath(const std::string& file) {
  const std::string path = ImagesDir() + "/" + file;
  REQUIRE_MESSAGE(std::filesystem::is_regular_file(path),
                  "image " << path << " is missing from the cache: run scripts/fetch-images");
  return path;
}

}  // namespace opuc::test
