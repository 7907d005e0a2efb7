//===- src/ir/ops/fused_op.cc - A fused function --------------------------===//
//
// A `fused` node calls the function in Node::body (the FuseOps pass makes
// them): its inputs are the arguments, which must have the types of the
// body's inputs (the parameters), and its output has the type of the body's
// one output. The verifier checks the body itself (verifier.cc).
//
//===----------------------------------------------------------------------===//
#include "ops/infer_util.h"
#include "ops/op_defs.h"
#include "opuc/ir/graph.h"
#include "support/format.h"

namespace opuc {
namespace {

bool InBody(const Graph& body, TensorId id) {
  return id >= 0 && static_cast<size_t>(id) < body.tensors.size();
}

std::string TypeText(const Tensor& t) { return Cat(DTypeName(t.dtype), ShapeToString(t.shape)); }

Expected<std::vector<TensorType>> InferFused(const InferContext& ctx) {
  if (!ctx.body) return InvalidArgument("has no body (a fused node carries its function)");
  const Graph& body = *ctx.body;
  if (body.inputs.size() != ctx.inputs.size())
    return InvalidArgument(Cat("has ", ctx.inputs.size(), " arguments; its body ", Quote(body.name),
                               " has ", body.inputs.size(), " parameters"));
  for (size_t i = 0; i < ctx.inputs.size(); ++i) {
    if (!InBody(body, body.inputs[i]))
      return InvalidArgument(
          Cat("parameter ", i, " is body tensor ", body.inputs[i], ", which does not exist"));
    const Tensor& param = body.tensor(body.inputs[i]);
    if (!ctx.inputs[i]) return InvalidArgument(Cat("argument ", i, " is absent"));
    if (!(ctx.inputs[i]->type() == param.type()))
      return InvalidArgument(Cat("argument ", i, " is ", TypeText(*ctx.inputs[i]), "; parameter ",
                                 i, " '", param.name, "' is ", TypeText(param)));
  }
  if (body.outputs.size() != 1 || !InBody(body, body.outputs[0]))
    return InvalidArgument(Cat("its body ", Quote(body.name), " has ", body.outputs.size(),
                               " outputs; expected one that exists"));
  const Tensor& out = body.tensor(body.outputs[0]);
  return One(out.dtype, out.shape);
}

}  // namespace

OpDef DefineOpFused() {
  return {{InputSpec("args", /*is_optional=*/true, /*is_variadic=*/true)}, {}, 1, InferFused};
}

}  // namespace opuc
