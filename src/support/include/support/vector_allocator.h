//===- support/vector_allocator.h - A FlatBuffer built in a std::vector -*- C++ -*-===//
//
// FlatBufferBuilder writes downward into storage its allocator hands it;
// copying the finished buffer into a std::vector afterwards touches as many
// fresh pages again (72 MB for the largest model's program, a tenth of its
// compile on this machine: docs/decisions.md). With this allocator the
// storage is a std::vector's, and the finished buffer is moved to its front
// and handed over instead.
//
//   VectorAllocator storage;  // declared first: it outlives the builder
//   flatbuffers::FlatBufferBuilder fbb(bound, &storage);
//   ... fbb.Finish(root);
//   std::vector<uint8_t> bytes = storage.Take(fbb);
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SUPPORT_VECTOR_ALLOCATOR_H
#define OPUC_SUPPORT_VECTOR_ALLOCATOR_H

#include <flatbuffers/flatbuffers.h>

#include <cstdint>
#include <cstring>
#include <vector>

namespace opuc {

class VectorAllocator : public flatbuffers::Allocator {
 public:
  uint8_t* allocate(size_t size) override {
    previous_ = std::move(buffer_);  // a growing builder copies from it next
    buffer_.assign(size, 0);
    return buffer_.data();
  }
  void deallocate(uint8_t* p, size_t) override {
    if (p == previous_.data()) std::vector<uint8_t>().swap(previous_);
  }
  /// The builder's finished buffer, moved to the front of the storage. The
  /// builder must not be used afterwards (its destructor may still run).
  std::vector<uint8_t> Take(const flatbuffers::FlatBufferBuilder& fbb) {
    const uint8_t* data = fbb.GetBufferPointer();
    const size_t size = fbb.GetSize();
    std::memmove(buffer_.data(), data, size);
    buffer_.resize(size);
    return std::move(buffer_);
  }

 private:
  std::vector<uint8_t> buffer_, previous_;
};

}  // namespace opuc

#endif  // OPUC_SUPPORT_VECTOR_ALLOCATOR_H
