//===- src/cpu/reference/integer_util.h - Shared pieces of i8 kernels -*- C++ -*-===//
//
// What the integer branches of the kernels share (docs/numerics.md): reading
// and range-checking fraction lengths from the graph's tensors, the fused
// activation as an int8 clamp (§3), the output stage of inner products with
// its int32 check, averages, and the requantized copies that data-movement
// kernels move. Every error names the tensor.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_CPU_REFERENCE_INTEGER_UTIL_H
#define OPUC_SRC_CPU_REFERENCE_INTEGER_UTIL_H

#include <cstdint>
#include <string_view>
#include <vector>

#include "kernel_util.h"
#include "opuc/numerics/fixed_point.h"

namespace opuc::reference {

/// Activation fraction lengths, numerics.md §1.
inline constexpr int kMinActivationFraction = -8;
inline constexpr int kMaxActivationFraction = 15;
/// Weight (and prelu alpha) fraction lengths.
inline constexpr int kMinWeightFraction = -8;
inline constexpr int kMaxWeightFraction = 23;

/// The single (per-tensor) fraction length of `tensor`, in [lo, hi]; else an
/// error naming the tensor and its `role` ("input 'lhs'", "output").
Expected<int> TensorFraction(const Tensor& tensor, std::string_view role, int lo, int hi);
/// The same for an activation: f in [-8, 15].
Expected<int> ActivationFraction(const Tensor& tensor, std::string_view role);
/// Of input `i` (called `role`) / output `i` of the node.
Expected<int> InputFraction(const KernelContext& ctx, size_t i, std::string_view role);
Expected<int> OutputFraction(const KernelContext& ctx, size_t i = 0);

/// One fraction length per index of `axis` (extent `channels`) of a weight
/// tensor, each in [-8, 23]: per channel along `axis`, or one per tensor
/// repeated. Any other axis is an error naming the tensor.
Expected<std::vector<int>> WeightFractions(const Tensor& tensor, std::string_view role, int axis,
                                           int64_t channels);

/// The int8 interval of a fused activation at f_out (§3): relu [0, 127],
/// relu6 [0, quantize(6, f)], relu_n1_to_1 [quantize(-1, f), quantize(1, f)],
/// none [-128, 127]. A fused tanh is Unsupported (the quantizer makes it a
/// lookup_table node).
struct Int8Range {
  int lo = -128;
  int hi = 127;
  int8_t Clamp(int8_t v) const { return static_cast<int8_t>(v < lo ? lo : v > hi ? hi : v); }
};
/// The interval of `activation` at f_out; an error for tanh.
Expected<Int8Range> ActivationRange(Activation activation, int f_out);
/// Of the node's `activation` attribute.
Expected<Int8Range> FusedActivationRange(const KernelContext& ctx, int f_out);

/// An error unless `acc` lies in int32 (numerics.md §2: the quantizer proves
/// the bound; a graph that violates it is rejected, never wrapped).
Status CheckAccumulator(const KernelContext& ctx, int64_t acc, int64_t channel);

/// avg_pool2d and mean (§5): sat_int8(rhu_div(sum · 2^max(d,0),
/// count · 2^max(-d,0))) with d = f_out - f_in; 0 when count is 0. An error
/// (never UB) if the scaled operands leave the range where rhu_div is exact
/// in int64 (a window of more than 2^30 taps).
Expected<int8_t> AverageI8(int64_t sum, int64_t count, int d);

/// Unsupported: "<op> on i8 needs a lookup_table (run the quantizer)".
Status NeedsLookupTable(const KernelContext& ctx);

/// Unary int8 kernels of one input: y = fn(q) over input 0, which must be i8.
template <typename Fn>
Status UnaryI8(KernelContext& ctx, Fn fn) {
  OPUC_ASSIGN_OR_RETURN(HostTensor * out, ctx.AllocateOutput());
  const int8_t* x = ctx.input(0)->data<int8_t>();
  int8_t* y = out->data<int8_t>();
  for (int64_t i = 0; i < out->elements(); ++i) y[i] = fn(x[i]);
  return OkStatus();
}

/// relu, relu6, relu_n1_to_1 on i8: every element of input 0 becomes
/// requant(q, f_in - f_out), then the clamp of `activation` at f_out (§3).
Status ActivationI8(KernelContext& ctx, Activation activation);

/// Whether an i8 data-movement node is part of a quantized graph: its input 0
/// or its output has a fixed point. Without one, i8 elements move as they are.
bool IsQuantizedI8(const KernelContext& ctx);

/// Input `i` (i8) with every element requant(q, f_i - f_out) (§7: data
/// movement keeps values, and rescales them when the fraction lengths differ).
Expected<HostTensor> RequantizedInput(const KernelContext& ctx, size_t i, std::string_view role);

/// What a data-movement kernel moves from input 0: the input itself, or, in
/// a quantized graph (IsQuantizedI8), its requantized copy kept in *storage.
Expected<const HostTensor*> MovedInput(const KernelContext& ctx, HostTensor* storage);

/// The output stage of an i8 inner product (§2, §3): per output channel c the
/// shift S[c] = f_in + f_w[c] - f_out (M = 1), the bias, and the fused clamp.
struct InnerProductStage {
  std::vector<int> shift;
  const int32_t* bias = nullptr;  ///< Absent: 0.
  Int8Range range;
  /// Writes to *y: acc (the exact sum of products) plus the bias of channel
  /// c, checked to lie in int32, through the output stage and the clamp.
  Status Finish(const KernelContext& ctx, int64_t acc, int64_t c, int8_t* y) const;
};
/// Reads f_in (input 0), f_w (input 1, per channel along `weight_axis` with
/// `channels` output channels), the bias (input 2) and f_out.
Expected<InnerProductStage> MakeInnerProductStage(const KernelContext& ctx, int weight_axis,
                                                  int64_t channels);

}  // namespace opuc::reference

#endif  // OPUC_SRC_CPU_REFERENCE_INTEGER_UTIL_H
