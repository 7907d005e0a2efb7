//===- src/ir/ops/infer_util.h - Shared pieces of shape inference -*- C++ -*-===//
#ifndef OPUC_SRC_IR_OPS_INFER_UTIL_H
#define OPUC_SRC_IR_OPS_INFER_UTIL_H

#include <string>
#include <string_view>
#include <vector>

#include "opuc/ir/op_attrs.h"
#include "opuc/ir/op_registry.h"

namespace opuc {

/// Errors unless `t` has exactly `rank` dimensions.
Status RequireRank(const Tensor& t, std::string_view role, size_t rank, std::string_view layout);
/// Errors unless `t` has one of the `allowed` dtypes.
Status RequireDType(const Tensor& t, std::string_view role, const std::vector<DType>& allowed);
/// Errors unless `b` has the dtype of `a`; the quantized formats (i8, u8,
/// i16) count as one, since a quantized graph mixes them (numerics.md §1).
Status RequireSameDType(const Tensor& a, std::string_view role_a, const Tensor& b,
                        std::string_view role_b);

/// Resolves a possibly negative axis against `rank`; `what` names it in errors.
Expected<size_t> ResolveAxis(int64_t axis, size_t rank, std::string_view what);

/// NumPy broadcasting of two shapes.
Expected<Shape> BroadcastShapes(const Shape& a, const Shape& b);

/// Shorthand for a single-output result.
inline Expected<std::vector<TensorType>> One(DType dtype, Shape shape) {
  return std::vector<TensorType>{TensorType{dtype, std::move(shape)}};
}

/// Float or integer tensors that ops other than dequantize accept.
extern const std::vector<DType> kComputeDTypes;
/// f32, f16 and the quantized formats: what windowed and unary ops accept.
extern const std::vector<DType> kFloatOrQuantized;

}  // namespace opuc

#endif  // OPUC_SRC_IR_OPS_INFER_UTIL_H
