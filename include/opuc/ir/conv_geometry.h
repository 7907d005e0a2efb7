//===- opuc/ir/conv_geometry.h - Windows over NHWC tensors --------*- C++ -*-===//
//
// Where a convolution's or a pool's window reads, computed one way for shape
// inference, the reference kernels, the quantizer and (later) codegen:
// TFLite's output extents and padding, and NHWC element offsets.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_IR_CONV_GEOMETRY_H
#define OPUC_IR_CONV_GEOMETRY_H

#include <cstdint>
#include <string_view>

#include "opuc/ir/op_attrs.h"
#include "opuc/ir/shape.h"
#include "opuc/status.h"

namespace opuc {

/// A window's walk along one spatial axis.
struct WindowAxis {
  int64_t kernel = 1, stride = 1, dilation = 1;
  int64_t pad_before = 0;  ///< Padding elements before the first input element.

  /// The input index that tap `k` of output position `o` reads; outside
  /// [0, input extent) it reads padding.
  int64_t At(int64_t o, int64_t k) const { return o * stride - pad_before + k * dilation; }
};

/// Height and width of a windowed op.
struct WindowGeometry {
  WindowAxis h, w;
};

/// Output extent along one axis, as TFLite: same padding gives ceil(input /
/// stride); valid padding gives (input - eff) / stride + 1 with eff = (kernel - 1)
/// · dilation + 1, an error naming `axis` when the window does not fit.
Expected<int64_t> WindowOutputExtent(int64_t input, int64_t kernel, int64_t stride,
                                     int64_t dilation, Padding padding, std::string_view axis);

/// Padding before the first element, as TFLite's ComputePaddingWithOffset:
/// total = max((output - 1) · stride + eff - input, 0), the front gets
/// total / 2 (the odd element goes to the back). Valid windows get 0.
int64_t PaddingBefore(int64_t input, int64_t output, int64_t stride, int64_t kernel,
                      int64_t dilation);

/// How a window steps: the strides and dilations of a conv2d or
/// depthwise_conv2d, the strides of a transpose_conv2d, max_pool2d or
/// avg_pool2d (dilations {1, 1}); {1, 1} and {1, 1} for any other op.
struct WindowSteps {
  Pair strides{1, 1}, dilations{1, 1};
};
WindowSteps WindowStepsOf(OpKind op, const Attributes& attrs);

/// The window of a conv2d, depthwise_conv2d, max_pool2d or avg_pool2d node
/// reading `input` into `output` (NHWC) with a kh × kw kernel, from its
/// strides and dilations ({1, 1} for pools). A transpose_conv2d is the
/// forward window with input and output swapped.
WindowGeometry WindowOf(Pair strides, Pair dilations, const Shape& input, const Shape& output,
                        int64_t kh, int64_t kw);

/// Element offset of [n,h,w,c] in an NHWC tensor of `shape`.
inline int64_t Nhwc(const Shape& shape, int64_t n, int64_t h, int64_t w, int64_t c) {
  return ((n * shape[1] + h) * shape[2] + w) * shape[3] + c;
}

}  // namespace opuc

#endif  // OPUC_IR_CONV_GEOMETRY_H
