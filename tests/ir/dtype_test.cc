// Element types (dtype.h). The numbering is part of the .opug format.
#include "opuc/ir/dtype.h"

#include <doctest/doctest.h>

namespace opuc {
namespace {

TEST_CASE("dtype values, names and sizes") {
  CHECK(kNumDTypes == 6);
  CHECK(static_cast<int>(DType::kF32) == 0);
  CHECK(static_cast<int>(DType::kF16) == 1);
  CHECK(static_cast<int>(DType::kI8) == 2);
  CHECK(static_cast<int>(DType::kI16) == 3);
  CHECK(static_cast<int>(DType::kI32) == 4);
  CHECK(static_cast<int>(DType::kU8) == 5);

  CHECK(DTypeName(DType::kF32) == "f32");
  CHECK(DTypeName(DType::kF16) == "f16");
  CHECK(DTypeName(DType::kI8) == "i8");
  CHECK(DTypeName(DType::kI16) == "i16");
  CHECK(DTypeName(DType::kI32) == "i32");
  CHECK(DTypeName(DType::kU8) == "u8");

  CHECK(DTypeSize(DType::kF32) == 4);
  CHECK(DTypeSize(DType::kF16) == 2);
  CHECK(DTypeSize(DType::kI8) == 1);
  CHECK(DTypeSize(DType::kI16) == 2);
  CHECK(DTypeSize(DType::kI32) == 4);
  CHECK(DTypeSize(DType::kU8) == 1);

  CHECK(IsFloat(DType::kF32));
  CHECK(IsFloat(DType::kF16));
  CHECK(IsInteger(DType::kI8));
  CHECK(IsInteger(DType::kI16));
  CHECK(IsInteger(DType::kI32));
  CHECK_FALSE(IsFloat(DType::kI8));
  CHECK_FALSE(IsInteger(DType::kF32));
  CHECK(IsInteger(DType::kU8));

  // The formats of quantized activations (numerics.md §1).
  CHECK(IsQuantizedFormat(DType::kI8));
  CHECK(IsQuantizedFormat(DType::kU8));
  CHECK(IsQuantizedFormat(DType::kI16));
  CHECK_FALSE(IsQuantizedFormat(DType::kI32));
  CHECK_FALSE(IsQuantizedFormat(DType::kF32));
  CHECK_FALSE(IsQuantizedFormat(DType::kF16));
}

TEST_CASE("DTypeFromName inverts DTypeName - unknown names give nullopt") {
  for (int i = 0; i < kNumDTypes; ++i) {
    const auto dtype = static_cast<DType>(i);
    CHECK(DTypeFromName(DTypeName(dtype)) == dtype);
  }
  CHECK(DTypeFromName("i8") == DType::kI8);
  CHECK_FALSE(DTypeFromName("F32").has_value());
  CHECK_FALSE(DTypeFromName("f64").has_value());
  CHECK_FALSE(DTypeFromName("float32").has_value());
  CHECK_FALSE(DTypeFromName("").has_value());
}

TEST_CASE("an out-of-range dtype has a printable name") {
  CHECK(DTypeName(static_cast<DType>(9)) == "<bad dtype>");
}

}  // namespace
}  // namespace opuc
