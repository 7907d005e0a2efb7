//===- opuc/ir/dtype.h - Element types --------------------------*- C++ -*-===//
#ifndef OPUC_IR_DTYPE_H
#define OPUC_IR_DTYPE_H

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace opuc {

/// Element type of a tensor. The numbering is part of the .opug format.
enum class DType : uint8_t {
  kF32 = 0,
  kF16 = 1,
  kI8 = 2,
  kI16 = 3,
  kI32 = 4,
  kU8 = 5,  ///< Unsigned activations of a quantized graph (docs/numerics.md §1).
};
inline constexpr int kNumDTypes = 6;

/// Size of one element in bytes.
size_t DTypeSize(DType dtype);

/// "f32", "f16", "i8", "i16", "i32", "u8".
std::string_view DTypeName(DType dtype);

/// Inverse of DTypeName; nullopt for an unknown name.
std::optional<DType> DTypeFromName(std::string_view name);

bool IsFloat(DType dtype);
bool IsInteger(DType dtype);

/// The formats of a quantized graph's activations: i8, u8 and i16
/// (docs/numerics.md §1). Their elements are integers q standing for q · 2^-f.
bool IsQuantizedFormat(DType dtype);

/// The integers a quantized format holds: i8 [-128, 127], u8 [0, 255],
/// i16 [-32768, 32767] (any other dtype reads as i8).
struct IntegerBounds {
  int64_t lo;
  int64_t hi;
};
IntegerBounds QuantizedBounds(DType format);

}  // namespace opuc

#endif  // OPUC_IR_DTYPE_H
