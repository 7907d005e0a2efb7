//===- src/frontend/tflite_ops_conv.cc - Convolutions, fully connected ----===//
//
// TFLite's weight layouts are the IR's (OHWI, [1,Kh,Kw,C*M], [Co,Ci]), so
// weights pass through unchanged. Strides and dilations become [h, w]
// attributes; padding and the fused activation become their IR names.
//
//===----------------------------------------------------------------------===//
#include <cstring>

#include "support/format.h"
#include "tflite_import.h"

namespace opuc {
namespace {

/// strides, padding and activation, shared by every convolution.
Status WindowAttrs(tfl::Padding padding, int32_t stride_h, int32_t stride_w,
                   tfl::ActivationFunctionType activation, Attributes* attrs) {
  OPUC_ASSIGN_OR_RETURN(std::string pad, PaddingName(padding, "builtin_options.padding"));
  OPUC_ASSIGN_OR_RETURN(
      std::vector<int64_t> strides,
      PositivePair(stride_h, "builtin_options.stride_h", stride_w, "builtin_options.stride_w"));
  OPUC_ASSIGN_OR_RETURN(std::string act,
                        ActivationName(activation, "builtin_options.fused_activation_function"));
  attrs->Set("padding", std::move(pad));
  attrs->Set("strides", std::move(strides));
  attrs->Set("activation", std::move(act));
  return OkStatus();
}

Expected<std::vector<int64_t>> Dilations(int32_t h, int32_t w) {
  return PositivePair(h, "builtin_options.dilation_h_factor", w,
                      "builtin_options.dilation_w_factor");
}

/// input, weights and an optional bias, in the IR's order.
Expected<std::vector<TensorId>> InnerProductInputs(OpContext& ctx, size_t input, size_t weights,
                                                   size_t bias) {
  OPUC_ASSIGN_OR_RETURN(TensorId in, ctx.Input(input, "input"));
  OPUC_ASSIGN_OR_RETURN(TensorId w, ctx.Input(weights, "weights"));
  OPUC_ASSIGN_OR_RETURN(TensorId b, ctx.OptionalInput(bias, "bias"));
  return std::vector<TensorId>{in, w, b};
}

/// Padding, strides, fused activation and dilations: CONV_2D's and
/// DEPTHWISE_CONV_2D's options share these fields.
template <typename Options>
Expected<Attributes> DilatedWindowAttrs(const Options& o) {
  Attributes attrs;
  OPUC_RETURN_IF_ERROR(
      WindowAttrs(o.padding(), o.stride_h(), o.stride_w(), o.fused_activation_function(), &attrs));
  OPUC_ASSIGN_OR_RETURN(std::vector<int64_t> dilations,
                        Dilations(o.dilation_h_factor(), o.dilation_w_factor()));
  attrs.Set("dilations", std::move(dilations));
  return attrs;
}

}  // namespace

Status ConvertConv2D(OpContext& ctx) {
  OPUC_RETURN_IF_ERROR(ctx.ExpectInputs(2, 3, "input, weights, bias"));
  OPUC_ASSIGN_OR_RETURN(const auto* o, ctx.Options<tfl::Conv2DOptions>(OptionsNeed::kRequired));
  OPUC_ASSIGN_OR_RETURN(Attributes attrs, DilatedWindowAttrs(*o));
  OPUC_ASSIGN_OR_RETURN(std::vector<TensorId> inputs, InnerProductInputs(ctx, 0, 1, 2));
  return ctx.Emit(OpKind::kConv2D, std::move(inputs), std::move(attrs));
}

Status ConvertDepthwiseConv2D(OpContext& ctx) {
  OPUC_RETURN_IF_ERROR(ctx.ExpectInputs(2, 3, "input, weights, bias"));
  OPUC_ASSIGN_OR_RETURN(const auto* o,
                        ctx.Options<tfl::DepthwiseConv2DOptions>(OptionsNeed::kRequired));
  OPUC_ASSIGN_OR_RETURN(Attributes attrs, DilatedWindowAttrs(*o));
  OPUC_ASSIGN_OR_RETURN(std::vector<TensorId> inputs, InnerProductInputs(ctx, 0, 1, 2));

  // The multiplier follows from the shapes (weights [1,Kh,Kw,C*M] on C
  // channels); a non-zero option must agree with them. Shapes that give no
  // whole multiplier are left to the IR's inference, which names the problem.
  const int32_t option = o->depth_multiplier();
  if (option < 0)
    return InvalidArgument(Cat("builtin_options.depth_multiplier is ", option,
                               "; expected 0 (from the shapes) or more"));
  const Shape& in_shape = ctx.tensor(inputs[0]).shape;
  const Shape& w_shape = ctx.tensor(inputs[1]).shape;
  int64_t multiplier = option > 0 ? option : 1;
  if (in_shape.size() == 4 && w_shape.size() == 4 && in_shape[3] > 0 && w_shape[3] > 0 &&
      w_shape[3] % in_shape[3] == 0) {
    const int64_t implied = w_shape[3] / in_shape[3];
    if (option > 0 && option != implied)
      return InvalidArgument(Cat("builtin_options.depth_multiplier is ", option, "; weights ",
                                 ShapeToString(w_shape), " on ", in_shape[3],
                                 " input channels give ", implied));
    multiplier = implied;
  }
  attrs.Set("depth_multiplier", multiplier);
  return ctx.Emit(OpKind::kDepthwiseConv2D, std::move(inputs), std::move(attrs));
}

Status ConvertTransposeConv(OpContext& ctx) {
  // TFLite's order puts the output shape first.
  OPUC_RETURN_IF_ERROR(ctx.ExpectInputs(3, 4, "output_shape, weights, input, bias"));
  OPUC_ASSIGN_OR_RETURN(const auto* o,
                        ctx.Options<tfl::TransposeConvOptions>(OptionsNeed::kRequired));
  Attributes attrs;
  OPUC_RETURN_IF_ERROR(WindowAttrs(o->padding(), o->stride_h(), o->stride_w(),
                                   o->fused_activation_function(), &attrs));
  OPUC_ASSIGN_OR_RETURN(ParamTensor shape, ctx.Param(0, "output_shape"));
  if (shape.values.size() != 4)
    return InvalidArgument(Cat("input 0 (output_shape) has ", shape.values.size(),
                               " values; expected 4 (N, H, W, C)"));
  attrs.Set("output_shape", shape.values);
  OPUC_ASSIGN_OR_RETURN(std::vector<TensorId> inputs, InnerProductInputs(ctx, 2, 1, 3));
  return ctx.Emit(OpKind::kTransposeConv2D, std::move(inputs), std::move(attrs));
}

Status ConvertConv2DTransposeBias(OpContext& ctx) {
  // MediaPipe's custom op: custom_options are the raw bytes of a params
  // struct {int32 padding (1 = SAME, 2 = VALID), int32 stride_width,
  // int32 stride_height}; the output shape is the declared one.
  OPUC_RETURN_IF_ERROR(ctx.ExpectInputs(3, 3, "input, weights, bias"));
  const auto* raw = ctx.op().custom_options();
  const size_t size = raw ? raw->size() : 0;
  if (size != 12)
    return InvalidArgument(Cat("custom_options has ", size,
                               " bytes; expected 12 (int32 padding,"
                               " stride_width, stride_height)"));
  int32_t params[3];
  std::memcpy(params, raw->data(), sizeof(params));
  if (params[0] != 1 && params[0] != 2)
    return InvalidArgument(
        Cat("custom_options.padding is ", params[0], "; expected 1 (SAME) or 2 (VALID)"));
  Attributes attrs;
  attrs.Set("padding", std::string(params[0] == 1 ? "same" : "valid"));
  OPUC_ASSIGN_OR_RETURN(std::vector<int64_t> strides,
                        PositivePair(params[2], "custom_options.stride_height", params[1],
                                     "custom_options.stride_width"));
  attrs.Set("strides", std::move(strides));
  attrs.Set("output_shape", std::vector<int64_t>(ctx.OutputShape()));
  OPUC_ASSIGN_OR_RETURN(std::vector<TensorId> inputs, InnerProductInputs(ctx, 0, 1, 2));
  return ctx.Emit(OpKind::kTransposeConv2D, std::move(inputs), std::move(attrs));
}

Status ConvertFullyConnected(OpContext& ctx) {
  OPUC_RETURN_IF_ERROR(ctx.ExpectInputs(2, 3, "input, weights, bias"));
  OPUC_ASSIGN_OR_RETURN(const auto* o,
                        ctx.Options<tfl::FullyConnectedOptions>(OptionsNeed::kOptional));
  Attributes attrs;
  if (o) {
    if (o->weights_format() != tfl::FullyConnectedOptionsWeightsFormat::DEFAULT)
      return Unsupported(Cat("builtin_options.weights_format is ",
                             static_cast<int>(o->weights_format()),
                             "; opuc reads DEFAULT (0) weights only"));
    OPUC_ASSIGN_OR_RETURN(std::string act,
                          ActivationName(o->fused_activation_function(),
                                         "builtin_options.fused_activation_function"));
    attrs.Set("activation", std::move(act));
    attrs.Set("keep_num_dims", o->keep_num_dims());
  }
  OPUC_ASSIGN_OR_RETURN(std::vector<TensorId> inputs, InnerProductInputs(ctx, 0, 1, 2));
  return ctx.Emit(OpKind::kFullyConnected, std::move(inputs), std::move(attrs));
}

}  // namespace opuc
