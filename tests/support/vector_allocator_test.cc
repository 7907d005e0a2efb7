// VectorAllocator (support/vector_allocator.h): a FlatBuffer built in a
// std::vector's storage is the same bytes the default allocator gives,
// also when the builder outgrows its first storage and reallocates.
#include <doctest/doctest.h>

#include <flatbuffers/flatbuffers.h>

#include <cstdint>
#include <string>
#include <vector>

#include "support/vector_allocator.h"

namespace opuc {
namespace {

/// A root vector of strings and a byte vector, large enough that an
/// initial size of 1 grows many times.
void Fill(flatbuffers::FlatBufferBuilder& fbb) {
  std::vector<flatbuffers::Offset<flatbuffers::String>> names;
  for (int i = 0; i < 300; ++i) names.push_back(fbb.CreateString("name " + std::to_string(i)));
  std::vector<uint8_t> bytes(5000);
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>(i * 7 + 3);
  fbb.ForceVectorAlignment(bytes.size(), 1, 16);
  const auto data = fbb.CreateVector(bytes);
  const auto list = fbb.CreateVector(names);
  const flatbuffers::uoffset_t start = fbb.StartTable();
  fbb.AddOffset(4, list);
  fbb.AddOffset(6, data);
  fbb.Finish(flatbuffers::Offset<void>(fbb.EndTable(start)));
}

TEST_CASE("vector allocator: the default allocator's bytes, grown or not") {
  flatbuffers::FlatBufferBuilder plain(1);
  Fill(plain);
  const std::vector<uint8_t> expected(plain.GetBufferPointer(),
                                      plain.GetBufferPointer() + plain.GetSize());
  for (size_t initial : {size_t{1}, size_t{1000}, expected.size(), size_t{1} << 20}) {
    CAPTURE(initial);
    VectorAllocator storage;
    std::vector<uint8_t> bytes;
    {
      flatbuffers::FlatBufferBuilder fbb(initial, &storage);
      Fill(fbb);
      bytes = storage.Take(fbb);
    }  // the builder's destructor runs after Take
    CHECK(bytes == expected);
  }
}

}  // namespace
}  // namespace opuc
