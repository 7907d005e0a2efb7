//===- src/cpu_reference/prelu.cc - PRELU ---------------------------------===//
//
// out = x >= 0 ? x : x · alpha, where alpha broadcasts to the input's shape
// (NumPy rules, broadcast.h), as TFLite's reference PRelu. Quantized
// (docs/numerics.md §5): alpha has one fraction length f_α in [-8, 23];
// q >= 0 gives requant(q, f_in - f_out), q < 0 the exact product
// requant(q · q_α, f_in + f_α - f_out): one rounding either way.
//
//===----------------------------------------------------------------------===//
#include "broadcast.h"

namespace opuc::reference {

Status EvalPRelu(KernelContext& ctx) {
  if (IsQuantizedInput(ctx))
    return BinaryInt(
        ctx, "input", "alpha",
        [](const BinaryFractions& f, int32_t q, int32_t alpha) {
          return q >= 0 ? ShrRhu(q, f.lhs - f.out)
                        : ShrRhu(int64_t{q} * alpha, f.lhs + f.rhs - f.out);
        },
        /*alpha=*/true);
  OPUC_RETURN_IF_ERROR(RequireF32(ctx, 0, "input"));
  OPUC_ASSIGN_OR_RETURN(HostTensor * out, ctx.AllocateOutput());
  const HostTensor& alpha = *ctx.input(1);
  const std::vector<int64_t> ia = BroadcastOffsets(alpha.shape(), out->shape());
  const float* x = ctx.input(0)->data<float>();
  const float* a = alpha.data<float>();
  float* y = out->data<float>();
  for (int64_t i = 0; i < out->elements(); ++i)
    y[i] = x[i] >= 0.0f ? x[i] : x[i] * a[ia[static_cast<size_t>(i)]];
  return OkStatus();
}

}  // namespace opuc::reference
