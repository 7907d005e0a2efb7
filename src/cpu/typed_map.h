//===- src/cpu/typed_map.h - Loops over typed elements --*- C++ -*-===//
//
// The elementwise kernels' loops: the element types fixed at compile time
// (no per-element dispatch on the format) and the pointers restrict (an
// int8 store may alias anything, which would keep the loop scalar).
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_CPU_TYPED_MAP_H
#define OPUC_SRC_CPU_TYPED_MAP_H

#include "integer_util.h"

namespace opuc::cpu {

/// y[i] = fn(x[i]) over two element types; x and y have as many elements.
template <typename In, typename Out, typename Fn>
void Map(const HostTensor& x, HostTensor* y, Fn fn) {
  const In* __restrict in = x.data<In>();
  Out* __restrict out = y->data<Out>();
  const int64_t n = x.elements();
  for (int64_t i = 0; i < n; ++i) out[i] = fn(in[i]);
}

/// Calls fn(In{}, Out{}) with the element types of two quantized formats.
template <typename Fn>
Status VisitFormats(DType in, DType out, Fn fn) {
  return reference::VisitFormat(
      in, [&](auto a) { return reference::VisitFormat(out, [&](auto b) { return fn(a, b); }); });
}

}  // namespace opuc::cpu

#endif  // OPUC_SRC_CPU_TYPED_MAP_H
