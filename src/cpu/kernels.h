//===- src/cpu/kernels.h - The CPU executor's own kernels -*- C++ -*-===//
//
// Each replaces the reference kernel of its op in the CPU executor's table
// (executor.cc) and has its contract: same inputs, same outputs, integers
// bit for bit, floats within docs/cpu-executor.md's tolerance. Every other
// op runs on its reference kernel.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_CPU_KERNELS_H
#define OPUC_SRC_CPU_KERNELS_H

#include "chain_step.h"
#include "kernel.h"

namespace opuc::cpu {

/// The inner products; `tail` follows each block of output, for a fused
/// function's elementwise tail (fused.cc).
Status Conv2D(reference::KernelContext& ctx, Tail tail = {});
Status DepthwiseConv2D(reference::KernelContext& ctx, Tail tail = {});
Status FullyConnected(reference::KernelContext& ctx, Tail tail = {});
/// Float and 8-bit inputs; i16 inputs run on the reference's kernel.
Status TransposeConv2D(reference::KernelContext& ctx);
Status Relu(reference::KernelContext& ctx);
Status Relu6(reference::KernelContext& ctx);
Status ReluN1To1(reference::KernelContext& ctx);
/// Same-shape operands; a broadcasting add or sub runs on the reference's kernel.
Status Add(reference::KernelContext& ctx);
Status Sub(reference::KernelContext& ctx);
/// Reduced axes that are one run of dimensions; others on the reference's kernel.
Status Mean(reference::KernelContext& ctx);
Status Pad(reference::KernelContext& ctx);
Status DepthToSpace(reference::KernelContext& ctx);
Status MaxPool2D(reference::KernelContext& ctx);
Status AvgPool2D(reference::KernelContext& ctx);
Status Sigmoid(reference::KernelContext& ctx);
Status HardSwish(reference::KernelContext& ctx);
Status Tanh(reference::KernelContext& ctx);
/// x = op(x) over `count` floats for sigmoid, hard_swish and tanh, as their
/// kernels compute it (a fused chain's step); false for any other op.
bool FloatUnaryInPlace(OpKind op, float* x, int64_t count);
/// The rhs of the output's shape or repeating along it (binary.cc); other
/// broadcasts run on the reference's kernels.
Status Mul(reference::KernelContext& ctx);
Status PRelu(reference::KernelContext& ctx);
Status LookupTable(reference::KernelContext& ctx);
/// Integer sums that fit int32 (others on the reference's kernel), and floats.
Status ResizeBilinear(reference::KernelContext& ctx);
Status Quantize(reference::KernelContext& ctx);
/// A per-tensor fixed point of an activation's length; per-axis ones, other
/// lengths and f16 on the reference's kernel.
Status Dequantize(reference::KernelContext& ctx);
/// Float inputs; quantized ones on the reference's kernel.
Status Softmax(reference::KernelContext& ctx);
/// A fused node: one kernel for an elementwise chain after an inner product
/// or from an argument (maybe into a mean), its body op by op otherwise.
Status Fused(reference::KernelContext& ctx);

/// EvaluateNodeOnCpu with the outputs taken from `allocator` when given (a
/// fused body's last node writes the fused node's own place).
Status EvaluateOnCpu(const Graph& graph, NodeId node, const std::vector<const HostTensor*>& inputs,
                     std::vector<HostTensor>* outputs, const reference::OutputAllocator* allocator);

}  // namespace opuc::cpu

#endif  // OPUC_SRC_CPU_KERNELS_H
