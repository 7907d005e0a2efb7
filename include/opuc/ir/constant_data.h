//===- opuc/ir/constant_data.h - Constant bytes, shared or viewed -*- C++ -*-===//
//
// A constant's bytes are either an aligned copy that the graph owns or a view
// into a buffer that someone else loaded (a .tflite or .opug file read once),
// kept alive by a shared owner. Copying a Graph never copies weights.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_IR_CONSTANT_DATA_H
#define OPUC_IR_CONSTANT_DATA_H

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <memory>

// Constant bytes are little-endian in every format opuc reads (.opug, .tflite:
// FlatBuffers), and As<T>() reads them in place, so opuc supports
// little-endian targets only. CMake refuses a big-endian target too.
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "opuc reads little-endian data in place and supports only little-endian targets"
#endif

namespace opuc {

/// Alignment of the buffers opuc allocates for constants; also the alignment
/// the .opug format gives constant data, so it can be read in place.
inline constexpr size_t kConstantAlignment = 16;

/// A new buffer of `size` bytes (at least one is allocated, so that even an
/// empty buffer has an owner to share), its start aligned to
/// kConstantAlignment, uninitialised; nullptr when memory runs out. Every
/// aligned buffer opuc allocates comes from here.
std::shared_ptr<uint8_t> NewAlignedBuffer(size_t size);

class ConstantData {
 public:
  ConstantData() = default;

  /// Copies `size` bytes into a new buffer aligned to kConstantAlignment;
  /// throws std::bad_alloc when memory runs out, as copying a std::vector
  /// would (the constant exists already: its size comes from no file).
  static ConstantData Copy(const void* data, size_t size);

  /// Views `size` bytes at `data` without copying; `owner` keeps them alive.
  static ConstantData View(std::shared_ptr<const void> owner, const void* data, size_t size);

  const uint8_t* data() const { return data_; }
  size_t size() const { return size_; }

  /// Typed view; the caller checks the dtype and the alignment first (a
  /// misaligned load faults on some targets, e.g. floats on 32-bit ARM).
  template <typename T>
  const T* As() const {
    assert(IsAligned(alignof(T)) && "ConstantData::As<T>: data not aligned for T");
    return reinterpret_cast<const T*>(data_);
  }

  /// Whether the bytes start on an `alignment`-byte boundary.
  bool IsAligned(size_t alignment) const {
    return reinterpret_cast<uintptr_t>(data_) % alignment == 0;
  }

  /// Byte-wise equality (not identity).
  bool SameBytes(const ConstantData& other) const;

 private:
  std::shared_ptr<const void> owner_;
  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace opuc

#endif  // OPUC_IR_CONSTANT_DATA_H
