//===- src/file_io/aligned_bytes.cc - Byte buffers for in-place reading --===//
#include "opuc/file_io/aligned_bytes.h"

#include <cstring>

#include "opuc/ir/constant_data.h"
#include "support/format.h"

namespace opuc {

Expected<AlignedBytes> AllocateAligned(size_t size) {
  AlignedBytes bytes;
  bytes.owner = NewAlignedBuffer(size);
  if (!bytes.owner) return IoError(Cat("cannot allocate ", size, " bytes"));
  bytes.size = size;
  return bytes;
}

Expected<AlignedBytes> CopyAligned(const uint8_t* data, size_t size) {
  OPUC_ASSIGN_OR_RETURN(AlignedBytes bytes, AllocateAligned(size));
  if (size) std::memcpy(bytes.data(), data, size);
  return bytes;
}

}  // namespace opuc
