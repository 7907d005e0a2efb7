//===- src/ir/ops/elementwise_ops.cc - Elementwise ops --------------------===//
//
// Binary ops broadcast as NumPy does; unary ops keep the shape and dtype. On
// quantized graphs the unary ops run on i8 through lookup tables
// (docs/numerics.md), so i8 is accepted here.
//
//===----------------------------------------------------------------------===//
#include "ops/infer_util.h"
#include "ops/op_defs.h"
#include "support/format.h"

namespace opuc {
namespace {

Expected<std::vector<TensorType>> InferBinary(const InferContext& ctx) {
  const Tensor& lhs = *ctx.inputs[0];
  const Tensor& rhs = *ctx.inputs[1];
  OPUC_RETURN_IF_ERROR(RequireDType(lhs, "lhs", kComputeDTypes));
  OPUC_RETURN_IF_ERROR(RequireSameDType(lhs, "lhs", rhs, "rhs"));
  OPUC_ASSIGN_OR_RETURN(Shape out, BroadcastShapes(lhs.shape, rhs.shape));
  return One(lhs.dtype, std::move(out));
}

Expected<std::vector<TensorType>> InferUnary(const InferContext& ctx) {
  const Tensor& input = *ctx.inputs[0];
  OPUC_RETURN_IF_ERROR(RequireDType(input, "input", kFloatOrQuantized));
  return One(input.dtype, input.shape);
}

Expected<std::vector<TensorType>> InferPRelu(const InferContext& ctx) {
  const Tensor& input = *ctx.inputs[0];
  const Tensor& alpha = *ctx.inputs[1];
  OPUC_RETURN_IF_ERROR(RequireDType(input, "input", kFloatOrQuantized));
  OPUC_RETURN_IF_ERROR(RequireSameDType(input, "input", alpha, "alpha"));
  OPUC_ASSIGN_OR_RETURN(Shape out, BroadcastShapes(input.shape, alpha.shape));
  if (out != input.shape)
    return InvalidArgument(Cat("input 'alpha' has shape ", ShapeToString(alpha.shape),
                               "; expected a shape that broadcasts to the input's ",
                               ShapeToString(input.shape)));
  return One(input.dtype, input.shape);
}

Expected<std::vector<TensorType>> InferDequantize(const InferContext& ctx) {
  const Tensor& input = *ctx.inputs[0];
  OPUC_RETURN_IF_ERROR(
      RequireDType(input, "input", {DType::kF16, DType::kI8, DType::kU8, DType::kI16}));
  return One(DType::kF32, input.shape);
}

OpDef Binary() { return {{{"lhs"}, {"rhs"}}, {}, 1, InferBinary}; }
OpDef Unary() { return {{{"input"}}, {}, 1, InferUnary}; }

}  // namespace

OpDef DefineOpAdd() { return Binary(); }
OpDef DefineOpSub() { return Binary(); }
OpDef DefineOpMul() { return Binary(); }
OpDef DefineOpPRelu() { return {{{"input"}, {"alpha"}}, {}, 1, InferPRelu}; }

OpDef DefineOpRelu() { return Unary(); }
OpDef DefineOpRelu6() { return Unary(); }
OpDef DefineOpReluN1To1() { return Unary(); }
OpDef DefineOpHardSwish() { return Unary(); }
OpDef DefineOpSigmoid() { return Unary(); }
OpDef DefineOpTanh() { return Unary(); }
OpDef DefineOpLeakyRelu() { return {{{"input"}}, {}, 1, InferUnary}; }
OpDef DefineOpDequantize() { return {{{"input"}}, {}, 1, InferDequantize}; }

}  // namespace opuc
