//===- src/frontend/tflite_ops_shape.cc - Data movement --------------------===//
//
// PAD, RESHAPE and the resizes take their parameters from constant tensors;
// these become IR attributes (docs/decisions.md), read here once.
//
//===----------------------------------------------------------------------===//
#include <limits>

#include "support/fb_vector.h"
#include "support/format.h"
#include "tflite_import.h"

namespace opuc {
namespace {

/// Resolves one -1 in a TFLite shape against the input's element count.
Expected<std::vector<int64_t>> ResolveShape(std::vector<int64_t> shape, int64_t elements,
                                            std::string_view source) {
  int64_t known = 1;
  bool overflow = false;
  size_t unknown = shape.size();
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == -1 && unknown == shape.size()) {
      unknown = i;
      continue;
    }
    if (shape[i] < 0 || shape[i] > kMaxExtent)
      return InvalidArgument(Cat(source, " ", ShapeToString(shape), " has extent ", shape[i],
                                 "; expected 0..", kMaxExtent, " and at most one -1"));
    if (shape[i] != 0 && known > std::numeric_limits<int64_t>::max() / shape[i])
      overflow = true;
    else
      known *= shape[i];
  }
  if (unknown == shape.size()) return shape;  // The IR checks the element count.
  if (overflow || known == 0 || elements % known != 0)
    return InvalidArgument(
        Cat(source, " ", ShapeToString(shape), " cannot hold the input's ", elements, " elements"));
  shape[unknown] = elements / known;
  return shape;
}

/// The target shape: the second input when it is a 1-D tensor, otherwise
/// builtin_options.new_shape (TFLite's rule). A legacy [0] means a scalar.
Expected<std::vector<int64_t>> ReshapeTarget(OpContext& ctx) {
  if (ctx.HasInput(1)) {
    OPUC_ASSIGN_OR_RETURN(ParamTensor shape, ctx.Param(1, "shape"));
    if (shape.shape.size() == 1) return shape.values;
  }
  OPUC_ASSIGN_OR_RETURN(const auto* o, ctx.Options<tfl::ReshapeOptions>(OptionsNeed::kOptional));
  if (!o || !o->new_shape())
    return InvalidArgument(
        "has no target shape: neither a 1-D input 1 (shape) nor"
        " builtin_options.new_shape");
  std::vector<int64_t> shape;
  for (int32_t extent : CopyScalars(o->new_shape())) shape.push_back(extent);
  if (shape == std::vector<int64_t>{0}) shape.clear();
  return shape;
}

Status Resize(OpContext& ctx, OpKind kind, bool align_corners, bool half_pixel_centers) {
  if (align_corners && half_pixel_centers)
    return InvalidArgument(
        "builtin_options.align_corners and half_pixel_centers are both"
        " true; at most one may be");
  OPUC_ASSIGN_OR_RETURN(TensorId in, ctx.Input(0, "input"));
  OPUC_ASSIGN_OR_RETURN(ParamTensor size, ctx.Param(1, "size"));
  if (size.values.size() != 2 || size.values[0] < 1 || size.values[1] < 1)
    return InvalidArgument(Cat("input 1 (size) is ", ShapeToString(size.values),
                               "; expected two extents of at least 1 (height, width)"));
  Attributes attrs;
  attrs.Set("size", std::move(size.values));
  attrs.Set("align_corners", align_corners);
  attrs.Set("half_pixel_centers", half_pixel_centers);
  return ctx.Emit(kind, {in}, std::move(attrs));
}

}  // namespace

