//===- src/frontend/tflite_ops_elementwise.cc - Elementwise operators -----===//
//
// Binary arithmetic carries its fused activation as the IR `activation`
// attribute; unary activations map one to one (LOGISTIC is the IR sigmoid).
// DEQUANTIZE of a FLOAT16 constant and DENSIFY of a sparse constant stay
// explicit nodes: the FoldDequantize and Densify passes fold them.
//
//===----------------------------------------------------------------------===//
#include <cmath>

#include "support/format.h"
#include "tflite_import.h"

namespace opuc {
namespace {

template <typename Options>
Status Binary(OpContext& ctx, OpKind kind) {
  OPUC_RETURN_IF_ERROR(ctx.ExpectInputs(2, 2, "lhs, rhs"));
  OPUC_ASSIGN_OR_RETURN(const Options* o, ctx.Options<Options>(OptionsNeed::kOptional));
  Attributes attrs;
  if (o) {
    OPUC_ASSIGN_OR_RETURN(std::string act,
                          ActivationName(o->fused_activation_function(),
                                         "builtin_options.fused_activation_function"));
    attrs.Set("activation", std::move(act));
  }
  OPUC_ASSIGN_OR_RETURN(TensorId lhs, ctx.Input(0, "lhs"));
  OPUC_ASSIGN_OR_RETURN(TensorId rhs, ctx.Input(1, "rhs"));
  return ctx.Emit(kind, {lhs, rhs}, std::move(attrs));
}

Status Unary(OpContext& ctx, OpKind kind) {
  OPUC_RETURN_IF_ERROR(ctx.ExpectInputs(1, 1, "input"));
  OPUC_ASSIGN_OR_RETURN(TensorId in, ctx.Input(0, "input"));
  return ctx.Emit(kind, {in}, {});
}

}  // namespace

Status ConvertAdd(OpContext& ctx) { return Binary<tfl::AddOptions>(ctx, OpKind::kAdd); }
Status ConvertSub(OpContext& ctx) { return Binary<tfl::SubOptions>(ctx, OpKind::kSub); }
Status ConvertMul(OpContext& ctx) { return Binary<tfl::MulOptions>(ctx, OpKind::kMul); }

Status ConvertRelu(OpContext& ctx) { return Unary(ctx, OpKind::kRelu); }
Status ConvertRelu6(OpContext& ctx) { return Unary(ctx, OpKind::kRelu6); }
Status ConvertReluN1To1(OpContext& ctx) { return Unary(ctx, OpKind::kReluN1To1); }
Status ConvertLogistic(OpContext& ctx) { return Unary(ctx, OpKind::kSigmoid); }
Status ConvertTanh(OpContext& ctx) { return Unary(ctx, OpKind::kTanh); }
Status ConvertHardSwish(OpContext& ctx) { return Unary(ctx, OpKind::kHardSwish); }

Status ConvertPRelu(OpContext& ctx) {
  OPUC_RETURN_IF_ERROR(ctx.ExpectInputs(2, 2, "input, alpha"));
  OPUC_ASSIGN_OR_RETURN(TensorId in, ctx.Input(0, "input"));
  OPUC_ASSIGN_OR_RETURN(TensorId alpha, ctx.Input(1, "alpha"));
  return ctx.Emit(OpKind::kPRelu, {in, alpha}, {});
}

Status ConvertLeakyRelu(OpContext& ctx) {
  OPUC_RETURN_IF_ERROR(ctx.ExpectInputs(1, 1, "input"));
  OPUC_ASSIGN_OR_RETURN(const auto* o, ctx.Options<tfl::LeakyReluOptions>(OptionsNeed::kRequired));
  if (!std::isfinite(o->alpha()))
    return InvalidArgument(
        Cat("builtin_options.alpha is ", o->alpha(), "; expected a finite value"));
  OPUC_ASSIGN_OR_RETURN(TensorId in, ctx.Input(0, "input"));
  Attributes attrs;
  attrs.Set("alpha", static_cast<double>(o->alpha()));
  return ctx.Emit(OpKind::kLeakyRelu, {in}, std::move(attrs));
}

Status ConvertDequantize(OpContext& ctx) {
  OPUC_RETURN_IF_ERROR(ctx.ExpectInputs(1, 1, "input"));
  OPUC_ASSIGN_OR_RETURN(TensorId in, ctx.Input(0, "input"));
  // Quantized (INT8, UINT8) inputs were rejected with their tensor already.
  if (ctx.tensor(in).dtype != DType::kF16)
    return Unsupported(Cat("input 0 (input) is ", DTypeName(ctx.tensor(in).dtype),
                           "; opuc imports DEQUANTIZE of FLOAT16 only"));
  return ctx.Emit(OpKind::kDequantize, {in}, {});
}

Status ConvertDensify(OpContext& ctx) {
  OPUC_RETURN_IF_ERROR(ctx.ExpectInputs(1, 1, "input"));
  OPUC_ASSIGN_OR_RETURN(TensorId in, ctx.Input(0, "input"));
  if (!ctx.tensor(in).sparsity)
    return InvalidArgument(Cat("input 0 (input) tensor '", ctx.tensor(in).name,
                               "' is not a sparse constant; DENSIFY needs one"));
  return ctx.Emit(OpKind::kDensify, {in}, {});
}

}  // namespace opuc
