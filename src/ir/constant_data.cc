//===- src/ir/constant_data.cc - Constant bytes, shared or viewed ---------===//
#include "opuc/ir/constant_data.h"

#include <cstring>
#include <new>

namespace opuc {
namespace {

struct AlignedDelete {
  void operator()(uint8_t* p) const {
    ::operator delete[](p, std::align_val_t(kConstantAlignment));
  }
};

}  // namespace

std::shared_ptr<uint8_t> NewAlignedBuffer(size_t size) {
  void* raw = ::operator new[](size ? size : 1, std::align_val_t(kConstantAlignment), std::nothrow);
  if (!raw) return nullptr;
  return std::shared_ptr<uint8_t>(static_cast<uint8_t*>(raw), AlignedDelete());
}

ConstantData ConstantData::Copy(const void* data, size_t size) {
  std::shared_ptr<uint8_t> owner = NewAlignedBuffer(size);
  if (!owner) throw std::bad_alloc();
  if (size) std::memcpy(owner.get(), data, size);
  ConstantData result;
  result.data_ = owner.get();
  result.size_ = size;
  result.owner_ = std::move(owner);
  return result;
}

ConstantData ConstantData::View(std::shared_ptr<const void> owner, const void* data, size_t size) {
  ConstantData result;
  result.owner_ = std::move(owner);
  result.data_ = static_cast<const uint8_t*>(data);
  result.size_ = size;
  return result;
}

bool ConstantData::SameBytes(const ConstantData& other) const {
  if (size_ != other.size_) return false;
  return size_ == 0 || std::memcmp(data_, other.data_, size_) == 0;
}

}  // namespace opuc