Status ConvertPad(OpContext& ctx) {
  OPUC_RETURN_IF_ERROR(ctx.ExpectInputs(2, 2, "input, paddings"));
  OPUC_ASSIGN_OR_RETURN(TensorId in, ctx.Input(0, "input"));
  OPUC_ASSIGN_OR_RETURN(ParamTensor paddings, ctx.Param(1, "paddings"));
  const size_t rank = ctx.tensor(in).shape.size();
  if (paddings.shape != Shape{static_cast<int64_t>(rank), 2})
    return InvalidArgument(Cat("input 1 (paddings) has shape ", ShapeToString(paddings.shape),
                               "; expected [", rank, ",2] (before and after per dimension)"));
  for (int64_t p : paddings.values)
    if (p < 0 || p > kMaxExtent)
      return InvalidArgument(Cat("input 1 (paddings) holds ", p, "; expected 0..", kMaxExtent));
  // [rank, 2] row-major is already the IR's [before0, after0, before1, ...].
  Attributes attrs;
  attrs.Set("pads", std::move(paddings.values));
  return ctx.Emit(OpKind::kPad, {in}, std::move(attrs));
}

Status ConvertReshape(OpContext& ctx) {
  OPUC_RETURN_IF_ERROR(ctx.ExpectInputs(1, 2, "input, shape"));
  OPUC_ASSIGN_OR_RETURN(TensorId in, ctx.Input(0, "input"));
  OPUC_ASSIGN_OR_RETURN(std::vector<int64_t> target, ReshapeTarget(ctx));
  const int64_t elements = *NumElements(ctx.tensor(in).shape);
  OPUC_ASSIGN_OR_RETURN(std::vector<int64_t> shape,
                        ResolveShape(std::move(target), elements, "new shape"));
  Attributes attrs;
  attrs.Set("new_shape", std::move(shape));
  return ctx.Emit(OpKind::kReshape, {in}, std::move(attrs));
}

Status ConvertConcatenation(OpContext& ctx) {
  if (ctx.num_inputs() == 0) return InvalidArgument("has no inputs; expected at least 1");
  OPUC_ASSIGN_OR_RETURN(const auto* o,
                        ctx.Options<tfl::ConcatenationOptions>(OptionsNeed::kRequired));
  OPUC_ASSIGN_OR_RETURN(
      std::string act,
      ActivationName(o->fused_activation_function(), "builtin_options.fused_activation_function"));
  std::vector<TensorId> inputs;
  for (size_t i = 0; i < ctx.num_inputs(); ++i) {
    OPUC_ASSIGN_OR_RETURN(TensorId in, ctx.Input(i, "input"));
    inputs.push_back(in);
  }
  Attributes attrs;
  attrs.Set("axis", int64_t{o->axis()});
  attrs.Set("activation", std::move(act));
  return ctx.Emit(OpKind::kConcat, std::move(inputs), std::move(attrs));
}

Status ConvertResizeBilinear(OpContext& ctx) {
  OPUC_RETURN_IF_ERROR(ctx.ExpectInputs(2, 2, "input, size"));
  OPUC_ASSIGN_OR_RETURN(const auto* o,
                        ctx.Options<tfl::ResizeBilinearOptions>(OptionsNeed::kOptional));
  return Resize(ctx, OpKind::kResizeBilinear, o && o->align_corners(),
                o && o->half_pixel_centers());
}

Status ConvertResizeNearestNeighbor(OpContext& ctx) {
  OPUC_RETURN_IF_ERROR(ctx.ExpectInputs(2, 2, "input, size"));
  OPUC_ASSIGN_OR_RETURN(const auto* o,
                        ctx.Options<tfl::ResizeNearestNeighborOptions>(OptionsNeed::kOptional));
  return Resize(ctx, OpKind::kResizeNearest, o && o->align_corners(), o && o->half_pixel_centers());
}

Status ConvertDepthToSpace(OpContext& ctx) {
  OPUC_RETURN_IF_ERROR(ctx.ExpectInputs(1, 1, "input"));
  OPUC_ASSIGN_OR_RETURN(const auto* o,
                        ctx.Options<tfl::DepthToSpaceOptions>(OptionsNeed::kRequired));
  if (o->block_size() < 1)
    return InvalidArgument(
        Cat("builtin_options.block_size is ", o->block_size(), "; expected at least 1"));
  OPUC_ASSIGN_OR_RETURN(TensorId in, ctx.Input(0, "input"));
  Attributes attrs;
  attrs.Set("block_size", int64_t{o->block_size()});
  return ctx.Emit(OpKind::kDepthToSpace, {in}, std::move(attrs));
}

}  // namespace opuc
