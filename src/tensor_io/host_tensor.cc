//===- src/tensor_io/host_tensor.cc - Tensors in host memory ----------------===//
#include "opuc/tensor_io/host_tensor.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <new>
#include <utility>

#include "opuc/tensor_io/allocation_limit.h"
#include "opuc/tensor_io/half.h"
#include "support/format.h"

namespace opuc {
namespace {

/// NewAlignedBuffer, zero-filled; nullptr when memory runs out.
std::shared_ptr<uint8_t> AllocateZeroed(size_t size) {
  std::shared_ptr<uint8_t> bytes = NewAlignedBuffer(size);
  if (bytes) std::memset(bytes.get(), 0, size ? size : 1);
  return bytes;
}

}  // namespace

HostTensor::HostTensor() : HostTensor(DType::kF32, Shape{0}, 0) {}

HostTensor::HostTensor(DType dtype, Shape shape, int64_t elements)
    : dtype_(dtype), shape_(std::move(shape)), elements_(elements) {}

Expected<HostTensor> HostTensor::Zeros(DType dtype, Shape shape) {
  const std::optional<int64_t> elements = NumElements(shape);
  if (!elements)
    return InvalidArgument(Cat("shape ", ShapeToString(shape), " has no valid element count"));
  const auto size = static_cast<uint64_t>(*elements) * DTypeSize(dtype);
  const bool wraps = size / DTypeSize(dtype) != static_cast<uint64_t>(*elements);
  // The allocation limit first: its message says how to lift it.
  // (The description is built only for an error: every kernel's output comes here.)
  if (!wraps && size > AllocationLimit())
    return CheckAllocation(size, Cat(DTypeName(dtype), ShapeToString(shape)));
  if (wraps || size > SIZE_MAX / 2)
    return InvalidArgument(
        Cat("shape ", ShapeToString(shape), " of ", DTypeName(dtype), " does not fit in memory"));
  std::shared_ptr<uint8_t> storage = AllocateZeroed(static_cast<size_t>(size));
  if (!storage)
    return InvalidArgument(
        Cat("cannot allocate ", size, " bytes for ", DTypeName(dtype), ShapeToString(shape)));
  HostTensor tensor(dtype, std::move(shape), *elements);
  tensor.data_ = storage.get();
  tensor.owner_ = std::move(storage);
  return tensor;
}

Expected<HostTensor> HostTensor::Copy(DType dtype, Shape shape, const void* data, size_t size) {
  OPUC_ASSIGN_OR_RETURN(HostTensor tensor, Zeros(dtype, std::move(shape)));
  if (size != tensor.bytes())
    return InvalidArgument(
        Cat(size, " bytes do not fill ", DescribeType(tensor), " (", tensor.bytes(), " bytes)"));
  if (size) std::memcpy(tensor.mutable_bytes(), data, size);
  return tensor;
}

Expected<HostTensor> HostTensor::Within(HostTensor& arena, size_t offset, DType dtype,
                                        Shape shape) {
  const std::optional<int64_t> elements = NumElements(shape);
  const uint64_t size = elements ? static_cast<uint64_t>(*elements) * DTypeSize(dtype) : 0;
  if (!arena.writable_ || !arena.owner_ || offset % kConstantAlignment != 0 || !elements ||
      offset > arena.bytes() || size > arena.bytes() - offset)
    return InternalError(Cat(DTypeName(dtype), ShapeToString(shape), " at byte ", offset,
                             " does not fit an owned arena of ", arena.bytes(), " bytes"));
  HostTensor tensor(dtype, std::move(shape), *elements);
  tensor.owner_ = arena.owner_;
  tensor.data_ = arena.data_ + offset;
  if (size) std::memset(const_cast<uint8_t*>(tensor.data_), 0, static_cast<size_t>(size));
  return tensor;
}

Expected<HostTensor> HostTensor::FromConstant(const Tensor& tensor) {
  if (!tensor.constant) return InvalidArgument(Cat("tensor '", tensor.name, "' is not a constant"));
  if (tensor.sparsity)
    return InvalidArgument(
        Cat("tensor '", tensor.name, "' is a sparse constant; densify it first"));
  const std::optional<int64_t> elements = NumElements(tensor.shape);
  const ConstantData& bytes = *tensor.constant;
  if (!elements || static_cast<uint64_t>(*elements) * DTypeSize(tensor.dtype) != bytes.size())
    return InvalidArgument(Cat("tensor '", tensor.name, "' holds ", bytes.size(), " bytes; ",
                               DTypeName(tensor.dtype), ShapeToString(tensor.shape), " needs ",
                               elements.value_or(-1) * int64_t(DTypeSize(tensor.dtype))));
  if (!bytes.IsAligned(kConstantAlignment)) {
    OPUC_ASSIGN_OR_RETURN(HostTensor copy, Zeros(tensor.dtype, tensor.shape));
    if (bytes.size()) std::memcpy(copy.mutable_bytes(), bytes.data(), bytes.size());
    return copy;
  }
  HostTensor view(tensor.dtype, tensor.shape, *elements);
  // The ConstantData copy shares the owner of the bytes; keep it alive with them.
  auto keep = std::make_shared<ConstantData>(bytes);
  view.data_ = keep->data();
  view.owner_ = std::move(keep);
  view.writable_ = false;
  return view;
}

uint8_t* HostTensor::mutable_bytes() {
  if (!writable_) MakeWritable();
  return const_cast<uint8_t*>(data_);  // our own allocation
}

void HostTensor::MakeWritable() {
  std::shared_ptr<uint8_t> storage = AllocateZeroed(bytes());
  if (!storage) throw std::bad_alloc();
  if (bytes()) std::memcpy(storage.get(), data_, bytes());
  data_ = storage.get();
  owner_ = std::move(storage);
  writable_ = true;
}

ConstantData HostTensor::ToConstantData() && {
  ConstantData result = ConstantData::View(std::move(owner_), data_, bytes());
  *this = HostTensor();
  return result;
}

HostTensor::HostTensor(const HostTensor& other)
    : dtype_(other.dtype_),
      shape_(other.shape_),
      elements_(other.elements_),
      owner_(other.owner_),
      data_(other.data_),
      writable_(other.writable_) {
  // Views stay shared; owned bytes get their own copy, like std::vector. An
  // empty tensor (default or moved-from) has no storage to copy.
  if (other.writable_ && other.owner_) {
    writable_ = false;  // the bytes are still other's
    MakeWritable();
  }
}

HostTensor& HostTensor::operator=(const HostTensor& other) {
  if (this != &other) *this = HostTensor(other);
  return *this;
}

HostTensor::HostTensor(HostTensor&& other) noexcept
    : dtype_(other.dtype_),
      shape_(std::move(other.shape_)),
      elements_(other.elements_),
      owner_(std::move(other.owner_)),
      data_(other.data_),
      writable_(other.writable_) {
  other.shape_ = Shape{0};
  other.elements_ = 0;
  other.data_ = nullptr;
  other.writable_ = true;
}

HostTensor& HostTensor::operator=(HostTensor&& other) noexcept {
  if (this == &other) return *this;
  dtype_ = other.dtype_;
  shape_ = std::move(other.shape_);
  elements_ = other.elements_;
  owner_ = std::move(other.owner_);
  data_ = other.data_;
  writable_ = other.writable_;
  other.shape_ = Shape{0};
  other.elements_ = 0;
  other.data_ = nullptr;
  other.writable_ = true;
  return *this;
}

std::string DescribeType(const HostTensor& tensor) {
  return Cat(DTypeName(tensor.dtype()), ShapeToString(tensor.shape()));
}

double HostTensor::ValueAt(int64_t i) const {
  switch (dtype_) {
    case DType::kF32: return data<float>()[i];
    case DType::kF16: return HalfToFloat(data<uint16_t>()[i]);
    case DType::kI8: return data<int8_t>()[i];
    case DType::kI16: return data<int16_t>()[i];
    case DType::kI32: return data<int32_t>()[i];
    case DType::kU8: return data<uint8_t>()[i];
  }
  return 0.0;
}

}  // namespace opuc
