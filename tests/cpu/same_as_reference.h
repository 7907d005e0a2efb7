//===- tests/cpu/same_as_reference.h - The reference's bytes -*- C++ -*-===//
//
// A one-op graph run on both executors: both succeed, and whether the CPU
// executor's first output has the reference's type and bytes exactly; and
// the seeded draws the kernel tests make their cases from.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_TESTS_CPU_SAME_AS_REFERENCE_H
#define OPUC_TESTS_CPU_SAME_AS_REFERENCE_H

#include <doctest/doctest.h>

#include <cstring>
#include <random>
#include <vector>

#include "opuc/cpu/executor.h"
#include "opuc/cpu_reference/reference.h"

namespace opuc::testing {

/// The integer activation formats (docs/numerics.md §1b).
inline constexpr DType kIntegerFormats[] = {DType::kI8, DType::kU8, DType::kI16};

/// Use as CHECK(SameAsReference(g, inputs)).
inline bool SameAsReference(const Graph& g, const std::vector<HostTensor>& inputs) {
  Expected<std::vector<HostTensor>> want = RunReference(g, inputs);
  Expected<std::vector<HostTensor>> got = RunCpu(g, inputs);
  REQUIRE_MESSAGE(want.ok(), want.status().ToString());
  REQUIRE_MESSAGE(got.ok(), got.status().ToString());
  const HostTensor& a = got->front();
  const HostTensor& e = want->front();
  return a.type() == e.type() && std::memcmp(a.raw(), e.raw(), a.bytes()) == 0;
}

/// Seeded draws: integers in a range, tensors of values every format holds.
class Draw {
 public:
  explicit Draw(uint32_t seed) : rng_(seed) {}
  int64_t Int(int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng_);
  }
  HostTensor Values(DType dtype, const Shape& shape) {
    HostTensor t = HostTensor::Zeros(dtype, shape).value();
    for (int64_t i = 0; i < t.elements(); ++i) {
      switch (dtype) {
        case DType::kI8: t.data<int8_t>()[i] = static_cast<int8_t>(Int(-128, 127)); break;
        case DType::kU8: t.data<uint8_t>()[i] = static_cast<uint8_t>(Int(0, 255)); break;
        case DType::kI16: t.data<int16_t>()[i] = static_cast<int16_t>(Int(-32768, 32767)); break;
        default: t.data<float>()[i] = static_cast<float>(Int(-800, 800)) / 100.0f; break;
      }
    }
    return t;
  }

 private:
  std::mt19937 rng_;
};

}  // namespace opuc::testing

#endif  // OPUC_TESTS_CPU_SAME_AS_REFERENCE_H
