//===- opuc/tensor_io/random_input.h - Reproducible inputs --------*- C++ -*-===//
//
// Deterministic inputs for `opuc run --seed N`, tests and benchmarks: the
// same bytes on every platform, because the generator is SplitMix64 and the
// conversion to float uses integer arithmetic and exact scaling only.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_TENSOR_IO_RANDOM_INPUT_H
#define OPUC_TENSOR_IO_RANDOM_INPUT_H

#include <cstdint>
#include <vector>

#include "opuc/ir/graph.h"
#include "opuc/status.h"
#include "opuc/tensor_io/host_tensor.h"

namespace opuc {

/// Sebastiano Vigna's SplitMix64 (public domain): a 64-bit counter passed
/// through a fixed mixing function.
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  /// Uniform in [-1, 1) on a grid of 2^-23: the top 24 bits b of Next()
  /// give (b - 2^23) / 2^23, which a float holds exactly.
  float UniformSigned() {
    const auto bits = static_cast<int32_t>(Next() >> 40);  // [0, 2^24)
    return static_cast<float>(bits - (1 << 23)) / static_cast<float>(1 << 23);
  }

 private:
  uint64_t state_;
};

/// A tensor of `dtype` and `shape` drawn from SplitMix64(seed): f32 elements
/// uniform in [-1, 1) (UniformSigned), integer elements the top bits of
/// Next() (the dtype's full range). f16 is Unsupported.
Expected<HostTensor> RandomTensor(DType dtype, const Shape& shape, uint64_t seed);

/// The seed of graph input `index` for a run with `seed`: input 0 uses
/// `seed` itself, input i uses seed + i × 0x9E3779B97F4A7C15 (mod 2^64),
/// so each input's values depend only on the seed and its position.
uint64_t InputSeed(uint64_t seed, size_t index);

/// One RandomTensor per graph input, in graph-input order, with InputSeed.
/// Errors name the input whose dtype has no generator.
Expected<std::vector<HostTensor>> RandomInputs(const Graph& graph, uint64_t seed);

}  // namespace opuc

#endif  // OPUC_TENSOR_IO_RANDOM_INPUT_H
