//===- src/ir/ops/quant_ops.cc - Ops of quantized graphs ------------------===//
//
// quantize turns an f32 tensor into i8 at the output tensor's fixed point
// (docs/numerics.md §7); lookup_table is what every unary op on i8 becomes:
// y = table[q + 128] with a 256-entry i8 table, normally a constant (§6).
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

Expected<std::vector<TensorType>> InferLookupTable(const InferContext& ctx) {
  const Tensor& input = *ctx.inputs[0];
  const Tensor& table = *ctx.inputs[1];
  OPUC_RETURN_IF_ERROR(RequireDType(input, "input", {DType::kI8}));
  OPUC_RETURN_IF_ERROR(RequireDType(table, "table", {DType::kI8}));
  if (table.shape != Shape{256})
    return InvalidArgument(Cat("input 'table' (tensor '", table.name, "') has shape ",
                               ShapeToString(table.shape),
                               "; expected [256] (one entry per int8 value)"));
  return One(DType::kI8, input.shape);
}

}  // namespace

OpDef DefineOpQuantize() { return {{{"input"}}, {}, 1, InferQuantize}; }
OpDef DefineOpLookupTable() { return {{{"input"}, {"table"}}, {}, 1, InferLookupTable}; }

}  // namespace opuc
