//===- src/ir/ops/misc_ops.cc - Constant decoding -------------------------===//
#include "ops/infer_util.h"
#include "ops/op_defs.h"

namespace opuc {
namespace {

// DENSIFY turns a sparse constant into a dense one of the same declared type;
// the sparse encoding travels with the constant, so the types are unchanged.
Expected<std::vector<TensorType>> InferDensify(const InferContext& ctx) {
  const Tensor& input = *ctx.inputs[0];
  return One(input.dtype, input.shape);
}

}  // namespace

OpDef DefineOpDensify() { return {{{"input"}}, {}, 1, InferDensify}; }

}  // namespace opuc
