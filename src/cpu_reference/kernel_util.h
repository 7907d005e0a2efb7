//===- src/cpu_reference/kernel_util.h - Shared pieces of kernels -*- C++ -*-===//
//
// Fused activations, the pooling windows (opuc/ir/conv_geometry.h gives
// padding and NHWC offsets), and the loop shared by the unary elementwise
// kernels.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_CPU_REFERENCE_KERNEL_UTIL_H
#define OPUC_SRC_CPU_REFERENCE_KERNEL_UTIL_H

#include <algorithm>
#include <cstdint>
#include <string_view>

#include "kernel.h"
#include "opuc/ir/conv_geometry.h"
#include "opuc/ir/op_attrs.h"

namespace opuc::reference {

/// none: x; relu: max(x, 0); relu_n1_to_1: min(max(x, -1), 1);
/// relu6: min(max(x, 0), 6); tanh: tanh(x). The clamps are TFLite's
/// ActivationFunctionWithMinMax: std::min(std::max(x, lo), hi).
float Activate(Activation activation, float x);

/// One output position of a pooling window over an NHWC input: the input rows
/// [y_begin, y_end) and columns [x_begin, x_end) that the window covers
/// inside the input (padding is never a value).
struct PoolWindow {
  int64_t n, y, x;
  int64_t y_begin, y_end, x_begin, x_end;
};

/// Calls fn(window) for every output position of a max/avg pool node (`a`:
/// its filter and strides, TFLite's padding), n, then y, then x; stops at
/// the first error fn returns.
template <typename PoolAttrs, typename Fn>
Status ForEachPoolWindow(const PoolAttrs& a, const Shape& is, const Shape& os, Fn fn) {
  const Pair filter = a.filter;
  const WindowGeometry g = WindowOf(a.strides, Pair{1, 1}, is, os, filter[0], filter[1]);
  for (int64_t n = 0; n < os[0]; ++n) {
    for (int64_t y = 0; y < os[1]; ++y) {
      const int64_t y0 = g.h.At(y, 0);
      for (int64_t x = 0; x < os[2]; ++x) {
        const int64_t x0 = g.w.At(x, 0);
        const PoolWindow window{n,
                                y,
                                x,
                                y0 < 0 ? 0 : y0,
                                std::min(y0 + filter[0], is[1]),
                                x0 < 0 ? 0 : x0,
                                std::min(x0 + filter[1], is[2])};
        OPUC_RETURN_IF_ERROR(fn(window));
      }
    }
  }
  return OkStatus();
}

/// Unsupported unless input `i` is present with dtype f32.
Status RequireF32(const KernelContext& ctx, size_t i, std::string_view role);

/// output[i] = fn(input[i]) over an f32 input 0.
template <typename Fn>
Status UnaryF32(KernelContext& ctx, Fn fn) {
  OPUC_RETURN_IF_ERROR(RequireF32(ctx, 0, "input"));
  OPUC_ASSIGN_OR_RETURN(HostTensor * out, ctx.AllocateOutput());
  const float* x = ctx.input(0)->data<float>();
  float* y = out->data<float>();
  for (int64_t i = 0; i < out->elements(); ++i) y[i] = fn(x[i]);
  return OkStatus();
}

}  // namespace opuc::reference

#endif  // OPUC_SRC_CPU_REFERENCE_KERNEL_UTIL_H
