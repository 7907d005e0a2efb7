//===- src/ir/ops/data_movement_ops.cc - Pad, reshape, concat, resize -----===//
//
// Parameters that TFLite passes as constant tensors (paddings, new shapes,
// resize sizes) are attributes here: the importer reads them, so inference
// and every later stage see plain values.
//
//===----------------------------------------------------------------------===//
#include "ops/infer_util.h"
#include "ops/op_defs.h"
#include "support/format.h"

namespace opuc {
namespace {

Expected<std::vector<TensorType>> InferPad(const InferContext& ctx) {
  const Tensor& input = *ctx.inputs[0];
  const Ints pads = PadAttrs::Of(*ctx.attrs).pads;
  if (pads.size() != 2 * input.shape.size())
    return InvalidArgument(Cat("attribute 'pads' has ", pads.size(), " elements; expected ",
                               2 * input.shape.size(),
                               " (before and after for each input dimension)"));
  Shape out = input.shape;
  for (size_t i = 0; i < out.size(); ++i) out[i] += pads[2 * i] + pads[2 * i + 1];
  return One(input.dtype, std::move(out));
}

Expected<std::vector<TensorType>> InferReshape(const InferContext& ctx) {
  const Tensor& input = *ctx.inputs[0];
  const Shape shape = ReshapeAttrs::Of(*ctx.attrs).new_shape;
  const auto in_count = NumElements(input.shape);
  const auto out_count = NumElements(shape);
  if (!in_count || !out_count || *in_count != *out_count)
    return InvalidArgument(Cat("attribute 'new_shape' ", ShapeToString(shape),
                               " does not hold the input's ", in_count.value_or(-1),
                               " elements (shape ", ShapeToString(input.shape), ")"));
  return One(input.dtype, shape);
}

Expected<std::vector<TensorType>> InferConcat(const InferContext& ctx) {
  const Tensor& first = *ctx.inputs[0];
  OPUC_ASSIGN_OR_RETURN(size_t axis, ResolveAxis(ConcatAttrs::Of(*ctx.attrs).axis,
                                                 first.shape.size(), "attribute 'axis':"));
  Shape out = first.shape;
  out[axis] = 0;
  for (size_t i = 0; i < ctx.inputs.size(); ++i) {
    const Tensor& t = *ctx.inputs[i];
    OPUC_RETURN_IF_ERROR(RequireSameDType(first, "inputs 0", t, Cat("inputs ", i)));
    bool compatible = t.shape.size() == first.shape.size();
    for (size_t d = 0; compatible && d < t.shape.size(); ++d)
      compatible = d == axis || t.shape[d] == first.shape[d];
    if (!compatible)
      return InvalidArgument(Cat("input ", i, " (tensor '", t.name, "') has shape ",
                                 ShapeToString(t.shape), "; expected ", ShapeToString(first.shape),
                                 " except along axis ", axis));
    out[axis] += t.shape[axis];
  }
  return One(first.dtype, std::move(out));
}

template <typename Attrs>
Expected<std::vector<TensorType>> InferResize(const InferContext& ctx) {
  const Tensor& input = *ctx.inputs[0];
  OPUC_RETURN_IF_ERROR(RequireRank(input, "input", 4, "[N,H,W,C]"));
  const auto a = Attrs::Of(*ctx.attrs);
  if (a.align_corners && a.half_pixel_centers)
    return InvalidArgument(
        "attributes 'align_corners' and 'half_pixel_centers' are both true;"
        " at most one may be");
  return One(input.dtype, {input.shape[0], a.size[0], a.size[1], input.shape[3]});
}

Expected<std::vector<TensorType>> InferDepthToSpace(const InferContext& ctx) {
  const Tensor& input = *ctx.inputs[0];
  OPUC_RETURN_IF_ERROR(RequireRank(input, "input", 4, "[N,H,W,C]"));
  const int64_t block = DepthToSpaceAttrs::Of(*ctx.attrs).block_size;
  if (input.shape[3] % (block * block) != 0)
    return InvalidArgument(Cat("input has ", input.shape[3], " channels; expected a multiple of ",
                               block * block, " (block_size ", block, " squared)"));
  return One(input.dtype, {input.shape[0], input.shape[1] * block, input.shape[2] * block,
                           input.shape[3] / (block * block)});
}

}  // namespace

// The attributes come from op_attrs.def.
OpDef DefineOpPad() { return {{{"input"}}, {}, 1, InferPad}; }
OpDef DefineOpReshape() { return {{{"input"}}, {}, 1, InferReshape}; }
OpDef DefineOpConcat() { return {{{"inputs", false, /*variadic=*/true}}, {}, 1, InferConcat}; }
OpDef DefineOpResizeBilinear() { return {{{"input"}}, {}, 1, InferResize<ResizeBilinearAttrs>}; }
OpDef DefineOpResizeNearest() { return {{{"input"}}, {}, 1, InferResize<ResizeNearestAttrs>}; }
OpDef DefineOpDepthToSpace() { return {{{"input"}}, {}, 1, InferDepthToSpace}; }

}  // namespace opuc
