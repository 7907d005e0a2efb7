//===- src/cpu_reference/depth_to_space.cc - DEPTH_TO_SPACE ---------------===//
//
// TensorFlow's DCR order: with block b and C' = C / b² output channels,
//   out[n, y, x, c] = input[n, y / b, x / b, ((y % b)·b + x % b)·C' + c].
// Any dtype; in a quantized graph: each element requant(q, f_in - f_out)
// (docs/numerics.md §7).
//
//===----------------------------------------------------------------------===//
#include <cstring>

#include "integer_util.h"

namespace opuc::reference {

Status EvalDepthToSpace(KernelContext& ctx) {
  HostTensor storage;
  OPUC_ASSIGN_OR_RETURN(const HostTensor* moved, MovedInput(ctx, &storage));
  const HostTensor& input = *moved;
  OPUC_ASSIGN_OR_RETURN(HostTensor * output, ctx.AllocateOutput());
  const int64_t b = DepthToSpaceAttrs::Of(ctx.attrs()).block_size;
  const Shape& is = input.shape();
  const Shape& os = output->shape();
  const auto size = static_cast<int64_t>(DTypeSize(input.dtype()));
  const uint8_t* in = input.raw();
  uint8_t* out = output->mutable_bytes();
  for (int64_t n = 0; n < os[0]; ++n)
    for (int64_t y = 0; y < os[1]; ++y)
      for (int64_t x = 0; x < os[2]; ++x)
        for (int64_t c = 0; c < os[3]; ++c) {
          const int64_t from = Nhwc(is, n, y / b, x / b, ((y % b) * b + x % b) * os[3] + c);
          std::memcpy(out + Nhwc(os, n, y, x, c) * size, in + from * size,
                      static_cast<size_t>(size));
        }
  return OkStatus();
}

}  // namespace opuc::reference
