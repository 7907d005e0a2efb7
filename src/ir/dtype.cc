//===- src/ir/dtype.cc - Element types ------------------------------------===//
#include "opuc/ir/dtype.h"

#include <array>

namespace opuc {
namespace {

struct DTypeRow {
  DType dtype;
  std::string_view name;
  size_t size;
  bool is_float;
};

// Indexed by the enumerator's value.
constexpr std::array<DTypeRow, kNumDTypes> kDTypes = {{
    {DType::kF32, "f32", 4, true},
    {DType::kF16, "f16", 2, true},
    {DType::kI8, "i8", 1, false},
    {DType::kI16, "i16", 2, false},
    {DType::kI32, "i32", 4, false},
    {DType::kU8, "u8", 1, false},
}};

// An out-of-range value (a graph Verify has not seen yet) reads as this row,
// so the printer and messages can still name it.
constexpr DTypeRow kBadDType = {DType::kF32, "<bad dtype>", 0, false};

const DTypeRow& Row(DType dtype) {
  const auto index = static_cast<size_t>(dtype);
  return index < kDTypes.size() ? kDTypes[index] : kBadDType;
}

}  // namespace

size_t DTypeSize(DType dtype) { return Row(dtype).size; }
std::string_view DTypeName(DType dtype) { return Row(dtype).name; }
bool IsFloat(DType dtype) { return Row(dtype).is_float; }
bool IsInteger(DType dtype) { return !Row(dtype).is_float; }
IntegerBounds QuantizedBounds(DType format) {
  switch (format) {
    case DType::kU8: return {0, 255};
    case DType::kI16: return {-32768, 32767};
    default: return {-128, 127};
  }
}

bool IsQuantizedFormat(DType dtype) {
  return dtype == DType::kI8 || dtype == DType::kU8 || dtype == DType::kI16;
}

std::optional<DType> DTypeFromName(std::string_view name) {
  for (const DTypeRow& row : kDTypes)
    if (row.name == name) return row.dtype;
  return std::nullopt;
}

}  // namespace opuc
