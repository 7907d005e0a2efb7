//===- src/cpu/fused.cc - FUSED: a FuseOps function ---------------===//
//
// A function whose body is a chain of elementwise ops, each reading the
// value before it and one other operand at most (relu, relu6, relu_n1_to_1;
// add, sub, mul, and prelu with the value as its input, each with an
// operand of the output's shape, one value per channel or one value), runs
// as one pass over its output (fused_match.h): after an inner product
// (conv2d, depthwise_conv2d, fully_connected), the chain is applied to each
// block of the product's output while the block is in cache, TVM's
// "out-elementwise fusable" group; from an argument (an injective chain),
// block by block over the argument, and into a mean's sums when a mean ends
// the body. Float values go through FloatChain (epilogue.h) in place,
// quantized ones through IntegerChain (integer_chain.h). Any other body runs
// op by op on the CPU executor.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <deque>
#include <map>
#include <optional>

#include "epilogue.h"
#include "evaluate.h"
#include "fused_match.h"
#include "integer_chain.h"
#include "kept_buffer.h"
#include "kernels.h"
#include "mean_extents.h"

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

/// Where a quantized function's inner product writes: bytes kept on the
/// thread from one call to the next (kept_buffer.h says why).
Expected<HostTensor> KeptProductOutput(size_t, const TensorType& type) {
  static thread_local HostTensor kept;
  const int64_t bytes =
      NumElements(type.shape).value_or(0) * static_cast<int64_t>(DTypeSize(type.dtype));
  if (static_cast<int64_t>(kept.bytes()) < bytes) {
    OPUC_ASSIGN_OR_RETURN(kept, HostTensor::Zeros(DType::kI8, {bytes}));
  }
  return HostTensor::Within(kept, 0, type.dtype, type.shape);
}

/// Elements per block of an injective chain: a few tens of KB, whole rows
/// of `channels`.
int64_t BlockElements(int64_t channels) {
  constexpr int64_t kBlock = 8192;
  return std::max<int64_t>(1, kBlock / std::max<int64_t>(channels, 1)) *
         std::max<int64_t>(channels, 1);
}

/// Runs the body's inner product (node 0, output type `types`) with `tail`
/// after each block, its output where `allocator` puts it (nullptr: the
/// fused node's place).
Status RunProduct(reference::KernelContext& ctx, const Graph& body,
                  const std::vector<const HostTensor*>& inputs,
                  const std::vector<TensorType>& types, Tail tail,
                  const reference::OutputAllocator* allocator, std::vector<HostTensor>* outputs) {
  outputs->resize(1);
  reference::KernelContext product(body, 0, inputs, types, outputs,
                                   allocator ? allocator : ctx.allocator());
  const OpKind op = body.nodes.front().op;
  const Status run = op == OpKind::kConv2D            ? Conv2D(product, tail)
                     : op == OpKind::kDepthwiseConv2D ? DepthwiseConv2D(product, tail)
                                                      : FullyConnected(product, tail);
  return run.WithContext(DescribeNode(body, 0));
}

/// The float chain of `tail`, each step reading its operand in `others`.
FloatChain FloatChainOf(const FusedTail& tail, const std::vector<const HostTensor*>& others) {
  std::vector<ChainStep> steps = tail.steps;
  for (size_t k = 0; k < steps.size(); ++k)
    if (others[k]) steps[k].other = others[k]->data<float>();
  return FloatChain(std::move(steps));
}

/// sums[(o, i)] += values[j] for elements [at, at + count) of a mean's
/// outer × count × inner input, in C order (the reference's).
template <typename T, typename Acc>
void AddToMeans(const T* values, int64_t at, int64_t count, const MeanExtents& e, Acc* sums) {
  if (count == 0) return;
  int64_t i = at % e.inner, r = at / e.inner % e.count, o = at / e.inner / e.count;
  for (int64_t j = 0; j < count; ++j) {
    sums[o * e.inner + i] += static_cast<Acc>(values[j]);
    if (++i < e.inner) continue;
    i = 0;
    if (++r == e.count) r = 0, ++o;
  }
}

