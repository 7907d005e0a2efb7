//===- tests/frontend/test_graphs.h - Graphs the frontend tests share -*- C++ -*-===//
#ifndef OPUC_TESTS_FRONTEND_TEST_GRAPHS_H
#define OPUC_TESTS_FRONTEND_TEST_GRAPHS_H

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "opuc/ir/graph.h"
#include "opuc/opug/opug.h"

namespace opuc::test {

/// The bytes of `values` as f32 (little-endian hosts, like every opuc target).
ConstantData FloatData(const std::vector<float>& values);

/// input f32[1,4,4,2] → conv2d 3×3 same (weights [4,3,3,2] with a per-channel
/// fixed point, bias [4]) → relu → max_pool2d 2×2/2 → [1,2,2,4]; input →
/// max_pool2d 2×2/2 → [1,2,2,2]; concat axis 3 → [1,2,2,6]; softmax (beta
/// 1/3) → mean over axes [1,2] keeping dims → [1,1,1,6]. Seven nodes, every
/// attribute type but floats, two metadata entries.
Graph MakeTinyGraph();

/// input f32[1,2,2,2] → conv2d 1×1 (weights [2,1,1,2], bias [2]) → max_pool2d
/// 2×2/2 → [1,1,1,2] → softmax → mean over axis 3 → [1,1,1]. Small enough
/// (under 2 KB as .opug) to corrupt byte by byte.
Graph MakeSmallGraph();

/// Checks, field by field, that two graphs are equal (constants by bytes).
void CheckSameGraph(const Graph& a, const Graph& b);

/// The .opug.json example of docs/graph-format.md, a conv2d and a relu.
extern const char kTwoNodeJson[];

/// Decorates a test case that reads the JSON form. A build without
/// FlatBuffers' parser (a cross build) skips it, and since doctest does not
/// list skipped cases, ctest does not register it.
inline doctest::skip NeedsJsonReader() { return doctest::skip(!OpugJsonReaderAvailable()); }

}  // namespace opuc::test

#endif  // OPUC_TESTS_FRONTEND_TEST_GRAPHS_H
