//===- src/ir/conv_geometry.cc - Windows over NHWC tensors ----------------===//
#include "opuc/ir/conv_geometry.h"

#include "support/format.h"

namespace opuc {

Expected<int64_t> WindowOutputExtent(int64_t input, int64_t kernel, int64_t stride,
                                     int64_t dilation, Padding padding, std::string_view axis) {
  if (kernel < 1)
    return InvalidArgument(Cat(axis, ": kernel extent is ", kernel, "; expected at least 1"));
  if (padding == Padding::kSame) return (input + stride - 1) / stride;
  const int64_t effective = (kernel - 1) * dilation + 1;
  if (input < effective)
    return InvalidArgument(Cat(axis, ": window of ", effective, " (kernel ", kernel, ", dilation ",
                               dilation, ") does not fit the input extent ", input,
                               " with valid padding"));
  return (input - effective) / stride + 1;
}

int64_t PaddingBefore(int64_t input, int64_t output, int64_t stride, int64_t kernel,
                      int64_t dilation) {
  const int64_t effective = (kernel - 1) * dilation + 1;
  const int64_t total = (output - 1) * stride + effective - input;
  return total > 0 ? total / 2 : 0;
}

WindowSteps WindowStepsOf(OpKind op, const Attributes& attrs) {
  WindowSteps steps;
  switch (op) {
    case OpKind::kConv2D: {
      const auto a = Conv2DAttrs::Of(attrs);
      return {a.strides, a.dilations};
    }
    case OpKind::kDepthwiseConv2D: {
      const auto a = DepthwiseConv2DAttrs::Of(attrs);
      return {a.strides, a.dilations};
    }
    case OpKind::kTransposeConv2D: steps.strides = TransposeConv2DAttrs::Of(attrs).strides; break;
    case OpKind::kMaxPool2D: steps.strides = MaxPool2DAttrs::Of(attrs).strides; break;
    case OpKind::kAvgPool2D: steps.strides = AvgPool2DAttrs::Of(attrs).strides; break;
    default: break;
  }
  return steps;
}

WindowGeometry WindowOf(Pair strides, Pair dilations, const Shape& input, const Shape& output,
                        int64_t kh, int64_t kw) {
  const auto axis = [&](size_t i, int64_t kernel) {
    WindowAxis a;
    a.kernel = kernel;
    a.stride = strides[i];
    a.dilation = dilations[i];
    a.pad_before = PaddingBefore(input[i + 1], output[i + 1], a.stride, kernel, a.dilation);
    return a;
  };
  return {axis(0, kh), axis(1, kw)};
}

}  // namespace opuc
