//===- src/cpu/executor.cc - The CPU executor ---------------------===//
//
// The reference's kernel table with the CPU executor's kernels in place of
// their ops' entries, run by the reference's checks and graph walk, every
// value a run makes (but the graph's outputs) in one arena (memory_plan.h).
//
//===----------------------------------------------------------------------===//
#include "opuc/cpu/executor.h"
#include "opuc/tensor_io/allocation_limit.h"

#include "evaluate.h"
#include "kernels.h"
#include "memory_plan.h"
#include "support/format.h"

namespace opuc {
namespace {

const reference::KernelTable& CpuKernels() {
  static const reference::KernelTable table = [] {
    reference::KernelTable t = reference::ReferenceKernels();
    t[static_cast<size_t>(OpKind::kConv2D)] = [](reference::KernelContext& c) {
      return cpu::Conv2D(c);
    };
    t[static_cast<size_t>(OpKind::kDepthwiseConv2D)] = [](reference::KernelContext& c) {
      return cpu::DepthwiseConv2D(c);
    };
    t[static_cast<size_t>(OpKind::kFullyConnected)] = [](reference::KernelContext& c) {
      return cpu::FullyConnected(c);
    };
    t[static_cast<size_t>(OpKind::kTransposeConv2D)] = &cpu::TransposeConv2D;
    t[static_cast<size_t>(OpKind::kRelu)] = &cpu::Relu;
    t[static_cast<size_t>(OpKind::kRelu6)] = &cpu::Relu6;
    t[static_cast<size_t>(OpKind::kReluN1To1)] = &cpu::ReluN1To1;
    t[static_cast<size_t>(OpKind::kAdd)] = &cpu::Add;
    t[static_cast<size_t>(OpKind::kSub)] = &cpu::Sub;
    t[static_cast<size_t>(OpKind::kMean)] = &cpu::Mean;
    t[static_cast<size_t>(OpKind::kPad)] = &cpu::Pad;
    t[static_cast<size_t>(OpKind::kDepthToSpace)] = &cpu::DepthToSpace;
    t[static_cast<size_t>(OpKind::kMaxPool2D)] = &cpu::MaxPool2D;
    t[static_cast<size_t>(OpKind::kAvgPool2D)] = &cpu::AvgPool2D;
    t[static_cast<size_t>(OpKind::kSigmoid)] = &cpu::Sigmoid;
    t[static_cast<size_t>(OpKind::kHardSwish)] = &cpu::HardSwish;
    t[static_cast<size_t>(OpKind::kTanh)] = &cpu::Tanh;
    t[static_cast<size_t>(OpKind::kMul)] = &cpu::Mul;
    t[static_cast<size_t>(OpKind::kPRelu)] = &cpu::PRelu;
    t[static_cast<size_t>(OpKind::kLookupTable)] = &cpu::LookupTable;
    t[static_cast<size_t>(OpKind::kQuantize)] = &cpu::Quantize;
    t[static_cast<size_t>(OpKind::kDequantize)] = &cpu::Dequantize;
    t[static_cast<size_t>(OpKind::kSoftmax)] = &cpu::Softmax;
    t[static_cast<size_t>(OpKind::kResizeBilinear)] = &cpu::ResizeBilinear;
    t[static_cast<size_t>(OpKind::kFused)] = &cpu::Fused;
    return t;
  }();
  return table;
}

}  // namespace

namespace cpu {

Status EvaluateOnCpu(const Graph& graph, NodeId node, const std::vector<const HostTensor*>& inputs,
                     std::vector<HostTensor>* outputs,
                     const reference::OutputAllocator* allocator) {
  return reference::EvaluateNodeWith(CpuKernels(), graph, node, inputs, outputs, allocator);
}

}  // namespace cpu

Status EvaluateNodeOnCpu(const Graph& graph, NodeId node,
                         const std::vector<const HostTensor*>& inputs,
                         std::vector<HostTensor>* outputs) {
  return reference::EvaluateNodeWith(CpuKernels(), graph, node, inputs, outputs);
}

Expected<PreparedCpuNode> PreparedCpuNode::Prepare(const Graph& graph, NodeId node) {
  if (node < 0 || static_cast<size_t>(node) >= graph.nodes.size())
    return InvalidArgument(
        Cat("node ", node, " does not exist (the graph has ", graph.nodes.size(), " nodes)"));
  Expected<std::vector<TensorType>> types = reference::InferredOutputTypes(graph, node);
  if (!types.ok()) return types.status().WithContext(DescribeNode(graph, node));
  return PreparedCpuNode(graph, node, std::move(types).value());
}

Status PreparedCpuNode::Run(const std::vector<const HostTensor*>& inputs,
                            std::vector<HostTensor>* outputs) const {
  const Status checked = reference::CheckInputTypes(*graph_, node_, inputs);
  if (!checked.ok()) return checked.WithContext(DescribeNode(*graph_, node_));
  bool reuse = outputs->size() == types_.size();
  for (size_t i = 0; reuse && i < types_.size(); ++i)
    reuse = (*outputs)[i].type() == types_[i] && !(*outputs)[i].is_view();
  if (!reuse)
    return reference::RunKernelWith(CpuKernels(), *graph_, node_, inputs, types_, outputs);
  std::vector<HostTensor> previous = std::move(*outputs);
  const reference::OutputAllocator in_place = [&](size_t i, const TensorType& type) {
    return HostTensor::Within(previous[i], 0, type.dtype, type.shape);
  };
  return reference::RunKernelWith(CpuKernels(), *graph_, node_, inputs, types_, outputs, &in_place);
}

Expected<std::vector<HostTensor>> RunCpu(const Graph& graph, const std::vector<HostTensor>& inputs,
                                         const TensorObserver& observe) {
  const cpu::TensorLayout layout = cpu::LayOutTensors(graph);
  OPUC_RETURN_IF_ERROR(
      CheckAllocation(static_cast<uint64_t>(layout.arena.arena_bytes), "the CPU executor's arena"));
  OPUC_ASSIGN_OR_RETURN(HostTensor arena,
                        HostTensor::Zeros(DType::kI8, {layout.arena.arena_bytes}));
  const auto evaluate = [&](const Graph& g, NodeId id, const std::vector<const HostTensor*>& args,
                            std::vector<HostTensor>* results) {
    const reference::OutputAllocator in_arena = [&](size_t i, const TensorType& type) {
      const TensorId t = g.node(id).outputs[i];
      const int64_t offset = layout.offset[static_cast<size_t>(t)];
      return offset < 0
                 ? HostTensor::Zeros(type.dtype, type.shape)
                 : HostTensor::Within(arena, static_cast<size_t>(offset), type.dtype, type.shape);
    };
    return reference::EvaluateNodeWith(CpuKernels(), g, id, args, results, &in_arena);
  };
  return reference::RunGraphWith(graph, inputs, observe, evaluate);
}

CpuMemoryPlan PlanCpuMemory(const Graph& graph) {
  const cpu::TensorLayout layout = cpu::LayOutTensors(graph);
  return {layout.arena.arena_bytes, layout.arena.lower_bound, layout.values};
}

}  // namespace opuc
