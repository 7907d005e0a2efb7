//===- tests/image/image_cache.h - The calibration photographs --*- C++ -*-===//
//
// scripts/fetch-images puts the photographs of scripts/images.sha256 into
// ${OPUC_IMAGES_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/opuc/images}, in three
// sets, calibration/, evaluation/ and heldout/ (kept from every choice,
// docs/calibration.md); setup
// runs it, so CI has them. A test that needs them fails, with a message
// saying how to get them, when the folder or a listed file is missing: a
// test never passes by not running.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_TESTS_IMAGE_IMAGE_CACHE_H
#define OPUC_TESTS_IMAGE_IMAGE_CACHE_H

#include <string>

namespace opuc::test {

/// The cache folder scripts/fetch-images fills.
std::string ImagesDir();

/// Fails the calling test (REQUIRE) when the cache folder does not exist.
void RequireImagesCache();

/// The three sets in the cache.
std::string CalibrationImagesDir();
std::string EvaluationImagesDir();
std::string HeldOutImagesDir();

/// The path of `file` in any set; fails the test when missing.
std::string ImagePath(const std::string& file);

}  // namespace opuc::test

#endif  // OPUC_TESTS_IMAGE_IMAGE_CACHE_H
