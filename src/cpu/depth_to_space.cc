//===- src/cpu/depth_to_space.cc - DEPTH_TO_SPACE as row copies --===//
//
// The reference's rule (depth_to_space.cc): output pixel (y, x) takes input
// pixel (y / b, x / b)'s channels from ((y mod b) · b + x mod b) · C on, C
// of them: one contiguous run per output pixel, copied whole rather than
// element by element; a quantized input moved into the output's format
// first, as the reference moves it.
//
//===----------------------------------------------------------------------===//
#include <cstring>

#include "integer_util.h"
#include "kernels.h"

namespace opuc::cpu {

Status DepthToSpace(reference::KernelContext& ctx) {
  HostTensor storage;
  OPUC_ASSIGN_OR_RETURN(const HostTensor* input, reference::MovedInput(ctx, &storage));
  OPUC_ASSIGN_OR_RETURN(HostTensor * output, ctx.AllocateOutput());
  const int64_t b = DepthToSpaceAttrs::Of(ctx.attrs()).block_size;
  const Shape& is = input->shape();
  const Shape& os = output->shape();
  const auto size = static_cast<int64_t>(DTypeSize(input->dtype()));
  const auto run = static_cast<size_t>(os[3] * size);
  if (run == 0) return OkStatus();
  const uint8_t* in = input->raw();
  uint8_t* out = output->mutable_bytes();
  for (int64_t n = 0; n < os[0]; ++n)
    for (int64_t y = 0; y < os[1]; ++y)
      for (int64_t x = 0; x < os[2]; ++x) {
        const int64_t from = Nhwc(is, n, y / b, x / b, ((y % b) * b + x % b) * os[3]);
        std::memcpy(out + Nhwc(os, n, y, x, 0) * size, in + from * size, run);
      }
  return OkStatus();
}

}  // namespace opuc::cpu
