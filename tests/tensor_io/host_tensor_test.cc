// HostTensor: aligned zeroed storage, views of constants, copy and move
// semantics, and handing storage to a constant without a copy.
#include "opuc/tensor_io/host_tensor.h"

#include "opuc/tensor_io/allocation_limit.h"

#include <doctest/doctest.h>

#include <cstring>
#include <vector>

namespace opuc {
namespace {

bool Aligned(const void* p) { return reinterpret_cast<uintptr_t>(p) % kConstantAlignment == 0; }

Tensor Constant(const std::string& name, DType dtype, Shape shape, ConstantData data) {
  Tensor t;
  t.name = name;
  t.dtype = dtype;
  t.shape = std::move(shape);
  t.constant = std::move(data);
  return t;
}

TEST_CASE("Zeros allocates aligned, zero-filled storage") {
  HostTensor t = HostTensor::Zeros(DType::kI16, {2, 3}).value();
  CHECK(t.dtype() == DType::kI16);
  CHECK(t.shape() == Shape{2, 3});
  CHECK(t.elements() == 6);
  CHECK(t.bytes() == 12);
  CHECK_FALSE(t.is_view());
  CHECK(Aligned(t.raw()));
  for (int i = 0; i < 6; ++i) CHECK(t.data<int16_t>()[i] == 0);
  HostTensor scalar = HostTensor::Zeros(DType::kF32, {}).value();
  CHECK(scalar.elements() == 1);
  HostTensor empty = HostTensor::Zeros(DType::kF32, {0, 4}).value();
  CHECK(empty.elements() == 0);
  CHECK(empty.bytes() == 0);
}

TEST_CASE("Zeros reports shapes it cannot hold") {
  CHECK_FALSE(HostTensor::Zeros(DType::kF32, {-1}).ok());
  Expected<HostTensor> huge = HostTensor::Zeros(DType::kF32, {kMaxExtent, kMaxExtent, 4});
  REQUIRE_FALSE(huge.ok());
  CHECK(huge.status().code() == StatusCode::kInvalidArgument);
}

TEST_CASE("Zeros refuses a tensor over the allocation limit before allocating it") {
  const uint64_t before = AllocationLimit();
  CHECK(before == uint64_t{1} << 30);
  // 16 GiB of f32, as a hostile file declares: refused at once, not attempted.
  Expected<HostTensor> big = HostTensor::Zeros(DType::kF32, {1, 65536, 65536});
  REQUIRE_FALSE(big.ok());
  CHECK(big.status().message() ==
        "f32[1,65536,65536] needs 17179869184 bytes (16 GiB), more than the 1 GiB opuc allocates"
        " for one buffer (opuc --max-buffer-bytes lifts it)");
  SetAllocationLimit(2048);
  CHECK(HostTensor::Zeros(DType::kF32, {512}).ok());  // 2048 bytes: at the limit
  Expected<HostTensor> over = HostTensor::Zeros(DType::kI16, {1025});
  REQUIRE_FALSE(over.ok());
  CHECK(over.status().message() ==
        "i16[1025] needs 2050 bytes (2.0 KiB), more than the 2 KiB opuc allocates for one"
        " buffer (opuc --max-buffer-bytes lifts it)");
  SetAllocationLimit(100);
  CHECK(HostTensor::Zeros(DType::kU8, {101}).status().message() ==
        "u8[101] needs 101 bytes, more than the 100 bytes opuc allocates for one buffer (opuc"
        " --max-buffer-bytes lifts it)");
  SetAllocationLimit(before);
}

TEST_CASE("Within places a zero-filled tensor in an arena's bytes") {
  HostTensor arena = HostTensor::Zeros(DType::kI8, {128}).value();
  std::memset(arena.mutable_bytes(), 0x5a, 128);
  HostTensor t = HostTensor::Within(arena, 64, DType::kF32, {2, 4}).value();
  CHECK(t.raw() == arena.raw() + 64);
  CHECK_FALSE(t.is_view());
  for (int i = 0; i < 8; ++i) CHECK(t.data<float>()[i] == 0.0f);  // zero-filled
  CHECK(arena.raw()[63] == 0x5a);                                 // and nothing before
  t.data<float>()[0] = 1.0f;                                      // writes land in the arena
  float first = 0;
  std::memcpy(&first, arena.raw() + 64, sizeof first);
  CHECK(first == 1.0f);
  HostTensor copy = t;  // a copy is its own
  CHECK(copy.raw() != t.raw());
  CHECK(copy.data<float>()[0] == 1.0f);
  // It keeps the arena's bytes alive.
  const uint8_t* where = t.raw();
  arena = HostTensor();
  CHECK(t.raw() == where);
  CHECK(t.data<float>()[0] == 1.0f);

  HostTensor small = HostTensor::Zeros(DType::kI8, {64}).value();
  CHECK(HostTensor::Within(small, 32, DType::kF32, {8}).ok());        // to the last byte
  CHECK_FALSE(HostTensor::Within(small, 32, DType::kF32, {9}).ok());  // past it
  CHECK_FALSE(HostTensor::Within(small, 8, DType::kI8, {4}).ok());    // misaligned
  CHECK_FALSE(HostTensor::Within(small, 64, DType::kF32, {1}).ok());
  CHECK(HostTensor::Within(small, 64, DType::kF32, {0}).ok());  // empty, at the end
}

TEST_CASE("FromConstant views aligned constant bytes without copying") {
  const float values[4] = {1, 2, 3, 4};
  Tensor c = Constant("w", DType::kF32, {2, 2}, ConstantData::Copy(values, sizeof values));
  Expected<HostTensor> t = HostTensor::FromConstant(c);
  REQUIRE(t.ok());
  CHECK(t->is_view());
  CHECK(t->raw() == c.constant->data());
  // The view keeps the bytes alive after the tensor that held them is gone.
  c.constant.reset();
  CHECK(t->data<float>()[3] == 4.0f);
  // Writing gives the view its own copy; the constant is never modified.
  HostTensor w = *t;
  w.data<float>()[0] = 9.0f;
  CHECK_FALSE(w.is_view());
  CHECK(t->data<float>()[0] == 1.0f);
}

TEST_CASE("FromConstant copies misaligned bytes into aligned storage") {
  auto buffer = std::make_shared<std::vector<uint8_t>>(64, 0);
  const float two = 2.0f;
  std::memcpy(buffer->data() + 20, &two, 4);
  Tensor c = Constant("odd", DType::kF32, {1}, ConstantData::View(buffer, buffer->data() + 20, 4));
  REQUIRE_FALSE(c.constant->IsAligned(kConstantAlignment));
  Expected<HostTensor> t = HostTensor::FromConstant(c);
  REQUIRE(t.ok());
  CHECK_FALSE(t->is_view());
  CHECK(Aligned(t->raw()));
  CHECK(t->data<float>()[0] == 2.0f);
}

TEST_CASE("FromConstant names the tensor it refuses") {
  Tensor not_constant;
  not_constant.name = "x";
  CHECK(HostTensor::FromConstant(not_constant).status().message() ==
        "tensor 'x' is not a constant");
  Tensor wrong = Constant("w", DType::kF32, {3}, ConstantData::Copy("abcd", 4));
  CHECK(HostTensor::FromConstant(wrong).status().message() ==
        "tensor 'w' holds 4 bytes; f32[3] needs 12");
  Tensor sparse = Constant("s", DType::kF32, {4}, ConstantData::Copy("abcd", 4));
  sparse.sparsity = Sparsity{};
  CHECK(HostTensor::FromConstant(sparse).status().message() ==
        "tensor 's' is a sparse constant; densify it first");
}

TEST_CASE("copies are deep for owned storage, moves are not copies") {
  HostTensor a = HostTensor::Zeros(DType::kF32, {3}).value();
  a.data<float>()[1] = 5.0f;
  HostTensor b = a;
  CHECK(b.raw() != a.raw());
  b.data<float>()[1] = 6.0f;
  CHECK(a.data<float>()[1] == 5.0f);
  const uint8_t* storage = a.raw();
  HostTensor c = std::move(a);
  CHECK(c.raw() == storage);
  CHECK(c.data<float>()[1] == 5.0f);
}

TEST_CASE("an empty tensor copies without storage") {
  HostTensor empty;
  CHECK(empty.elements() == 0);
  CHECK(empty.shape() == Shape{0});
  HostTensor copy = empty;
  CHECK(copy.raw() == nullptr);
  CHECK_FALSE(copy.is_view());
}

TEST_CASE("ToConstantData hands the storage over without copying") {
  HostTensor t = HostTensor::Zeros(DType::kI32, {2}).value();
  t.data<int32_t>()[0] = 42;
  const uint8_t* storage = t.raw();
  ConstantData data = std::move(t).ToConstantData();
  CHECK(data.data() == storage);
  CHECK(data.size() == 8);
  CHECK(data.As<int32_t>()[0] == 42);
  CHECK(data.IsAligned(kConstantAlignment));
}

TEST_CASE("Copy fills a tensor from bytes") {
  const int8_t bytes[3] = {-1, 0, 7};
  HostTensor t = HostTensor::Copy(DType::kI8, {3}, bytes, 3).value();
  CHECK(t.data<int8_t>()[0] == -1);
  CHECK(t.data<int8_t>()[2] == 7);
  CHECK(DescribeType(t) == "i8[3]");
  Expected<HostTensor> short_copy = HostTensor::Copy(DType::kI16, {3}, bytes, 3);
  REQUIRE_FALSE(short_copy.ok());
  CHECK(short_copy.status().message() == "3 bytes do not fill i16[3] (6 bytes)");
}

}  // namespace
}  // namespace opuc
