//===- src/cpu/reference/quantize.cc - QUANTIZE ---------------------------===//
//
// f32 → i8 at the output tensor's fraction length f (docs/numerics.md §7):
// q = sat_int8(rhu(x · 2^f)) on the float32 value widened to float64;
// +inf → 127, −inf → −128, NaN → 0.
//
//===----------------------------------------------------------------------===//
#include "integer_util.h"

namespace opuc::reference {

Status EvalQuantize(KernelContext& ctx) {
  OPUC_RETURN_IF_ERROR(RequireF32(ctx, 0, "input"));
  OPUC_ASSIGN_OR_RETURN(int f, OutputFraction(ctx));
  OPUC_ASSIGN_OR_RETURN(HostTensor * out, ctx.AllocateOutput());
  const float* x = ctx.input(0)->data<float>();
  int8_t* y = out->data<int8_t>();
  for (int64_t i = 0; i < out->elements(); ++i) y[i] = QuantizeToInt8(static_cast<double>(x[i]), f);
  return OkStatus();
}

}  // namespace opuc::reference
