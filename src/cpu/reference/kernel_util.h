//===- src/cpu/reference/kernel_util.h - Shared pieces of kernels -*- C++ -*-===//
//
// Fused activations, window padding as TFLite computes it, NHWC indexing, the
// pooling windows, and the loop shared by the unary elementwise kernels.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_CPU_REFERENCE_KERNEL_UTIL_H
#define OPUC_SRC_CPU_REFERENCE_KERNEL_UTIL_H

#include <algorithm>
#include <cstdint>
#include <string_view>

#include "kernel.h"

namespace opuc::reference {

/// The `activation` attribute of compute ops.
enum class Activation { kNone, kRelu, kReluN1To1, kRelu6, kTanh };

/// Reads the node's `activation` attribute (validated by the registry).
Activation GetActivation(const Attributes& attrs);

/// none: x; relu: max(x, 0); relu_n1_to_1: min(max(x, -1), 1);
/// relu6: min(max(x, 0), 6); tanh: tanh(x). The clamps are TFLite's
/// ActivationFunctionWithMinMax: std::min(std::max(x, lo), hi).
float Activate(Activation activation, float x);

/// Padding before the first element along one spatial axis, as TFLite's
/// ComputePaddingWithOffset: with eff = (k - 1)·d + 1,
/// total = max((out - 1)·stride + eff - in, 0), and the front gets total / 2
/// (the odd element goes to the back). VALID windows never need padding, so
/// the same formula gives 0 for them.
int64_t PaddingBefore(int64_t in, int64_t out, int64_t stride, int64_t kernel, int64_t dilation);

/// Element offset of [n,h,w,c] in an NHWC tensor of `shape`.
inline int64_t Nhwc(const Shape& shape, int64_t n, int64_t h, int64_t w, int64_t c) {
  return ((n * shape[1] + h) * shape[2] + w) * shape[3] + c;
}

/// One output position of a pooling window over an NHWC input: the input rows
/// [y_begin, y_end) and columns [x_begin, x_end) that the window covers
/// inside the input (padding is never a value).
struct PoolWindow {
  int64_t n, y, x;
  int64_t y_begin, y_end, x_begin, x_end;
};

/// Calls fn(window) for every output position of a max/avg pool node (its
/// `filter` and `strides`, TFLite's padding), n, then y, then x; stops at
/// the first error fn returns.
template <typename Fn>
Status ForEachPoolWindow(const KernelContext& ctx, const Shape& is, const Shape& os, Fn fn) {
  const auto filter = ctx.attrs().GetInts("filter");
  const auto strides = ctx.attrs().GetInts("strides");
  const int64_t pad_h = PaddingBefore(is[1], os[1], strides[0], filter[0], 1);
  const int64_t pad_w = PaddingBefore(is[2], os[2], strides[1], filter[1], 1);
  for (int64_t n = 0; n < os[0]; ++n) {
    for (int64_t y = 0; y < os[1]; ++y) {
      const int64_t y0 = y * strides[0] - pad_h;
      for (int64_t x = 0; x < os[2]; ++x) {
        const int64_t x0 = x * strides[1] - pad_w;
        const PoolWindow window{n,  y, x, y0 < 0 ? 0 : y0, std::min(y0 + filter[0], is[1]),
                                x0 < 0 ? 0 : x0, std::min(x0 + filter[1], is[2])};
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
