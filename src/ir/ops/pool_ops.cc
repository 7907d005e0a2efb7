//===- src/ir/ops/pool_ops.cc - Pooling, reductions, softmax --------------===//
//
// An i8 softmax takes its exponentials from a second input, `exp_table`
// (i32[256], docs/numerics.md §8); a float softmax has none.
//
//===----------------------------------------------------------------------===//
#include <algorithm>

#include "ops/infer_util.h"
#include "ops/op_defs.h"
#include "opuc/ir/conv_geometry.h"
#include "support/format.h"

namespace opuc {
namespace {

template <typename Attrs>
Expected<std::vector<TensorType>> InferPool2D(const InferContext& ctx) {
  const Tensor& input = *ctx.inputs[0];
  OPUC_RETURN_IF_ERROR(RequireDType(input, "input", kFloatOrQuantized));
  OPUC_RETURN_IF_ERROR(RequireRank(input, "input", 4, "[N,H,W,C]"));
  const auto a = Attrs::Of(*ctx.attrs);
  OPUC_ASSIGN_OR_RETURN(int64_t oh, WindowOutputExtent(input.shape[1], a.filter[0], a.strides[0], 1,
                                                       a.padding, "height"));
  OPUC_ASSIGN_OR_RETURN(int64_t ow, WindowOutputExtent(input.shape[2], a.filter[1], a.strides[1], 1,
                                                       a.padding, "width"));
  return One(input.dtype, {input.shape[0], oh, ow, input.shape[3]});
}

Expected<std::vector<TensorType>> InferMean(const InferContext& ctx) {
  const Tensor& input = *ctx.inputs[0];
  OPUC_RETURN_IF_ERROR(RequireDType(input, "input", kFloatOrQuantized));
  std::vector<bool> reduced(input.shape.size(), false);
  const auto attrs = MeanAttrs::Of(*ctx.attrs);
  for (int64_t axis : attrs.axes) {
    OPUC_ASSIGN_OR_RETURN(size_t a,
                          ResolveAxis(axis, input.shape.size(), "attribute 'axes': axis"));
    if (reduced[a]) return InvalidArgument(Cat("attribute 'axes' names axis ", a, " twice"));
    reduced[a] = true;
  }
  const bool keep = attrs.keep_dims;
  Shape out;
  for (size_t i = 0; i < input.shape.size(); ++i) {
    if (!reduced[i])
      out.push_back(input.shape[i]);
    else if (keep)
      out.push_back(1);
  }
  return One(input.dtype, std::move(out));
}

Expected<std::vector<TensorType>> InferSoftmax(const InferContext& ctx) {
  const Tensor& input = *ctx.inputs[0];
  OPUC_RETURN_IF_ERROR(RequireDType(input, "input", kFloatOrQuantized));
  if (input.shape.empty())
    return InvalidArgument("input has rank 0; softmax needs at least one dimension");
  // On integers the exponentials come from a 256-entry table (numerics.md §8).
  const Tensor* table = ctx.inputs.size() > 1 ? ctx.inputs[1] : nullptr;
  if (!IsQuantizedFormat(input.dtype)) {
    if (table)
      return InvalidArgument(Cat("input 'exp_table' is given for a ", DTypeName(input.dtype),
                                 " input; only an integer softmax takes one"));
    return One(input.dtype, input.shape);
  }
  if (!table)
    return InvalidArgument(Cat("input 'exp_table' is absent; an ", DTypeName(input.dtype),
                               " softmax needs its i32[256] table"));
  OPUC_RETURN_IF_ERROR(RequireDType(*table, "exp_table", {DType::kI32}));
  if (table->shape != Shape{256})
    return InvalidArgument(Cat("input 'exp_table' (tensor '", table->name, "') has shape ",
                               ShapeToString(table->shape), "; expected [256]"));
  return One(input.dtype, input.shape);
}

}  // namespace

OpDef DefineOpMaxPool2D() { return {{{"input"}}, {}, 1, InferPool2D<MaxPool2DAttrs>}; }
OpDef DefineOpAvgPool2D() { return {{{"input"}}, {}, 1, InferPool2D<AvgPool2DAttrs>}; }
OpDef DefineOpMean() { return {{{"input"}}, {}, 1, InferMean}; }
OpDef DefineOpSoftmax() {
  return {{{"input"}, {"exp_table", /*is_optional=*/true}}, {}, 1, InferSoftmax};
}

}  // namespace opuc
