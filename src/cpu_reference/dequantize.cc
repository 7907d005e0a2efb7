//===- src/cpu_reference/dequantize.cc - DEQUANTIZE -----------------------===//
//
// f16 → f32: the exact value of each half (HalfToFloat: subnormals, ±0, ±inf
// and NaN included). i8, u8, i16 → f32: q · 2^-f with the input tensor's fixed point,
// per tensor or per index along its axis (docs/numerics.md); exact, since a
// float holds every such value.
//
//===----------------------------------------------------------------------===//
#include <cmath>

#include "integer_util.h"
#include "opuc/tensor_io/half.h"
#include "support/format.h"

namespace opuc::reference {
namespace {

Status DequantizeInt(KernelContext& ctx, HostTensor& out) {
  const FixedPoint& fp = ctx.input_tensor(0).fixed_point;
  const HostTensor& input = *ctx.input(0);
  if (fp.empty())
    return Unsupported(Cat("input '", ctx.input_tensor(0).name, "' is ", DTypeName(input.dtype()),
                           " without a fixed point; its scale is unknown"));
  // Elements between consecutive indices of the axis, and the axis extent.
  int64_t inner = 1, extent = 1;
  if (fp.axis >= 0) {
    extent = input.shape()[static_cast<size_t>(fp.axis)];
    for (size_t d = static_cast<size_t>(fp.axis) + 1; d < input.shape().size(); ++d)
      inner *= input.shape()[d];
  }
  const std::vector<int32_t> q = Widened(input);
  float* y = out.data<float>();
  for (int64_t i = 0; i < input.elements(); ++i) {
    const auto channel = static_cast<size_t>(fp.axis >= 0 ? (i / inner) % extent : 0);
    y[i] = std::ldexp(static_cast<float>(q[static_cast<size_t>(i)]), -fp.fraction_bits[channel]);
  }
  return OkStatus();
}

}  // namespace

Status EvalDequantize(KernelContext& ctx) {
  OPUC_ASSIGN_OR_RETURN(HostTensor * out, ctx.AllocateOutput());
  const HostTensor& input = *ctx.input(0);
  if (IsQuantizedFormat(input.dtype())) return DequantizeInt(ctx, *out);
  if (input.dtype() != DType::kF16)
    return ctx.UnsupportedDType("input", input.dtype(), "f16, i8, u8, i16");
  const uint16_t* h = input.data<uint16_t>();
  float* y = out->data<float>();
  for (int64_t i = 0; i < input.elements(); ++i) y[i] = HalfToFloat(h[i]);
  return OkStatus();
}

}  // namespace opuc::reference
