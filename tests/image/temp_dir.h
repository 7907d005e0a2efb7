//===- tests/image/temp_dir.h - A scratch folder per test -------*- C++ -*-===//
#ifndef OPUC_TESTS_IMAGE_TEMP_DIR_H
#define OPUC_TESTS_IMAGE_TEMP_DIR_H

#include <doctest/doctest.h>
#include <stdlib.h>

#include <filesystem>
#include <string>
#include <system_error>

namespace opuc::test {

/// A fresh folder, removed with everything in it at the end of the test.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "opuc_image_XXXXXX").string();
    REQUIRE(mkdtemp(pattern.data()) != nullptr);
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return path_; }
  std::string Path(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

}  // namespace opuc::test

#endif  // OPUC_TESTS_IMAGE_TEMP_DIR_H
