//===- support/fb_vector.h - Reading FlatBuffers scalar vectors -*- C++ -*-===//
#ifndef OPUC_SUPPORT_FB_VECTOR_H
#define OPUC_SUPPORT_FB_VECTOR_H

#include <flatbuffers/flatbuffers.h>

#include <cstring>
#include <type_traits>
#include <vector>

namespace opuc {

/// The elements of a verified vector of scalars (empty when absent). The
/// FlatBuffers verifier checks a vector's bounds but not that its 8-byte
/// elements are 8-byte aligned, so a corrupt file can misalign them: copy the
/// bytes rather than load through typed pointers.
template <typename T>
std::vector<T> CopyScalars(const flatbuffers::Vector<T>* v) {
  static_assert(FLATBUFFERS_LITTLEENDIAN, "opuc targets little-endian hosts only");
  static_assert(std::is_arithmetic_v<T>);
  if (!v || v->size() == 0) return {};
  std::vector<T> out(v->size());
  std::memcpy(out.data(), v->Data(), out.size() * sizeof(T));
  return out;
}

}  // namespace opuc

#endif  // OPUC_SUPPORT_FB_VECTOR_H
