//===- tests/cpu/kernels/same_as_reference.h - The reference's bytes -*- C++ -*-===//
//
// A one-op graph run on both executors: both succeed, and the CPU
// executor's first output has the reference's type and bytes exactly.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_TESTS_CPU_KERNELS_SAME_AS_REFERENCE_H
#define OPUC_TESTS_CPU_KERNELS_SAME_AS_REFERENCE_H

#include <doctest/doctest.h>

#include <cstring>
#include <vector>

#include "opuc/cpu/executor.h"
#include "opuc/cpu/reference.h"

namespace opuc::testing {

inline void CheckSameAsReference(const Graph& g, const std::vector<HostTensor>& inputs) {
  Expected<std::vector<HostTensor>> want = RunReference(g, inputs);
  Expected<std::vector<HostTensor>> got = RunCpu(g, inputs);
  REQUIRE_MESSAGE(want.ok(), want.status().ToString());
  REQUIRE_MESSAGE(got.ok(), got.status().ToString());
  const HostTensor& a = got->front();
  const HostTensor& e = want->front();
  REQUIRE(a.type() == e.type());
  CHECK(std::memcmp(a.raw(), e.raw(), a.bytes()) == 0);
}

}  // namespace opuc::testing

#endif  // OPUC_TESTS_CPU_KERNELS_SAME_AS_REFERENCE_H
