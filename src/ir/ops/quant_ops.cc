//===- src/ir/ops/quant_ops.cc - Ops of quantized graphs ------------------===//
//
// quantize turns an f32 tensor into a quantized format at the output
// tensor's fixed point (docs/numerics.md §7; i8 unless the output declares
// u8 or i16). lookup_table is what every unary op on a quantized input
// becomes (§6): a 256-entry table for an 8-bit input, 257 knots for an i16
// one; the table's format is the output's.
//
//===----------------------------------------------------------------------===//
#include "ops/infer_util.h"
#include "ops/op_defs.h"
#include "support/format.h"

namespace opuc {
namespace {

Expected<std::vector<TensorType>> InferQuantize(const InferContext& ctx) {
  const Tensor& input = *ctx.inputs[0];
  OPUC_RETURN_IF_ERROR(RequireDType(input, "input", {DType::kF32}));
  return One(DType::kI8, input.shape);
}

const std::vector<DType> kQuantizedFormats = {DType::kI8, DType::kU8, DType::kI16};

Expected<std::vector<TensorType>> InferLookupTable(const InferContext& ctx) {
  const Tensor& input = *ctx.inputs[0];
  const Tensor& table = *ctx.inputs[1];
  OPUC_RETURN_IF_ERROR(RequireDType(input, "input", kQuantizedFormats));
  OPUC_RETURN_IF_ERROR(RequireDType(table, "table", kQuantizedFormats));
  const int64_t entries = input.dtype == DType::kI16 ? 257 : 256;
  if (table.shape != Shape{entries})
    return InvalidArgument(Cat("input 'table' (tensor '", table.name, "') has shape ",
                               ShapeToString(table.shape), "; expected [", entries, "] (",
                               entries == 256 ? "one entry per 8-bit value"
                                              : "one knot per high byte of an i16, and the end",
                               ")"));
  return One(table.dtype, input.shape);
}

}  // namespace

OpDef DefineOpQuantize() { return {{{"input"}}, {}, 1, InferQuantize}; }
OpDef DefineOpLookupTable() { return {{{"input"}, {"table"}}, {}, 1, InferLookupTable}; }

}  // namespace opuc
