//===- src/cpu_reference/quantize.cc - QUANTIZE ---------------------------===//
//
// f32 → the output's format (i8, u8 or i16) at its fraction length f
// (docs/numerics.md §7): q = clamp(rhu(x · 2^f), lo, hi) on the float32
// value widened to float64; +inf → hi, −inf → lo, NaN → 0.
//
//===----------------------------------------------------------------------===//
#include "integer_util.h"

namespace opuc::reference {

Status EvalQuantize(KernelContext& ctx) {
  OPUC_RETURN_IF_ERROR(RequireF32(ctx, 0, "input"));
  OPUC_ASSIGN_OR_RETURN(int f, OutputFraction(ctx));
  OPUC_ASSIGN_OR_RETURN(HostTensor * out, ctx.AllocateOutput());
  const IntRange range = FormatRange(out->dtype());
  const float* x = ctx.input(0)->data<float>();
  const IntWriter y(out);
  for (int64_t i = 0; i < out->elements(); ++i)
    y.Set(i, QuantizeTo(static_cast<double>(x[i]), f, range.lo, range.hi));
  return OkStatus();
}

}  // namespace opuc::reference
