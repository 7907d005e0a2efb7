//===- tests/image/image_cache.h - The calibration photographs --*- C++ -*-===//
//
// scripts/fetch-images puts the photographs of scripts/images.sha256 into
// ${OPUC_IMAGES_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/opuc/images}; setup
// runs it. Tests that need them skip, with a message saying how to get
// them, only when that folder does not exist; a folder that lacks a listed
// file fails the test.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_TESTS_IMAGE_IMAGE_CACHE_H
#define OPUC_TESTS_IMAGE_IMAGE_CACHE_H

#include <string>

namespace opuc::test {

/// The cache folder scripts/fetch-images fills.
std::string ImagesDir();

/// Whether the cache folder exists; when not, prints why the calling test
/// is skipped (doctest MESSAGE) and returns false.
bool ImagesCachePresent();

/// The path of `file` in the cache; fails the test (REQUIRE) when missing.
std::string ImagePath(const std::string& file);

}  // namespace opuc::test

#endif  // OPUC_TESTS_IMAGE_IMAGE_CACHE_H
