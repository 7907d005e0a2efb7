//===- src/frontend/aligned_bytes.cc - Byte buffers for in-place reading --===//
#include "aligned_bytes.h"

#include <cstring>
#include <new>

#include "opuc/ir/constant_data.h"
#include "support/format.h"

namespace opuc {
namespace {

struct AlignedDelete {
  void operator()(uint8_t* p) const {
    ::operator delete[](p, std::align_val_t(kConstantAlignment));
  }
};

}  // namespace

Expected<AlignedBytes> AllocateAligned(size_t size) {
  // At least one byte, so that even an empty buffer has an owner to share.
  void* raw = ::operator new[](size ? size : 1, std::align_val_t(kConstantAlignment),
                               std::nothrow);
  if (!raw) return IoError(Cat("cannot allocate ", size, " bytes"));
  AlignedBytes bytes;
  bytes.owner = std::shared_ptr<uint8_t>(static_cast<uint8_t*>(raw), AlignedDelete());
  bytes.size = size;
  return bytes;
}

Expected<AlignedBytes> CopyAligned(const uint8_t* data, size_t size) {
  OPUC_ASSIGN_OR_RETURN(AlignedBytes bytes, AllocateAligned(size));
  if (size) std::memcpy(bytes.data(), data, size);
  return bytes;
}

}  // namespace opuc
