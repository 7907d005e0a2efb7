//===- opuc/tensor_io/host_tensor.h - Tensors in host memory ------*- C++ -*-===//
//
// A HostTensor is a dtype, a shape and the bytes of its elements in C order,
// in storage aligned to kConstantAlignment (16 bytes). The storage is either
// owned (Zeros, Copy; or a slice of an owned tensor, Within) or a read-only
// view of a graph constant (FromConstant), so constants reach the executors
// without a copy. Copying a HostTensor copies owned bytes, like std::vector;
// moving it never does. Writing to a view first gives it its own copy, so a
// constant is never modified.
//
// Zeros and Copy report a shape that cannot be held as an error: shapes come
// from files, and a huge one must not end the process. Copying an existing
// tensor (the copy constructor, or writing to a view) is like copying a
// std::vector: when memory runs out it throws std::bad_alloc, the one
// exception the library lets through (docs/decisions.md).
//
//   HostTensor x = HostTensor::Zeros(DType::kF32, {1, 4, 4, 3}).value();
//   x.data<float>()[0] = 1.0f;
//   ConstantData bytes = std::move(x).ToConstantData();  // no copy
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_TENSOR_IO_HOST_TENSOR_H
#define OPUC_TENSOR_IO_HOST_TENSOR_H

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>

#include "opuc/ir/constant_data.h"
#include "opuc/ir/dtype.h"
#include "opuc/ir/shape.h"
#include "opuc/ir/tensor.h"
#include "opuc/status.h"

namespace opuc {

/// The C++ element type of each dtype (f16 as its raw bits).
template <typename T>
constexpr bool IsElementOf(DType dtype) {
  switch (dtype) {
    case DType::kF32: return std::is_same_v<T, float>;
    case DType::kF16: return std::is_same_v<T, uint16_t>;
    case DType::kI8: return std::is_same_v<T, int8_t>;
    case DType::kI16: return std::is_same_v<T, int16_t>;
    case DType::kI32: return std::is_same_v<T, int32_t>;
    case DType::kU8: return std::is_same_v<T, uint8_t>;
  }
  return false;
}

class HostTensor {
 public:
  /// An f32 tensor of shape [0]: no elements, no storage.
  HostTensor();

  /// A zero-filled tensor; an invalid shape or a failed allocation is an
  /// error (shapes come from files: a huge one must not end the process).
  static Expected<HostTensor> Zeros(DType dtype, Shape shape);

  /// A tensor holding a copy of `size` bytes; an error when `size` is not
  /// elements × dtype size, or as Zeros.
  static Expected<HostTensor> Copy(DType dtype, Shape shape, const void* data, size_t size);

  /// The value of a dense constant: a view of its bytes when they are aligned
  /// to kConstantAlignment, an aligned copy otherwise. Errors name the tensor
  /// when it is not a constant, is sparse, or holds the wrong number of bytes.
  static Expected<HostTensor> FromConstant(const Tensor& tensor);

  /// A zero-filled tensor in the bytes of `arena` (an owned tensor) from
  /// `offset`, a multiple of kConstantAlignment: one allocation serving many
  /// tensors (the CPU executor's arena). It writes into the arena's bytes
  /// and keeps them alive; copying it copies its bytes, as for any owned
  /// tensor. An error when the tensor does not fit or `arena` is a view.
  static Expected<HostTensor> Within(HostTensor& arena, size_t offset, DType dtype, Shape shape);

  DType dtype() const { return dtype_; }
  const Shape& shape() const { return shape_; }
  TensorType type() const { return {dtype_, shape_}; }
  int64_t elements() const { return elements_; }
  size_t bytes() const { return static_cast<size_t>(elements_) * DTypeSize(dtype_); }
  /// Whether the bytes belong to someone else (a graph constant).
  bool is_view() const { return !writable_; }

  /// Typed access; T must be the dtype's element type (uint16_t for f16).
  /// The non-const form gives a view its own copy first.
  template <typename T>
  T* data() {
    assert(IsElementOf<T>(dtype_) && "HostTensor::data<T>() with the wrong element type");
    return reinterpret_cast<T*>(mutable_bytes());
  }
  template <typename T>
  const T* data() const {
    assert(IsElementOf<T>(dtype_) && "HostTensor::data<T>() with the wrong element type");
    return reinterpret_cast<const T*>(data_);
  }
  const uint8_t* raw() const { return data_; }
  uint8_t* mutable_bytes();
  /// Element i (row-major) as a double, whatever the dtype (reports, diffs).
  double ValueAt(int64_t i) const;

  /// Hands the storage to a constant without copying it (a view stays a
  /// view of the same owner). The tensor is left empty.
  ConstantData ToConstantData() &&;

  HostTensor(const HostTensor& other);
  HostTensor& operator=(const HostTensor& other);
  HostTensor(HostTensor&& other) noexcept;
  HostTensor& operator=(HostTensor&& other) noexcept;
  ~HostTensor() = default;

 private:
  HostTensor(DType dtype, Shape shape, int64_t elements);
  void MakeWritable();

  DType dtype_ = DType::kF32;
  Shape shape_;
  int64_t elements_ = 0;
  std::shared_ptr<const void> owner_;  ///< Keeps data_ alive.
  const uint8_t* data_ = nullptr;      ///< Aligned to kConstantAlignment.
  bool writable_ = true;               ///< False for views of constants.
};

/// "f32[1,4,4,3]".
std::string DescribeType(const HostTensor& tensor);

}  // namespace opuc

#endif  // OPUC_TENSOR_IO_HOST_TENSOR_H
