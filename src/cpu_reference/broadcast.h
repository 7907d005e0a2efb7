//===- src/cpu_reference/broadcast.h - NumPy broadcasting -------*- C++ -*-===//
//
// Binary elementwise kernels visit the output in C order and read each
// operand at the index its shape broadcasts to: shapes are aligned at their
// last dimension, and an extent of 1 (or a missing leading dimension) is
// read at index 0, as NumPy does.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_CPU_REFERENCE_BROADCAST_H
#define OPUC_SRC_CPU_REFERENCE_BROADCAST_H

#include <cstdint>
#include <vector>

#include "integer_util.h"
#include "support/format.h"

namespace opuc::reference {

/// For each output element (C order), the offset of the element of an
/// operand of shape `operand` that broadcasts to it.
std::vector<int64_t> BroadcastOffsets(const Shape& operand, const Shape& output);

/// out[i] = act(fn(a[i], b[i])) with broadcasting, over f32 inputs 0 and 1.
template <typename Fn>
Status BinaryF32(KernelContext& ctx, Fn fn) {
  OPUC_RETURN_IF_ERROR(RequireF32(ctx, 0, "lhs"));
  OPUC_ASSIGN_OR_RETURN(HostTensor * out, ctx.AllocateOutput());
  const HostTensor& a = *ctx.input(0);
  const HostTensor& b = *ctx.input(1);
  const std::vector<int64_t> ia = BroadcastOffsets(a.shape(), out->shape());
  const std::vector<int64_t> ib = BroadcastOffsets(b.shape(), out->shape());
  const Activation activation = FusedActivation(ctx.attrs());
  const float* x = a.data<float>();
  const float* y = b.data<float>();
  float* z = out->data<float>();
  for (int64_t i = 0; i < out->elements(); ++i) {
    const auto k = static_cast<size_t>(i);
    z[i] = Activate(activation, fn(x[ia[k]], y[ib[k]]));
  }
  return OkStatus();
}

/// The fraction lengths of an integer binary op: lhs, rhs, output.
struct BinaryFractions {
  int lhs = 0;
  int rhs = 0;
  int out = 0;
};

/// The fraction lengths of inputs 0 and 1 (named `lhs` and `rhs` in errors)
/// and of the output, checked; `alpha`: see BinaryInt.
inline Expected<BinaryFractions> ReadBinaryFractions(const KernelContext& ctx, std::string_view lhs,
                                                     std::string_view rhs, bool alpha) {
  BinaryFractions f;
  OPUC_ASSIGN_OR_RETURN(f.lhs, InputFraction(ctx, 0, lhs));
  if (alpha) {
    OPUC_ASSIGN_OR_RETURN(f.rhs, TensorFraction(ctx.input_tensor(1), Cat("input '", rhs, "'"),
                                                kMinWeightFraction, kMaxWeightFraction));
  } else {
    OPUC_ASSIGN_OR_RETURN(f.rhs, InputFraction(ctx, 1, rhs));
  }
  OPUC_ASSIGN_OR_RETURN(f.out, OutputFraction(ctx));
  return f;
}

/// out[i] = clamp(fn(f, a[i], b[i])) with broadcasting, over the quantized
/// inputs 0 and 1 (called `lhs` and `rhs`; any of i8, u8, i16, read as
/// integers): `fn` is the op's rule of docs/numerics.md §5 on the true
/// values, the clamp the output's format narrowed by the fused activation
/// (§3) when the op has one. `alpha`: the rhs is prelu's alpha, an i8
/// tensor whose fraction length may reach 23 (a weight's).
template <typename Fn>
Status BinaryInt(KernelContext& ctx, std::string_view lhs, std::string_view rhs, Fn fn,
                 bool alpha = false) {
  OPUC_ASSIGN_OR_RETURN(const BinaryFractions f, ReadBinaryFractions(ctx, lhs, rhs, alpha));
  OPUC_ASSIGN_OR_RETURN(const IntRange range, OutputRange(ctx, f.out));
  OPUC_ASSIGN_OR_RETURN(HostTensor * out, ctx.AllocateOutput());
  const HostTensor& a = *ctx.input(0);
  const HostTensor& b = *ctx.input(1);
  const std::vector<int64_t> ia = BroadcastOffsets(a.shape(), out->shape());
  const std::vector<int64_t> ib = BroadcastOffsets(b.shape(), out->shape());
  const std::vector<int32_t> x = Widened(a);
  const std::vector<int32_t> y = Widened(b);
  const IntWriter z(out);
  for (int64_t i = 0; i < out->elements(); ++i) {
    const auto k = static_cast<size_t>(i);
    z.Set(i, range.Clamp(fn(f, x[static_cast<size_t>(ia[k])], y[static_cast<size_t>(ib[k])])));
  }
  return OkStatus();
}

/// add and sub on quantized inputs (§5): both operands shifted up exactly
/// to F = max(f_lhs, f_rhs, f_out), combined (`sign` +1 or -1 for the rhs),
/// and rounded once: shr_rhu(s, F - f_out), saturated to the output.
Status AddSubInt(KernelContext& ctx, int sign);

}  // namespace opuc::reference

#endif  // OPUC_SRC_CPU_REFERENCE_BROADCAST_H
