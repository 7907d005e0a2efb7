//===- src/cpu/vector_width.h - The build's vector registers -*- C++ -*-===//
//
// Floats per vector register of the instructions the build targets: AVX-512
// and AVX where a native build (OPUC_NATIVE) has them, else SSE2 (or NEON's
// four). Kernels size their register tiles from it.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_CPU_VECTOR_WIDTH_H
#define OPUC_SRC_CPU_VECTOR_WIDTH_H

namespace opuc::cpu {

#if defined(__AVX512F__)
constexpr int kFloatLanes = 16;
#elif defined(__AVX__)
constexpr int kFloatLanes = 8;
#else
constexpr int kFloatLanes = 4;
#endif

}  // namespace opuc::cpu

#endif  // OPUC_SRC_CPU_VECTOR_WIDTH_H
