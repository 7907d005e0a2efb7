// The fixed-point rules of a quantized graph (src/ir/verify_fixed_point.h):
// ranges by role, a fixed point on every i8 graph input and node output,
// the exceptions (lookup tables, constants), and graphs
// without any fixed point left alone.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "op_test_util.h"
#include "opuc/ir/verifier.h"

namespace opuc {
namespace {

using namespace testing;

// x[1,2,2,2] i8 <f5> -> conv2d(x, w[3,1,1,2] <f[7,6,5]@0>, b[3] i32) -> c <f4>
//   -> lookup_table(c, lut[256]) -> y <f7>
Graph QuantizedGraph() {
  Graph g;
  g.name = "q";
  g.inputs = {g.AddTensor(T(DType::kI8, {1, 2, 2, 2}, "x"))};  // 0
  g.AddConstant("w", DType::kI8, {3, 1, 1, 2}, Zeros(6));      // 1
  g.AddConstant("b", DType::kI32, {3}, Zeros(12));             // 2
  g.AddTensor(T(DType::kI8, {1, 2, 2, 3}, "c"));               // 3
  g.AddConstant("lut", DType::kI8, {256}, Zeros(256));         // 4
  g.AddTensor(T(DType::kI8, {1, 2, 2, 3}, "y"));               // 5
  g.AddNode(MakeNode("conv", OpKind::kConv2D, {0, 1, 2}, {3}));
  g.AddNode(MakeNode("table", OpKind::kLookupTable, {3, 4}, {5}));
  g.outputs = {5};
  g.tensors[0].fixed_point = {{5}, -1};
  g.tensors[1].fixed_point = {{7, 6, 5}, 0};
  g.tensors[3].fixed_point = {{4}, -1};
  g.tensors[5].fixed_point = {{7}, -1};
  return g;
}

TEST_CASE("a quantized graph verifies, the table and the bias need no fixed point") {
  CHECK(Verify(QuantizedGraph()).ok());
}

TEST_CASE("every i8 graph input and node output of a quantized graph has a fixed point") {
  Graph g = QuantizedGraph();
  g.tensors[3].fixed_point = {};
  CHECK(VerifyMessage(g) ==
        "tensor 3 'c': i8 tensor of a quantized graph has no fixed point (every graph input"
        " and node output in i8, u8 or i16 needs one)");
  g = QuantizedGraph();
  g.tensors[0].fixed_point = {};
  CHECK(Contains(VerifyMessage(g),
                 "tensor 0 'x': i8 tensor of a quantized graph has no fixed point"));
  // An i8 constant may lack one (the kernel that reads it reports it).
  g = QuantizedGraph();
  g.tensors[1].fixed_point = {};
  CHECK(Verify(g).ok());
  // Without any fixed point the graph is not quantized, and nothing is required.
  for (Tensor& t : g.tensors) t.fixed_point = {};
  CHECK(Verify(g).ok());
}

TEST_CASE("activation fraction lengths lie in [-8, 15], weights in [-8, 23]") {
  Graph g = QuantizedGraph();
  g.tensors[0].fixed_point = {{-8}, -1};
  g.tensors[5].fixed_point = {{15}, -1};
  g.tensors[1].fixed_point = {{23, -8, 0}, 0};
  CHECK(Verify(g).ok());
  g.tensors[5].fixed_point = {{16}, -1};
  CHECK(VerifyMessage(g) ==
        "tensor 5 'y': fraction length 16 is out of range; expected [-8, 15] for an"
        " activation");
  g.tensors[5].fixed_point = {{-9}, -1};
  CHECK(Contains(VerifyMessage(g), "tensor 5 'y': fraction length -9 is out of range"));
  g = QuantizedGraph();
  g.tensors[1].fixed_point = {{7, 24, 5}, 0};
  CHECK(VerifyMessage(g) ==
        "tensor 1 'w': fraction length 24 at index 1 is out of range; expected"
        " [-8, 23] for weights");
  // Per tensor, the weights' range still applies.
  g.tensors[1].fixed_point = {{23}, -1};
  CHECK(Verify(g).ok());
  // An i8 constant with an axis, whatever reads it, is weight-like.
  g = QuantizedGraph();
  g.tensors[4].fixed_point = {std::vector<int32_t>(256, 23), 0};
  CHECK(Verify(g).ok());
}

TEST_CASE("an activation has one fraction length") {
  Graph g = QuantizedGraph();
  g.tensors[3].fixed_point = {{4, 4, 4}, 3};
  CHECK(VerifyMessage(g) ==
        "tensor 3 'c': has a fixed point along axis 3; an activation has one"
        " fraction length");
}

TEST_CASE("prelu's alpha is a weight, even as a graph input") {
  Graph g;
  g.name = "p";
  g.inputs = {g.AddTensor(T(DType::kI8, {1, 4}, "x"))};
  g.AddTensor(T(DType::kI8, {4}, "alpha"));  // a graph input here
  g.inputs.push_back(1);
  g.AddTensor(T(DType::kI8, {1, 4}, "y"));
  g.AddNode(MakeNode("prelu", OpKind::kPRelu, {0, 1}, {2}));
  g.outputs = {2};
  g.tensors[0].fixed_point = {{4}, -1};
  g.tensors[1].fixed_point = {{20}, -1};
  g.tensors[2].fixed_point = {{4}, -1};
  CHECK(Verify(g).ok());
  g.tensors[1].fixed_point = {{24}, -1};
  CHECK(Contains(VerifyMessage(g),
                 "tensor 1 'alpha': fraction length 24 is out of range; expected"
                 " [-8, 23] for weights"));
}

}  // namespace
}  // namespace opuc
