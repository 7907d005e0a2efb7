//===- src/tensor_io/npy.cc - NumPy .npy files ------------------------------===//
//
// The format, from numpy's published description (numpy.lib.format):
//   bytes 0-5  "\x93NUMPY"
//   bytes 6-7  major and minor version: 1.0, 2.0 or 3.0
//   then       the header length, little-endian: 2 bytes (1.0) or 4 (2.0, 3.0)
//   then       the header: a Python dict literal with exactly the keys 'descr',
//              'fortran_order' and 'shape', padded with spaces and ended by
//              '\n' so that the data starts on a multiple of 64 bytes
//   then       the elements, in C order when fortran_order is False.
//
//===----------------------------------------------------------------------===//
#include "opuc/tensor_io/npy.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <vector>

#include "npy_header.h"
#include "support/format.h"
#include "support/output_file.h"

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "the .npy reader and writer copy little-endian data as is");

namespace opuc {
namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicSize = 6;
constexpr size_t kArrayAlign = 64;        // numpy's ARRAY_ALIGN
constexpr size_t kGrowthAxisDigits = 21;  // numpy's GROWTH_AXIS_MAX_DIGITS

struct Preamble {
  size_t size = 0;          ///< Magic, version and header length: 10 or 12 bytes.
  uint32_t header_len = 0;  ///< Bytes of the dict text that follow.
};

/// Parses the first bytes of a file; `available` may exceed the preamble.
Expected<Preamble> ParsePreamble(const uint8_t* bytes, size_t available, std::string_view name) {
  if (available < kMagicSize || std::memcmp(bytes, kMagic, kMagicSize) != 0)
    return InvalidArgument(Cat(name,
                               ": not a .npy file (field 'magic': the file does not start"
                               " with \\x93NUMPY)"));
  if (available < kMagicSize + 2)
    return InvalidArgument(Cat(name, ": truncated in field 'version'"));
  const int major = bytes[6], minor = bytes[7];
  if ((major < 1 || major > 3) || minor != 0)
    return InvalidArgument(
        Cat(name, ": field 'version' is ", major, ".", minor, "; expected 1.0, 2.0 or 3.0"));
  Preamble preamble;
  preamble.size = major == 1 ? 10 : 12;
  if (available < preamble.size)
    return InvalidArgument(Cat(name, ": truncated in field 'header_len'"));
  preamble.header_len = uint32_t{bytes[8]} | uint32_t{bytes[9]} << 8;
  if (major > 1) preamble.header_len |= uint32_t{bytes[10]} << 16 | uint32_t{bytes[11]} << 24;
  return preamble;
}

Status CheckDataSize(uint64_t have, const NpyHeader& header, std::string_view name) {
  const uint64_t need = static_cast<uint64_t>(*NumElements(header.shape)) * DTypeSize(header.dtype);
  if (have == need) return OkStatus();
  return InvalidArgument(Cat(name, ": data holds ", have, " bytes; 'shape' ",
                             NpyShapeText(header.shape), " of '", NpyDescr(header.dtype),
                             "' needs ", need, have < need ? " (truncated)" : " (trailing bytes)"));
}

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

Status OsError(const std::string& path, std::string_view doing) {
  return IoError(Cat(path, ": cannot ", doing, ": ", std::strerror(errno)));
}

}  // namespace

std::string_view NpyDescr(DType dtype) {
  switch (dtype) {
    case DType::kF32: return "<f4";
    case DType::kF16: return "<f2";
    case DType::kI8: return "|i1";
    case DType::kI16: return "<i2";
    case DType::kI32: return "<i4";
    case DType::kU8: return "|u1";
  }
  return "?";
}

Expected<HostTensor> DecodeNpy(const uint8_t* data, size_t size, std::string_view name) {
  OPUC_ASSIGN_OR_RETURN(Preamble preamble, ParsePreamble(data, size, name));
  if (size - preamble.size < preamble.header_len)
    return InvalidArgument(Cat(name, ": field 'header_len' is ", preamble.header_len,
                               " bytes but the file ends after ", size - preamble.size));
  const std::string_view text(reinterpret_cast<const char*>(data + preamble.size),
                              preamble.header_len);
  OPUC_ASSIGN_OR_RETURN(NpyHeader header, ParseNpyHeader(text, name));
  const size_t offset = preamble.size + preamble.header_len;
  OPUC_RETURN_IF_ERROR(CheckDataSize(size - offset, header, name));
  Expected<HostTensor> tensor = HostTensor::Zeros(header.dtype, header.shape);
  if (!tensor.ok()) return tensor.status().WithContext(name);
  if (tensor->bytes()) std::memcpy(tensor->mutable_bytes(), data + offset, tensor->bytes());
  return tensor;
}

