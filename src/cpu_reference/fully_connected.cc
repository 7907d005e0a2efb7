//===- src/cpu_reference/fully_connected.cc - FULLY_CONNECTED -------------===//
//
// The input is read as rows of Ci = weights.shape[1] elements (C order), so
// any rank works: out[r,o] = act(sum + bias[o]), with sum accumulated from 0
// over i = 0..Ci-1 of input[r·Ci + i] · weights[o,i]. keep_num_dims changes
// only the output's shape, not its elements. f32: in float. Quantized
// (docs/numerics.md §2, §3): exact in int64, the weights' fraction lengths
// along axis 0, then the output stage and the fused clamp as conv2d.
//
//===----------------------------------------------------------------------===//
#include "inner_product.h"

namespace opuc::reference {
namespace {

template <typename T, typename W, typename Acc, typename Finish>
Status FullyConnected(KernelContext& ctx, Finish finish) {
  const HostTensor& input = *ctx.input(0);
  const HostTensor& weights = *ctx.input(1);
  OPUC_ASSIGN_OR_RETURN(HostTensor * output, ctx.AllocateOutput());
  const int64_t co = weights.shape()[0];
  const int64_t ci = weights.shape()[1];
  const int64_t rows = ci ? input.elements() / ci : 0;
  const T* in = input.data<T>();
  const W* w = weights.data<W>();
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t o = 0; o < co; ++o) {
      Acc sum = 0;
      for (int64_t i = 0; i < ci; ++i)
        sum += static_cast<Acc>(in[r * ci + i]) * static_cast<Acc>(w[o * ci + i]);
      OPUC_RETURN_IF_ERROR(finish(sum, o, output, r * co + o));
    }
  }
  return OkStatus();
}

}  // namespace

Status EvalFullyConnected(KernelContext& ctx) {
  return EvalInnerProduct(ctx, 0, [&](auto in, auto weight, auto accumulator, auto finish) {
    return FullyConnected<decltype(in), decltype(weight), decltype(accumulator)>(ctx, finish);
  });
}

}  // namespace opuc::reference
