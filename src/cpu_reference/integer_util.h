//===- src/cpu_reference/integer_util.h - Shared pieces of integer kernels -*- C++ -*-===//
//
// What the integer branches of the kernels share (docs/numerics.md): the
// three activation formats (i8, u8, i16) and their ranges, reading and
// range-checking fraction lengths, the fused activation as a clamp (§3),
// the output stage of inner products with its accumulator check, averages,
// and the requantized copies that data-movement kernels move. Every result
// is computed on the true integer value and saturated once to the output's
// format (narrowed by a fused activation). Every error names the tensor.
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

/// Activation fraction lengths, numerics.md §1: [-8, 15] for i8 and u8,
/// [-8, 23] for i16.
inline constexpr int kMinActivationFraction = -8;
inline constexpr int kMaxActivationFraction = 15;
inline constexpr int kMaxWideActivationFraction = 23;
/// Weight (and prelu alpha) fraction lengths.
inline constexpr int kMinWeightFraction = -8;
inline constexpr int kMaxWeightFraction = 23;

/// The largest fraction length of an activation in `format` (i8, u8, i16).
int MaxActivationFraction(DType format);

/// An integer interval: a format's range, maybe narrowed by a fused activation.
struct IntRange {
  int64_t lo = -128;
  int64_t hi = 127;
  int64_t Clamp(int64_t v) const { return v < lo ? lo : v > hi ? hi : v; }
};
/// The integers a quantized format holds: i8 [-128, 127], u8 [0, 255],
/// i16 [-32768, 32767] (`format` must satisfy IsQuantizedFormat).
IntRange FormatRange(DType format);

/// Whether input `i` of the node is in a quantized format (i8, u8, i16).
bool IsQuantizedInput(const KernelContext& ctx, size_t i = 0);

/// The (per-tensor) fraction length of `tensor`, in [lo, hi]; else an error
/// naming the tensor and its `role` ("input 'lhs'", "output").
Expected<int> TensorFraction(const Tensor& tensor, std::string_view role, int lo, int hi);
/// The same for an activation: a quantized format, f in [-8, 15] (i16: 23).
Expected<int> ActivationFraction(const Tensor& tensor, std::string_view role);
/// Of input `i` (called `role`) / output `i` of the node.
Expected<int> InputFraction(const KernelContext& ctx, size_t i, std::string_view role);
Expected<int> OutputFraction(const KernelContext& ctx, size_t i = 0);

/// One fraction length per index of `axis` (extent `channels`) of a weight
/// tensor, each in [-8, 23]: per channel along `axis`, or one per tensor
/// repeated. Any other axis is an error naming the tensor.
Expected<std::vector<int>> WeightFractions(const Tensor& tensor, std::string_view role, int axis,
                                           int64_t channels);

/// The interval of a fused activation at f_out in `format` (§3): relu
/// [0, hi], relu6 [0, quantize(6, f)], relu_n1_to_1 [quantize(-1, f),
/// quantize(1, f)], none the whole format; quantize saturates to the format.
/// A fused tanh is Unsupported (the quantizer makes it a lookup_table node).
Expected<IntRange> ActivationRange(Activation activation, int f_out, DType format);
/// The range of output 0: its format, narrowed by the node's fused
/// activation when the op has one.
Expected<IntRange> OutputRange(const KernelContext& ctx, int f_out);

/// Input `i` (i8, u8, i16 or i32) as int32 values.
std::vector<int32_t> Widened(const HostTensor& tensor);

/// Writes integers already inside the range of `out`'s format (i8, u8, i16).
class IntWriter {
 public:
  explicit IntWriter(HostTensor* out) : out_(out), dtype_(out->dtype()) {}
  void Set(int64_t i, int64_t v) const;

 private:
  HostTensor* out_;
  DType dtype_;
};

/// An error unless `acc` lies in the accumulator: int32 for 8-bit inputs,
/// int48 for i16 inputs (numerics.md §2: the quantizer proves the bound; a
/// graph that violates it is rejected, never wrapped).
Status CheckAccumulator(const KernelContext& ctx, int64_t acc, int64_t channel);

/// avg_pool2d and mean (§5): rhu_div(sum · 2^max(d,0), count · 2^max(-d,0))
/// with d = f_out - f_in, saturated to `range`; 0 when count is 0. An error
/// (never UB) if the scaled operands leave the range where rhu_div is exact
/// in int64 (a window of more than 2^30 taps).
Expected<int64_t> Average(int64_t sum, int64_t count, int d, IntRange range);

/// Unsupported: "<op> on <format> needs a lookup_table (run the quantizer)".
Status NeedsLookupTable(const KernelContext& ctx);

/// Unary integer kernels of one input: y = fn(q) over input 0, read as
/// int32; fn's result must lie in the output's format.
template <typename Fn>
Status UnaryInt(KernelContext& ctx, Fn fn) {
  OPUC_ASSIGN_OR_RETURN(HostTensor * out, ctx.AllocateOutput());
  const std::vector<int32_t> x = Widened(*ctx.input(0));
  const IntWriter y(out);
  for (int64_t i = 0; i < out->elements(); ++i) y.Set(i, fn(x[static_cast<size_t>(i)]));
  return OkStatus();
}

/// relu, relu6, relu_n1_to_1 on a quantized input: every element becomes
/// requant(q, f_in - f_out), saturated to the output's format and clamped
/// by `activation` at f_out (§3).
Status ActivationInt(KernelContext& ctx, Activation activation);

/// Whether a data-movement node is part of a quantized graph: input 0 is in
/// a quantized format and it or the output has a fixed point. Otherwise
/// elements move as they are.
bool IsQuantizedMove(const KernelContext& ctx);

/// Input `i` moved into the output's format: every element becomes
/// requant(q, f_i - f_out) clamped to `range` (§7: data movement keeps
/// values, and rescales them when the fraction lengths differ).
Expected<HostTensor> RequantizedInput(const KernelContext& ctx, size_t i, std::string_view role,
                                      IntRange range);

/// What a data-movement kernel moves from input 0: the input itself, or, in
/// a quantized graph (IsQuantizedMove), its copy in the output's format kept
/// in *storage.
Expected<const HostTensor*> MovedInput(const KernelContext& ctx, HostTensor* storage);

/// The output stage of an integer inner product (§2, §3): per output channel
/// c the shift S[c] = f_in + f_w[c] - f_out (M = 1), the bias, and the
/// output's range (format and fused clamp).
struct InnerProductStage {
  std::vector<int> shift;
  const int32_t* bias = nullptr;  ///< Absent: 0.
  IntRange range;
  /// acc (the exact sum of products) plus the bias of channel c, checked to
  /// lie in the accumulator, through the output stage and the clamp.
  Expected<int64_t> Finish(const KernelContext& ctx, int64_t acc, int64_t c) const;
};
/// Reads f_in (input 0), f_w (input 1, per channel along `weight_axis` with
/// `channels` output channels), the bias (input 2) and f_out.
Expected<InnerProductStage> MakeInnerProductStage(const KernelContext& ctx, int weight_axis,
                                                  int64_t channels);

/// Calls fn(T{}) with the element type of a quantized format: int8_t,
/// uint8_t or int16_t.
template <typename Fn>
decltype(auto) VisitFormat(DType format, Fn fn) {
  switch (format) {
    case DType::kU8: return fn(uint8_t{});
    case DType::kI16: return fn(int16_t{});
    default: return fn(int8_t{});
  }
}

}  // namespace opuc::reference

#endif  // OPUC_SRC_CPU_REFERENCE_INTEGER_UTIL_H