Expected<HostTensor> ReadNpy(const std::string& path) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status))
    // A folder or a named pipe: refused before fopen(), which blocks on a pipe.
    return InvalidArgument(Cat(path, ": not a regular file (a .npy file is needed)"));
  File file(std::fopen(path.c_str(), "rb"));
  if (!file) return OsError(path, "open");
  NoteInputFile(path);
  // The file's size bounds every length the file declares: nothing is
  // allocated for a header or data the file does not hold.
  if (std::fseek(file.get(), 0, SEEK_END) != 0) return OsError(path, "seek");
  const long file_size = std::ftell(file.get());
  if (file_size < 0 || std::fseek(file.get(), 0, SEEK_SET) != 0) return OsError(path, "seek");
  // 12 bytes cover the longest preamble; a valid file always has that many.
  std::vector<uint8_t> start(12);
  start.resize(std::fread(start.data(), 1, start.size(), file.get()));
  if (std::ferror(file.get())) return OsError(path, "read");
  OPUC_ASSIGN_OR_RETURN(Preamble preamble, ParsePreamble(start.data(), start.size(), path));
  std::string text(reinterpret_cast<const char*>(start.data()) + preamble.size,
                   start.size() - preamble.size);
  if (text.size() > preamble.header_len) {
    return InvalidArgument(Cat(path, ": field 'header_len' is ", preamble.header_len,
                               "; the header cannot end before the dict starts"));
  }
  const size_t have = text.size();
  const auto after_preamble = static_cast<uint64_t>(file_size) - preamble.size;
  if (preamble.header_len > after_preamble)
    return InvalidArgument(Cat(path, ": field 'header_len' is ", preamble.header_len,
                               " bytes but the file ends after ", after_preamble));
  text.resize(preamble.header_len);
  const size_t got = std::fread(text.data() + have, 1, text.size() - have, file.get());
  if (std::ferror(file.get())) return OsError(path, "read");
  if (have + got < preamble.header_len)
    return InvalidArgument(Cat(path, ": field 'header_len' is ", preamble.header_len,
                               " bytes but the file ends after ", have + got));
  OPUC_ASSIGN_OR_RETURN(NpyHeader header, ParseNpyHeader(text, path));
  // Check the data size against the file before allocating what the header claims.
  const long data_start = std::ftell(file.get());
  if (data_start < 0 || data_start > file_size) return OsError(path, "seek");
  OPUC_RETURN_IF_ERROR(CheckDataSize(static_cast<uint64_t>(file_size - data_start), header, path));
  Expected<HostTensor> tensor = HostTensor::Zeros(header.dtype, header.shape);
  if (!tensor.ok()) return tensor.status().WithContext(path);
  if (tensor->bytes() &&
      std::fread(tensor->mutable_bytes(), 1, tensor->bytes(), file.get()) != tensor->bytes())
    return OsError(path, "read");
  return tensor;
}

std::string EncodeNpyHeader(DType dtype, const Shape& shape) {
  std::string dict = Cat("{'descr': '", NpyDescr(dtype),
                         "', 'fortran_order': False, 'shape': ", NpyShapeText(shape), ", }");
  // Room to grow the first axis in place, as numpy.save leaves it.
  if (!shape.empty()) dict.append(kGrowthAxisDigits - std::to_string(shape[0]).size(), ' ');
  const size_t text_len = dict.size() + 1;  // with the final '\n'
  size_t preamble = 10;
  size_t pad = kArrayAlign - (preamble + text_len) % kArrayAlign;
  if (text_len + pad > 0xffff) {  // version 2.0: a 4-byte length
    preamble = 12;
    pad = kArrayAlign - (preamble + text_len) % kArrayAlign;
  }
  const size_t header_len = text_len + pad;
  std::string out(kMagic, kMagicSize);
  out.push_back(static_cast<char>(preamble == 10 ? 1 : 2));
  out.push_back(0);
  for (size_t i = 0; i < preamble - 8; ++i)
    out.push_back(static_cast<char>((header_len >> (8 * i)) & 0xff));
  out += dict;
  out.append(pad, ' ');
  out.push_back('\n');
  return out;
}

Status WriteNpy(const std::string& path, const HostTensor& tensor) {
  const std::string header = EncodeNpyHeader(tensor.dtype(), tensor.shape());
  return WriteOutputFile(
      path,
      {header, std::string_view(reinterpret_cast<const char*>(tensor.raw()), tensor.bytes())});
}

}  // namespace opuc
