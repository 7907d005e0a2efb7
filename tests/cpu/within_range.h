//===- tests/cpu/within_range.h - Floats close to the reference's -*- C++ -*-===//
//
// The CPU executor's float tolerance (docs/cpu-executor.md): every element
// within `fraction` of the reference output's range (the range counted from
// 0, and at least `floor`).
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_TESTS_CPU_WITHIN_RANGE_H
#define OPUC_TESTS_CPU_WITHIN_RANGE_H

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "opuc/tensor_io/host_tensor.h"

namespace opuc::testing {

inline void CheckWithinRange(const HostTensor& got, const HostTensor& want, double fraction,
                             double floor = 1.0) {
  REQUIRE(got.type() == want.type());
  double lo = 0, hi = 0, worst = 0;
  for (int64_t k = 0; k < want.elements(); ++k) {
    lo = std::min(lo, want.ValueAt(k));
    hi = std::max(hi, want.ValueAt(k));
    worst = std::max(worst, std::abs(got.ValueAt(k) - want.ValueAt(k)));
  }
  CAPTURE(worst);
  CAPTURE(hi - lo);
  CHECK(worst <= fraction * std::max(hi - lo, floor));
}

}  // namespace opuc::testing

#endif  // OPUC_TESTS_CPU_WITHIN_RANGE_H
