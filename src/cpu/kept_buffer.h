//===- src/cpu/kept_buffer.h - Working memory kept between calls -*- C++ -*-===//
//
// A kernel's working memory (im2col patches, float weights, padded inputs)
// kept on each thread from one call to the next: a vector that only grows
// keeps its pages mapped, where a fresh allocation of a few hundred KB per
// call comes back from the system as new pages, each a fault, zero-filled.
// On this project's machines that cost more than the work: the face
// detector's first conv (a 512 KB patch block) took 3.3 ms instead of 0.5.
// Each thread holds its largest use of each buffer until it exits.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_CPU_KEPT_BUFFER_H
#define OPUC_SRC_CPU_KEPT_BUFFER_H

#include <vector>

namespace opuc::cpu {

/// The calling thread's buffer for `Use` (a tag type naming what it holds).
/// One caller at a time: no kernel calls another that takes the same one.
template <typename T, typename Use>
std::vector<T>& KeptBuffer() {
  static thread_local std::vector<T> buffer;
  return buffer;
}

}  // namespace opuc::cpu

#endif  // OPUC_SRC_CPU_KEPT_BUFFER_H
