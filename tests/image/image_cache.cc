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

std::string CalibrationImagesDir() { return ImagesDir() + "/calibration"; }

std::string EvaluationImagesDir() { return ImagesDir() + "/evaluation"; }

std::string HeldOutImagesDir() { return ImagesDir() + "/heldout"; }

std::string ImagePath(const std::string& file) {
  for (const std::string& dir : {CalibrationImagesDir(), EvaluationImagesDir(), HeldOutImagesDir()})
    if (std::filesystem::is_regular_file(dir + "/" + file)) return dir + "/" + file;
  FAIL("image " << file << " is in none of " << CalibrationImagesDir() << ", "
                << EvaluationImagesDir() << " and " << HeldOutImagesDir()
                << ": run scripts/fetch-images");
  return "";
}

}  // namespace opuc::test
