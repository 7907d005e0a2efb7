//===- src/image/image_file.cc - A photograph from a file -----------------===//
//
// Reads the file whole and decodes it by what it holds (the PNG or JPEG
// signature), not by its name, so a .jpg that is really a PNG still reads.
//
//===----------------------------------------------------------------------===//
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <system_error>

#include "opuc/image/image.h"
#include "support/format.h"
#include "support/output_file.h"

namespace opuc {
namespace {

bool StartsWith(const std::vector<uint8_t>& bytes, std::initializer_list<uint8_t> signature) {
  return bytes.size() >= signature.size() &&
         std::equal(signature.begin(), signature.end(), bytes.begin());
}

}  // namespace

Expected<Image> DecodeImage(const std::vector<uint8_t>& bytes, std::string_view name) {
  if (StartsWith(bytes, {0x89, 'P', 'N', 'G'})) return DecodePng(bytes.data(), bytes.size(), name);
  if (StartsWith(bytes, {0xFF, 0xD8, 0xFF})) return DecodeJpeg(bytes.data(), bytes.size(), name);
  return InvalidArgument(Cat(name, ": neither a PNG nor a JPEG file (its first bytes are no",
                             " PNG or JPEG signature)"));
}

Expected<Image> LoadImage(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return NotFound(Cat(path, ": no such file"));
  if (!std::filesystem::is_regular_file(path, ec))
    return InvalidArgument(Cat(path, ": not a regular file (a PNG or JPEG photograph is needed)"));
  std::ifstream in(path, std::ios::binary);
  if (!in) return IoError(Cat(path, ": cannot open: ", std::strerror(errno)));
  NoteInputFile(path);
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
  if (in.bad()) return IoError(Cat(path, ": read failed: ", std::strerror(errno)));
  return DecodeImage(bytes, path);
}

}  // namespace opuc
