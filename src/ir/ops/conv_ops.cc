//===- src/ir/ops/conv_ops.cc - Convolutions and fully-connected ----------===//
//
// Layouts follow TFLite: activations NHWC, conv weights OHWI [Co,Kh,Kw,Ci],
// depthwise weights [1,Kh,Kw,C*multiplier], fully-connected weights [Co,Ci].
// A float op has float weights and bias of its own dtype; a quantized op has
// i8 activations and weights and an i32 bias (docs/numerics.md).
//
//===----------------------------------------------------------------------===//
#include "ops/infer_util.h"
#include "ops/op_defs.h"
#include "opuc/ir/conv_geometry.h"
#include "support/format.h"

namespace opuc {
namespace {

const std::vector<InputSpec> kInnerProductInputs = {
    {"input"}, {"weights"}, {"bias", /*optional=*/true}};

/// Checks the dtypes of input, weights and bias; returns the output dtype.
Expected<DType> InnerProductDType(const InferContext& ctx) {
  const Tensor& input = *ctx.inputs[0];
  const Tensor& weights = *ctx.inputs[1];
  const Tensor* bias = ctx.inputs.size() > 2 ? ctx.inputs[2] : nullptr;
  OPUC_RETURN_IF_ERROR(RequireDType(input, "input", kFloatOrQuantized));
  OPUC_RETURN_IF_ERROR(RequireSameDType(input, "input", weights, "weights"));
  if (bias) {
    const DType want = IsFloat(input.dtype) ? input.dtype : DType::kI32;
    OPUC_RETURN_IF_ERROR(RequireDType(*bias, "bias", {want}));
  }
  return input.dtype;
}

Status RequireBias(const InferContext& ctx, int64_t channels) {
  if (ctx.inputs.size() < 3 || !ctx.inputs[2]) return OkStatus();
  const Tensor& bias = *ctx.inputs[2];
  if (bias.shape == Shape{channels}) return OkStatus();
  return InvalidArgument(Cat("input 'bias' has shape ", ShapeToString(bias.shape), "; expected [",
                             channels, "] (one per output channel)"));
}

/// Spatial output extents of a windowed op (its strides, dilations and
/// padding) over an NHWC input.
template <typename Attrs>
Expected<Shape> SpatialOutput(const Shape& input, int64_t kh, int64_t kw, const Attrs& a,
                              Pair dilations, int64_t channels) {
  OPUC_ASSIGN_OR_RETURN(int64_t oh, WindowOutputExtent(input[1], kh, a.strides[0], dilations[0],
                                                       a.padding, "height"));
  OPUC_ASSIGN_OR_RETURN(
      int64_t ow, WindowOutputExtent(input[2], kw, a.strides[1], dilations[1], a.padding, "width"));
  return Shape{input[0], oh, ow, channels};
}

Expected<std::vector<TensorType>> InferConv2D(const InferContext& ctx) {
  OPUC_ASSIGN_OR_RETURN(DType dtype, InnerProductDType(ctx));
  const Tensor& input = *ctx.inputs[0];
  const Tensor& weights = *ctx.inputs[1];
  OPUC_RETURN_IF_ERROR(RequireRank(input, "input", 4, "[N,H,W,C]"));
  OPUC_RETURN_IF_ERROR(RequireRank(weights, "weights", 4, "[Co,Kh,Kw,Ci]"));
  if (weights.shape[3] != input.shape[3])
    return InvalidArgument(Cat("input 'weights' has ", weights.shape[3], " input channels (shape ",
                               ShapeToString(weights.shape), "); expected ", input.shape[3],
                               " like the input"));
  OPUC_RETURN_IF_ERROR(RequireBias(ctx, weights.shape[0]));
  const auto a = Conv2DAttrs::Of(*ctx.attrs);
  OPUC_ASSIGN_OR_RETURN(Shape out, SpatialOutput(input.shape, weights.shape[1], weights.shape[2], a,
                                                 a.dilations, weights.shape[0]));
  return One(dtype, std::move(out));
}

Expected<std::vector<TensorType>> InferDepthwiseConv2D(const InferContext& ctx) {
  OPUC_ASSIGN_OR_RETURN(DType dtype, InnerProductDType(ctx));
  const Tensor& input = *ctx.inputs[0];
  const Tensor& weights = *ctx.inputs[1];
  OPUC_RETURN_IF_ERROR(RequireRank(input, "input", 4, "[N,H,W,C]"));
  OPUC_RETURN_IF_ERROR(RequireRank(weights, "weights", 4, "[1,Kh,Kw,C*multiplier]"));
  const auto a = DepthwiseConv2DAttrs::Of(*ctx.attrs);
  const int64_t multiplier = a.depth_multiplier;
  if (weights.shape[0] != 1 || weights.shape[3] != input.shape[3] * multiplier)
    return InvalidArgument(Cat("input 'weights' has shape ", ShapeToString(weights.shape),
                               "; expected [1,Kh,Kw,", input.shape[3] * multiplier, "] for ",
                               input.shape[3], " channels × depth_multiplier ", multiplier));
  OPUC_RETURN_IF_ERROR(RequireBias(ctx, weights.shape[3]));
  OPUC_ASSIGN_OR_RETURN(Shape out, SpatialOutput(input.shape, weights.shape[1], weights.shape[2], a,
                                                 a.dilations, weights.shape[3]));
  return One(dtype, std::move(out));
}

Expected<std::vector<TensorType>> InferTransposeConv2D(const InferContext& ctx) {
  OPUC_ASSIGN_OR_RETURN(DType dtype, InnerProductDType(ctx));
  const Tensor& input = *ctx.inputs[0];
  const Tensor& weights = *ctx.inputs[1];
  OPUC_RETURN_IF_ERROR(RequireRank(input, "input", 4, "[N,H,W,C]"));
  OPUC_RETURN_IF_ERROR(RequireRank(weights, "weights", 4, "[Co,Kh,Kw,Ci]"));
  if (weights.shape[3] != input.shape[3])
    return InvalidArgument(Cat("input 'weights' has ", weights.shape[3],
                               " input channels; expected ", input.shape[3]));
  OPUC_RETURN_IF_ERROR(RequireBias(ctx, weights.shape[0]));
  const auto a = TransposeConv2DAttrs::Of(*ctx.attrs);
  const Shape& out = a.output_shape;
  if (out[0] != input.shape[0] || out[3] != weights.shape[0])
    return InvalidArgument(Cat("attribute 'output_shape' is ", ShapeToString(out), "; expected [",
                               input.shape[0], ",H,W,", weights.shape[0], "]"));
  // The output must be an input of the forward convolution this op transposes.
  OPUC_ASSIGN_OR_RETURN(Shape forward, SpatialOutput(out, weights.shape[1], weights.shape[2], a,
                                                     Pair{1, 1}, input.shape[3]));
  if (forward != input.shape)
    return InvalidArgument(Cat("attribute 'output_shape' ", ShapeToString(out),
                               " does not transpose to the input shape ",
                               ShapeToString(input.shape), " with these strides and padding"));
  return One(dtype, out);
}

Expected<std::vector<TensorType>> InferFullyConnected(const InferContext& ctx) {
  OPUC_ASSIGN_OR_RETURN(DType dtype, InnerProductDType(ctx));
  const Tensor& input = *ctx.inputs[0];
  const Tensor& weights = *ctx.inputs[1];
  OPUC_RETURN_IF_ERROR(RequireRank(weights, "weights", 2, "[Co,Ci]"));
  OPUC_RETURN_IF_ERROR(RequireBias(ctx, weights.shape[0]));
  const int64_t ci = weights.shape[1];
  const auto count = NumElements(input.shape);
  if (input.shape.empty() || !count || ci <= 0 || *count % ci != 0)
    return InvalidArgument(Cat("input has shape ", ShapeToString(input.shape),
                               "; expected a multiple of ", ci, " elements (weights ",
                               ShapeToString(weights.shape), ")"));
  if (!FullyConnectedAttrs::Of(*ctx.attrs).keep_num_dims)
    return One(dtype, {*count / ci, weights.shape[0]});
  if (input.shape.back() != ci)
    return InvalidArgument(Cat("input has shape ", ShapeToString(input.shape),
                               "; keep_num_dims needs the last extent to be ", ci));
  Shape out = input.shape;
  out.back() = weights.shape[0];
  return One(dtype, std::move(out));
}

}  // namespace

OpDef DefineOpConv2D() { return {kInnerProductInputs, {}, 1, InferConv2D}; }

OpDef DefineOpDepthwiseConv2D() { return {kInnerProductInputs, {}, 1, InferDepthwiseConv2D}; }

OpDef DefineOpTransposeConv2D() { return {kInnerProductInputs, {}, 1, InferTransposeConv2D}; }

OpDef DefineOpFullyConnected() { return {kInnerProductInputs, {}, 1, InferFullyConnected}; }

}  // namespace opuc
