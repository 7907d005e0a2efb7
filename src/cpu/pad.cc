//===- src/cpu/pad.cc - PAD ---------------------------------------===//
//
// The reference's pad (pad.h) with a faster move of a quantized input into
// the output's format.
//
//===----------------------------------------------------------------------===//
#include "pad.h"
#include "kernels.h"
#include "requant32.h"
#include "typed_map.h"

namespace opuc::cpu {

Status Pad(reference::KernelContext& ctx) {
  const HostTensor& x = *ctx.input(0);
  if (!reference::IsQuantizedMove(ctx)) return reference::PadMoved(ctx, x);
  // Quantized: requant(q, f_in - f_out) into the output's format (§7), in a
  // typed loop; nothing to do when neither the format nor f changes.
  OPUC_ASSIGN_OR_RETURN(int f_in, reference::InputFraction(ctx, 0, "input"));
  OPUC_ASSIGN_OR_RETURN(int f_out, reference::OutputFraction(ctx));
  const DType format = ctx.output_tensor().dtype;
  if (f_in == f_out && x.dtype() == format) return reference::PadMoved(ctx, x);
  OPUC_ASSIGN_OR_RETURN(HostTensor moved, HostTensor::Zeros(format, x.shape()));
  const reference::IntRange range = reference::FormatRange(format);
  const int shift = f_in - f_out;
  OPUC_RETURN_IF_ERROR(VisitFormats(x.dtype(), format, [&](auto in, auto out) {
    using Out = decltype(out);
    if (Requant32::Covers(shift)) {
      const FixedRequant requant(shift, range.lo, range.hi);
      Map<decltype(in), Out>(x, &moved, [&](auto q) { return static_cast<Out>(requant(q)); });
      return OkStatus();
    }
    Map<decltype(in), Out>(x, &moved, [&](auto q) {
      return static_cast<Out>(RequantTo(q, shift, range.lo, range.hi));
    });
    return OkStatus();
  }));
  return reference::PadMoved(ctx, moved);
}

}  // namespace opuc::cpu
