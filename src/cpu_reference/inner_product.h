//===- src/cpu_reference/inner_product.h - One dispatch for the four -*- C++ -*-===//
//
// conv2d, depthwise_conv2d, transpose_conv2d and fully_connected share
// everything but their loop: on a quantized input (i8, u8 or i16; weights
// i8) the exact int64 sum and the output stage of docs/numerics.md §2–§3,
// on f32 the bias (when present, as TFLite adds it) and the fused
// activation. Each kernel passes its loop as a generic lambda
//
//   [&](auto in, auto weight, auto accumulator, auto finish) {
//     return Loop<decltype(in), decltype(weight), decltype(accumulator)>(ctx, finish);
//   }
//
// where finish(sum, o, out, index) writes element `index` of *out (output
// channel o). An i16 input is summed directly: the identity
// Σ q·w = 256·Σ high·w + Σ low·w (SplitInt16) makes that equal to the two
// 8-bit passes the OPU's array runs.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_CPU_REFERENCE_INNER_PRODUCT_H
#define OPUC_SRC_CPU_REFERENCE_INNER_PRODUCT_H

#include "integer_util.h"

namespace opuc::reference {

/// `weight_axis`: the output-channel axis of the weights (input 1).
template <typename Loop>
Status EvalInnerProduct(KernelContext& ctx, int weight_axis, Loop loop) {
  if (IsQuantizedInput(ctx)) {
    OPUC_ASSIGN_OR_RETURN(
        InnerProductStage stage,
        MakeInnerProductStage(ctx, weight_axis,
                              ctx.input(1)->shape()[static_cast<size_t>(weight_axis)]));
    const auto finish = [&](int64_t sum, int64_t o, HostTensor* out, int64_t index) -> Status {
      OPUC_ASSIGN_OR_RETURN(int64_t y, stage.Finish(ctx, sum, o));
      IntWriter(out).Set(index, y);
      return OkStatus();
    };
    return VisitFormat(ctx.input(0)->dtype(),
                       [&](auto in) { return loop(in, int8_t{}, int64_t{}, finish); });
  }
  OPUC_RETURN_IF_ERROR(RequireF32(ctx, 0, "input"));
  const HostTensor* bias = ctx.input(2);
  const float* b = bias ? bias->data<float>() : nullptr;
  const Activation activation = FusedActivation(ctx.attrs());
  return loop(float{}, float{}, float{}, [&](float sum, int64_t o, HostTensor* out, int64_t index) {
    out->data<float>()[index] = Activate(activation, b ? sum + b[o] : sum);
    return OkStatus();
  });
}

}  // namespace opuc::reference

#endif  // OPUC_SRC_CPU_REFERENCE_INNER_PRODUCT_H