struct ChainBlock;  // KeptBuffer tags
struct FloatMeans;
struct ExactMeans;

/// An injective chain from `start` reduced by the body's last node, a mean:
/// block by block, each block's last values added into the mean's sums as
/// they come, then each sum averaged as the mean kernel averages it.
Status ChainMean(reference::KernelContext& ctx, const Graph& body, const FusedTail& tail,
                 const HostTensor& start, const std::vector<const HostTensor*>& others) {
  const NodeId mean = static_cast<NodeId>(body.nodes.size() - 1);
  const MeanExtents e = MeanExtentsOf(start.shape(), MeanAttrs::Of(body.node(mean).attrs).axes);
  const int64_t n = start.shape().empty() ? 1 : std::max<int64_t>(start.shape().back(), 1);
  const int64_t block = BlockElements(n), total = start.elements();
  if (!tail.integer) {
    const FloatChain chain = FloatChainOf(tail, others);
    OPUC_ASSIGN_OR_RETURN(HostTensor * out, ctx.AllocateOutput());
    std::vector<float>& values = KeptBuffer<float, ChainBlock>();
    std::vector<float>& sums = KeptBuffer<float, FloatMeans>();
    values.resize(static_cast<size_t>(std::min(block, total)));
    sums.assign(static_cast<size_t>(out->elements()), 0.0f);
    for (int64_t at = 0; at < total; at += block) {
      const int64_t size = std::min(block, total - at);
      std::copy(start.data<float>() + at, start.data<float>() + at + size, values.begin());
      chain.Apply(values.data(), at, size / n, n);
      AddToMeans(values.data(), at, size, e, sums.data());
    }
    float* y = out->data<float>();
    for (int64_t o = 0; o < out->elements(); ++o)
      y[o] = e.count == 0 ? sums[static_cast<size_t>(o)]
                          : sums[static_cast<size_t>(o)] / static_cast<float>(e.count);
    return OkStatus();
  }
  Expected<IntegerChain> chain = IntegerChain::Make(body, tail, others, nullptr);
  const std::vector<const HostTensor*> no_inputs;
  const std::vector<TensorType> no_types;
  const reference::KernelContext mean_ctx(body, mean, no_inputs, no_types, nullptr);
  const Expected<int> f_in = reference::InputFraction(mean_ctx, 0, "input");
  const Expected<int> f_out = reference::OutputFraction(mean_ctx);
  if (!chain.ok() || !f_in.ok() || !f_out.ok())
    return RunOpByOp(ctx, body);  // the reference names it
  OPUC_ASSIGN_OR_RETURN(HostTensor * out, ctx.AllocateOutput());
  std::vector<int64_t>& sums = KeptBuffer<int64_t, ExactMeans>();
  sums.assign(static_cast<size_t>(out->elements()), 0);
  for (int64_t at = 0; at < total; at += block)
    chain->Apply(start, at, std::min(block, total - at),
                 [&](const int32_t* values, int64_t first, int64_t count) {
                   AddToMeans(values, first, count, e, sums.data());
                 });
  const reference::IntRange range = reference::FormatRange(out->dtype());
  const reference::IntWriter y(out);
  for (int64_t o = 0; o < out->elements(); ++o) {
    OPUC_ASSIGN_OR_RETURN(
        const int64_t average,
        reference::Average(sums[static_cast<size_t>(o)], e.count, *f_out - *f_in, range));
    y.Set(o, average);
  }
  return OkStatus();
}

}  // namespace

