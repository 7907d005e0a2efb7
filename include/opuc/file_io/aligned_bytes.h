//===- opuc/file_io/aligned_bytes.h - Byte buffers for in-place reading -*- C++ -*-===//
//
// A loaded model (or program) is read once into one buffer whose start is aligned to
// kConstantAlignment; the graph's constants then view it, and the shared
// owner keeps it alive for as long as any constant does.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_FILE_IO_ALIGNED_BYTES_H
#define OPUC_FILE_IO_ALIGNED_BYTES_H

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

#include "opuc/ir/constant_data.h"

#include "opuc/status.h"

namespace opuc {

struct AlignedBytes {
  std::shared_ptr<uint8_t> owner;  ///< Start aligned to kConstantAlignment.
  size_t size = 0;

  uint8_t* data() const { return owner.get(); }
};

/// `size` uninitialised bytes; an error (not an exception) when memory runs out.
Expected<AlignedBytes> AllocateAligned(size_t size);

/// An aligned copy of `size` bytes at `data`.
Expected<AlignedBytes> CopyAligned(const uint8_t* data, size_t size);

/// How both readers start: `read(owner, data, size)` on the bytes where they
/// are when aligned to kConstantAlignment (FlatBuffers reads scalars in place),
/// else on an aligned copy; an error is prefixed with `source_name`.
template <typename Read>
auto ReadInPlace(std::shared_ptr<const void> owner, const uint8_t* data, size_t size,
                 std::string_view source_name, Read read) -> decltype(read(owner, data, size)) {
  auto result = [&]() -> decltype(read(owner, data, size)) {
    if (reinterpret_cast<uintptr_t>(data) % kConstantAlignment == 0)
      return read(std::move(owner), data, size);
    OPUC_ASSIGN_OR_RETURN(AlignedBytes copy, CopyAligned(data, size));
    return read(copy.owner, copy.data(), copy.size);
  }();
  if (!result.ok()) return result.status().WithContext(source_name);
  return result;
}

}  // namespace opuc

#endif  // OPUC_FILE_IO_ALIGNED_BYTES_H
