//===- src/cpu/unary.cc - LOOKUP_TABLE, QUANTIZE, DEQUANTIZE ------===//
//
// The reference's rules (numerics.md §6 and §7) in typed loops: the
// reference widens every element to int32 and writes each through a switch
// on the output's format. A table is read once into an array of int32; an
// i16 input interpolates between its high byte's knots (Interpolate, the
// rule itself). Quantize rounds half up in
// float64 as the reference does (x · 2^f is exact there), without a call
// per element. Dequantize multiplies by 2^-f, which is exact (|q| ≤ 2^15,
// f in [-8, 23]) and so the reference's ldexp; a per-axis fixed point, any
// other f, and f16 inputs run on the reference's kernel.
//
//===----------------------------------------------------------------------===//
#include <cmath>

#include "kernels.h"
#include "typed_map.h"

namespace opuc::cpu {
Status LookupTable(reference::KernelContext& ctx) {
  const HostTensor& x = *ctx.input(0);
  OPUC_ASSIGN_OR_RETURN(HostTensor * y, ctx.AllocateOutput());
  const std::vector<int32_t> table = reference::Widened(*ctx.input(1));  // 256 or 257 entries
  const int32_t* t = table.data();
  return VisitFormats(x.dtype(), y->dtype(), [&](auto in, auto out) {
    using In = decltype(in);
    using Out = decltype(out);
    if constexpr (std::is_same_v<In, int16_t>) {
      Map<In, Out>(x, y, [t](int32_t q) {
        const Int16Bytes b = SplitInt16(q);
        return static_cast<Out>(Interpolate(t[b.high + 128], t[b.high + 129], b.low));
      });
    } else {
      const int offset = std::is_same_v<In, int8_t> ? 128 : 0;
      Map<In, Out>(x, y, [t, offset](int32_t q) { return static_cast<Out>(t[q + offset]); });
    }
    return OkStatus();
  });
}

Status Quantize(reference::KernelContext& ctx) {
  OPUC_RETURN_IF_ERROR(reference::RequireF32(ctx, 0, "input"));
  OPUC_ASSIGN_OR_RETURN(int f, reference::OutputFraction(ctx));
  OPUC_ASSIGN_OR_RETURN(HostTensor * y, ctx.AllocateOutput());
  const reference::IntRange range = reference::FormatRange(y->dtype());
  const double scale = std::ldexp(1.0, f);
  const auto lo = static_cast<double>(range.lo), hi = static_cast<double>(range.hi);
  return reference::VisitFormat(y->dtype(), [&](auto out) {
    using Out = decltype(out);
    Map<float, Out>(*ctx.input(0), y, [=](float x) {
      const double v = static_cast<double>(x) * scale;  // exact: ldexp(x, f)
      const double down = std::floor(v);
      // Rhu, then the clamp; ±inf clamp to the ends (inf − inf is NaN, so
      // the half test is false), NaN gives 0.
      const double rounded = down + (v - down >= 0.5 ? 1.0 : 0.0);
      const double clamped = rounded < lo ? lo : rounded > hi ? hi : rounded;
      return static_cast<Out>(v != v ? 0.0 : clamped);
    });
    return OkStatus();
  });
}

Status Dequantize(reference::KernelContext& ctx) {
  const HostTensor& x = *ctx.input(0);
  const FixedPoint& fp = ctx.input_tensor(0).fixed_point;
  // The product is exact (the reference's ldexp) for an activation's fraction lengths.
  if (!IsQuantizedFormat(x.dtype()) || fp.axis >= 0 || fp.fraction_bits.size() != 1 ||
      fp.fraction_bits[0] < reference::kMinActivationFraction ||
      fp.fraction_bits[0] > reference::kMaxWideActivationFraction)
    return reference::EvalDequantize(ctx);
  OPUC_ASSIGN_OR_RETURN(HostTensor * y, ctx.AllocateOutput());
  const float scale = std::ldexp(1.0f, -fp.fraction_bits[0]);
  return reference::VisitFormat(x.dtype(), [&](auto in) {
    Map<decltype(in), float>(x, y, [scale](auto q) { return static_cast<float>(q) * scale; });
    return OkStatus();
  });
}

}  // namespace opuc::cpu