Status Fused(reference::KernelContext& ctx) {
  const Graph* body = ctx.node().body.get();
  if (!body) return InvalidArgument("has no body (a fused node carries its function)");
  const std::optional<FusedTail> tail = MatchFusedTail(*body);
  if (!tail || body->inputs.size() != ctx.num_inputs()) return RunOpByOp(ctx, *body);

  // The body's values: its parameters are the node's arguments, its
  // constants are viewed in place. Each must have its tensor's type (else
  // the reference, op by op, says which is wrong).
  std::map<TensorId, const HostTensor*> value;
  for (size_t i = 0; i < body->inputs.size(); ++i) value[body->inputs[i]] = ctx.input(i);
  std::deque<HostTensor> constants;
  bool typed = true;
  const auto lookup = [&](TensorId t) -> Expected<const HostTensor*> {
    if (t == kNoTensor) return static_cast<const HostTensor*>(nullptr);
    const HostTensor* v = nullptr;
    if (const auto it = value.find(t); it != value.end()) {
      v = it->second;
    } else {
      OPUC_ASSIGN_OR_RETURN(HostTensor view, HostTensor::FromConstant(body->tensor(t)));
      v = value[t] = &constants.emplace_back(std::move(view));
    }
    typed &= v && v->type() == body->tensor(t).type();
    return v;
  };
  std::vector<const HostTensor*> others;
  for (TensorId t : tail->others) {
    OPUC_ASSIGN_OR_RETURN(const HostTensor* v, lookup(t));
    others.push_back(v);
  }
  std::vector<const HostTensor*> product_inputs;
  std::vector<TensorType> product_types;
  const HostTensor* start = nullptr;
  if (tail->inner_product) {
    for (TensorId t : body->nodes.front().inputs) {
      OPUC_ASSIGN_OR_RETURN(const HostTensor* v, lookup(t));
      product_inputs.push_back(v);
    }
    // The declared output type, checked against inference (else op by op
    // names what disagrees).
    Expected<std::vector<TensorType>> types =
        reference::CheckedOutputTypes(*body, 0, product_inputs);
    if (!types.ok()) return RunOpByOp(ctx, *body);
    product_types = std::move(types).value();
  } else {
    OPUC_ASSIGN_OR_RETURN(start, lookup(tail->start));
  }
  if (!typed) return RunOpByOp(ctx, *body);
  if (tail->mean) return ChainMean(ctx, *body, *tail, *start, others);

  std::vector<HostTensor> product(1);
  if (!tail->integer) {
    const FloatChain chain = FloatChainOf(*tail, others);
    if (tail->inner_product) {
      // The product computes into the fused node's own output (its arena place).
      OPUC_RETURN_IF_ERROR(RunProduct(ctx, *body, product_inputs, product_types, {&chain, nullptr},
                                      nullptr, &product));
      return ctx.SetOutput(0, std::move(product[0]));
    }
    OPUC_ASSIGN_OR_RETURN(HostTensor * out, ctx.AllocateOutput());
    const int64_t n = out->shape().empty() ? 1 : out->shape().back();
    const int64_t block = BlockElements(n), count = out->elements();
    for (int64_t e = 0; e < count; e += block) {
      const int64_t size = std::min(block, count - e);
      std::copy(start->data<float>() + e, start->data<float>() + e + size, out->data<float>() + e);
      chain.Apply(out->data<float>() + e, e, size / std::max<int64_t>(n, 1), n);
    }
    return OkStatus();
  }

  OPUC_ASSIGN_OR_RETURN(HostTensor * out, ctx.AllocateOutput());
  Expected<IntegerChain> chain = IntegerChain::Make(*body, *tail, others, out);
  if (!chain.ok()) return RunOpByOp(ctx, *body);  // the reference names what is wrong
  if (tail->inner_product) {
    const reference::OutputAllocator kept = KeptProductOutput;
    return RunProduct(ctx, *body, product_inputs, product_types, {nullptr, &*chain}, &kept,
                      &product);
  }
  const int64_t block = BlockElements(out->shape().empty() ? 1 : out->shape().back());
  for (int64_t e = 0; e < out->elements(); e += block)
    chain->Apply(*start, e, std::min(block, out->elements() - e));
  return OkStatus();
}

}  // namespace opuc::cpu
