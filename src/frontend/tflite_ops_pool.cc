//===- src/frontend/tflite_ops_pool.cc - Pooling, MEAN, SOFTMAX -----------===//
#include <algorithm>
#include <cmath>

#include "support/format.h"
#include "tflite_import.h"

namespace opuc {
namespace {

Status Pool(OpContext& ctx, OpKind kind) {
  OPUC_RETURN_IF_ERROR(ctx.ExpectInputs(1, 1, "input"));
  OPUC_ASSIGN_OR_RETURN(const auto* o, ctx.Options<tfl::Pool2DOptions>(OptionsNeed::kRequired));
  Attributes attrs;
  OPUC_ASSIGN_OR_RETURN(std::string padding, PaddingName(o->padding(), "builtin_options.padding"));
  OPUC_ASSIGN_OR_RETURN(std::vector<int64_t> strides,
                        PositivePair(o->stride_h(), "builtin_options.stride_h", o->stride_w(),
                                     "builtin_options.stride_w"));
  OPUC_ASSIGN_OR_RETURN(std::vector<int64_t> filter,
                        PositivePair(o->filter_height(), "builtin_options.filter_height",
                                     o->filter_width(), "builtin_options.filter_width"));
  OPUC_ASSIGN_OR_RETURN(
      std::string act,
      ActivationName(o->fused_activation_function(), "builtin_options.fused_activation_function"));
  attrs.Set("padding", std::move(padding));
  attrs.Set("strides", std::move(strides));
  attrs.Set("filter", std::move(filter));
  attrs.Set("activation", std::move(act));
  OPUC_ASSIGN_OR_RETURN(TensorId in, ctx.Input(0, "input"));
  return ctx.Emit(kind, {in}, std::move(attrs));
}

}  // namespace

Status ConvertMaxPool2D(OpContext& ctx) { return Pool(ctx, OpKind::kMaxPool2D); }
Status ConvertAveragePool2D(OpContext& ctx) { return Pool(ctx, OpKind::kAvgPool2D); }

Status ConvertMean(OpContext& ctx) {
  OPUC_RETURN_IF_ERROR(ctx.ExpectInputs(2, 2, "input, axes"));
  OPUC_ASSIGN_OR_RETURN(const auto* o, ctx.Options<tfl::ReducerOptions>(OptionsNeed::kOptional));
  OPUC_ASSIGN_OR_RETURN(TensorId in, ctx.Input(0, "input"));
  OPUC_ASSIGN_OR_RETURN(ParamTensor axes, ctx.Param(1, "axes"));
  // TFLite accepts negative and repeated axes; the IR keeps each axis once,
  // counted from the front, in the order of first mention.
  const auto rank = static_cast<int64_t>(ctx.tensor(in).shape.size());
  std::vector<int64_t> canonical;
  for (int64_t axis : axes.values) {
    if (axis < -rank || axis >= rank)
      return InvalidArgument(Cat("input 1 (axes) holds axis ", axis, "; expected ", -rank, "..",
                                 rank - 1, " for the input's rank ", rank));
    const int64_t a = axis < 0 ? axis + rank : axis;
    if (std::find(canonical.begin(), canonical.end(), a) == canonical.end()) canonical.push_back(a);
  }
  Attributes attrs;
  attrs.Set("axes", std::move(canonical));
  attrs.Set("keep_dims", o ? o->keep_dims() : false);
  return ctx.Emit(OpKind::kMean, {in}, std::move(attrs));
}

Status ConvertSoftmax(OpContext& ctx) {
  OPUC_RETURN_IF_ERROR(ctx.ExpectInputs(1, 1, "input"));
  OPUC_ASSIGN_OR_RETURN(const auto* o, ctx.Options<tfl::SoftmaxOptions>(OptionsNeed::kRequired));
  OPUC_ASSIGN_OR_RETURN(TensorId in, ctx.Input(0, "input"));
  if (!std::isfinite(o->beta()))
    return InvalidArgument(Cat("builtin_options.beta is ", o->beta(), "; expected a finite value"));
  Attributes attrs;
  attrs.Set("beta", static_cast<double>(o->beta()));
  return ctx.Emit(OpKind::kSoftmax, {in}, std::move(attrs));
}

}  // namespace opuc
