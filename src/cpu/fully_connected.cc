//===- src/cpu/fully_connected.cc - FULLY_CONNECTED as a GEMM -----===//
//
// The input read as rows of Ci elements is already the patch matrix; only an
// integer input is converted (a plane at a time) to the GEMM's floats.
//
//===----------------------------------------------------------------------===//
#include "inner_product.h"
#include "kernels.h"

namespace opuc::cpu {

Status FullyConnected(reference::KernelContext& ctx, Tail tail) {
  const HostTensor& input = *ctx.input(0);
  const int64_t ci = ctx.input(1)->shape()[1];
  const int64_t rows = ci ? input.elements() / ci : 0;
  const auto rows_of = [&](auto tag, int64_t first, int64_t count, Plane plane,
                           std::vector<float>& buffer) -> MatrixView {
    using T = decltype(tag);
    const T* in = input.data<T>() + first * ci;
    if constexpr (std::is_same_v<T, float>) return {in, count, ci, ci};
    buffer.resize(static_cast<size_t>(count * ci));
    for (int64_t i = 0; i < count * ci; ++i)
      buffer[static_cast<size_t>(i)] = PlaneValue(in[i], plane);
    return {buffer.data(), count, ci, ci};
  };
  return GemmInnerProduct(ctx, rows, rows_of, tail);
}

}  // namespace opuc::cpu
