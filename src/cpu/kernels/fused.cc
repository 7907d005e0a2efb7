//===- src/cpu/kernels/fused.cc - FUSED: a FuseOps function ---------------===//
//
// A function whose body is a float inner product (conv2d, depthwise_conv2d,
// fully_connected) followed by a chain of elementwise ops, each reading the
// one before and one other operand at most (relu, relu6, relu_n1_to_1; add,
// sub, mul, and prelu with the value as its input, each with an operand of
// the output's shape, one value per channel or one value), runs as the inner
// product with the chain applied to each block of its output while the
// block is in cache: TVM's "out-elementwise fusable" group as one pass over
// memory. Any other body runs op by op on the CPU executor.
//
//===----------------------------------------------------------------------===//
#include <deque>
#include <map>
#include <optional>

#include "epilogue.h"
#include "evaluate.h"
#include "fused_match.h"
#include "kernels.h"

namespace opuc::cpu {
namespace {

/// The body's nodes one after another on the CPU executor's kernels: the
/// arguments read where they lie, the inner values on the heap for this
/// call, the last node's result written in the fused node's own place.
Status RunOpByOp(reference::KernelContext& ctx, const Graph& body) {
  std::vector<const HostTensor*> value(body.tensors.size(), nullptr);
  for (size_t i = 0; i < body.inputs.size(); ++i) {
    if (!ctx.input(i)) return InvalidArgument("an argument of a fused node is absent");
    value[static_cast<size_t>(body.inputs[i])] = ctx.input(i);
  }
  std::deque<HostTensor> held;  // constants' views and inner values (addresses stay put)
  std::vector<const HostTensor*> args;
  for (size_t n = 0; n < body.nodes.size(); ++n) {
    const Node& node = body.nodes[n];
    args.clear();
    for (TensorId t : node.inputs) {
      if (t == kNoTensor || body.tensor(t).sparsity) {
        args.push_back(nullptr);  // absent, or sparse (kernels read it from the graph)
        continue;
      }
      const HostTensor*& v = value[static_cast<size_t>(t)];
      if (!v) {
        OPUC_ASSIGN_OR_RETURN(HostTensor view, HostTensor::FromConstant(body.tensor(t)));
        v = &held.emplace_back(std::move(view));
      }
      args.push_back(v);
    }
    const bool last = n + 1 == body.nodes.size() && node.outputs.size() == 1 &&
                      node.outputs[0] == body.outputs[0];
    std::vector<HostTensor> results;
    OPUC_RETURN_IF_ERROR(EvaluateOnCpu(body, static_cast<NodeId>(n), args, &results,
                                       last ? ctx.allocator() : nullptr));
    if (last) return ctx.SetOutput(0, std::move(results[0]));
    for (size_t j = 0; j < results.size(); ++j)
      value[static_cast<size_t>(node.outputs[j])] = &held.emplace_back(std::move(results[j]));
  }
  const HostTensor* out = value[static_cast<size_t>(body.outputs[0])];
  if (!out) return InternalError("a fused body's output was not computed");
  OPUC_ASSIGN_OR_RETURN(HostTensor copy,
                        HostTensor::Copy(out->dtype(), out->shape(), out->raw(), out->bytes()));
  return ctx.SetOutput(0, std::move(copy));
}

}  // namespace

Status Fused(reference::KernelContext& ctx) {
  const Graph* body = ctx.node().body.get();
  if (!body) return InvalidArgument("has no body (a fused node carries its function)");
  const std::optional<FusedTail> tail = MatchFusedTail(*body);
  if (!tail || body->inputs.size() != ctx.num_inputs()) return RunOpByOp(ctx, *body);

  // The body's values: its parameters are the node's arguments, its
  // constants are viewed in place.
  std::map<TensorId, const HostTensor*> value;
  for (size_t i = 0; i < body->inputs.size(); ++i) value[body->inputs[i]] = ctx.input(i);
  std::vector<HostTensor> constants;
  constants.reserve(body->tensors.size());
  const auto lookup = [&](TensorId t) -> Expected<const HostTensor*> {
    if (t == kNoTensor) return static_cast<const HostTensor*>(nullptr);
    if (const auto it = value.find(t); it != value.end()) return it->second;
    OPUC_ASSIGN_OR_RETURN(HostTensor view, HostTensor::FromConstant(body->tensor(t)));
    constants.push_back(std::move(view));
    return value[t] = &constants.back();
  };
  const Node& head = body->nodes.front();
  std::vector<const HostTensor*> head_inputs;
  for (TensorId t : head.inputs) {
    OPUC_ASSIGN_OR_RETURN(const HostTensor* v, lookup(t));
    head_inputs.push_back(v);
  }
  std::vector<ChainStep> steps = tail->steps;
  for (size_t k = 0; k < steps.size(); ++k) {
    if (tail->others[k] == kNoTensor) continue;
    OPUC_ASSIGN_OR_RETURN(const HostTensor* v, lookup(tail->others[k]));
    if (!v || v->dtype() != DType::kF32) return RunOpByOp(ctx, *body);
    steps[k].other = v->data<float>();
  }
  const FloatChain chain(std::move(steps));

  // The head computes into the fused node's own output (its arena place).
  OPUC_ASSIGN_OR_RETURN(std::vector<TensorType> types,
                        reference::CheckedOutputTypes(*body, 0, head_inputs));
  std::vector<HostTensor> outputs(1);
  reference::KernelContext head_ctx(*body, 0, head_inputs, types, &outputs, ctx.allocator());
  Status run = head.op == OpKind::kConv2D            ? Conv2D(head_ctx, &chain)
               : head.op == OpKind::kDepthwiseConv2D ? DepthwiseConv2D(head_ctx, &chain)
                                                     : FullyConnected(head_ctx, &chain);
  OPUC_RETURN_IF_ERROR(run.WithContext(DescribeNode(*body, 0)));
  return ctx.SetOutput(0, std::move(outputs[0]));
}

}  // namespace opuc::cpu
