//===- src/cpu/reference/inner_product.h - One dispatch for the four -*- C++ -*-===//
//
// conv2d, depthwise_conv2d, transpose_conv2d and fully_connected share
// everything but their loop: on i8 the output stage of docs/numerics.md §3,
// on f32 the bias (when present, as TFLite adds it) and the fused
// activation. Each kernel passes its loop as a generic lambda
//
//   [&](auto element, auto accumulator, auto finish) {
//     return Loop<decltype(element), decltype(accumulator)>(ctx, finish);
//   }
//
// where finish(sum, o, &out) produces output element of channel o.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_CPU_REFERENCE_INNER_PRODUCT_H
#define OPUC_SRC_CPU_REFERENCE_INNER_PRODUCT_H

#include "integer_util.h"

namespace opuc::reference {

/// `weight_axis`: the output-channel axis of the weights (input 1).
template <typename Loop>
Status EvalInnerProduct(KernelContext& ctx, int weight_axis, Loop loop) {
  if (ctx.input(0)->dtype() == DType::kI8) {
    OPUC_ASSIGN_OR_RETURN(
        InnerProductStage stage,
        MakeInnerProductStage(ctx, weight_axis,
                              ctx.input(1)->shape()[static_cast<size_t>(weight_axis)]));
    return loop(int8_t{}, int64_t{},
                [&](int64_t sum, int64_t o, int8_t* y) { return stage.Finish(ctx, sum, o, y); });
  }
  OPUC_RETURN_IF_ERROR(RequireF32(ctx, 0, "input"));
  const HostTensor* bias = ctx.input(2);
  const float* b = bias ? bias->data<float>() : nullptr;
  const Activation activation = FusedActivation(ctx.attrs());
  return loop(float{}, float{}, [&](float sum, int64_t o, float* y) {
    *y = Activate(activation, b ? sum + b[o] : sum);
    return OkStatus();
  });
}

}  // namespace opuc::reference

#endif  // OPUC_SRC_CPU_REFERENCE_INNER_PRODUCT_H
