// Verify() (verifier.h): a small valid graph, then one mutation per class of
// malformed graph; each message names the node or tensor at fault.
#include "opuc/ir/verifier.h"

#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

#include "op_test_util.h"

namespace opuc {
namespace {

using namespace testing;

// x[1,4,4,2] -> conv2d(x, w[3,1,1,2], b[3]) -> c[1,4,4,3] -> relu -> r
Graph ValidGraph() {
  Graph g;
  g.name = "v";
  g.inputs = {g.AddTensor(F32({1, 4, 4, 2}, "x"))};                         // 0
  g.AddConstant("w", DType::kF32, {3, 1, 1, 2}, Zeros(3 * 1 * 1 * 2 * 4));  // 1: 24 bytes
  g.AddConstant("b", DType::kF32, {3}, Zeros(3 * 4));                       // 2: 12 bytes
  g.AddTensor(F32({1, 4, 4, 3}, "c"));                                      // 3
  g.AddTensor(F32({1, 4, 4, 3}, "r"));                                      // 4
  g.AddNode(MakeNode("conv", OpKind::kConv2D, {0, 1, 2}, {3}));
  g.AddNode(MakeNode("relu", OpKind::kRelu, {3}, {4}));
  g.outputs = {4};
  return g;
}

TEST_CASE("the valid graph verifies, also without its optional bias") {
  Graph g = ValidGraph();
  CHECK(Verify(g).ok());
  g.nodes[0].inputs = {0, 1, kNoTensor};
  CHECK(Verify(g).ok());
  g.nodes[0].inputs = {0, 1};
  CHECK(Verify(g).ok());
}

TEST_CASE("node inputs: out of range, not yet defined, cycles, absent required") {
  Graph g = ValidGraph();
  g.nodes[1].inputs[0] = 42;
  CHECK(VerifyMessage(g) ==
        "node 1 'relu' (relu): input 0 is tensor 42, which does not exist (5 tensors)");

  const std::string later =
      ", which no earlier node produces and which is neither a graph input"
      " nor a constant (nodes must be in topological order)";
  g = ValidGraph();
  std::swap(g.nodes[0], g.nodes[1]);  // relu now reads c before conv writes it
  CHECK(VerifyMessage(g) == "node 0 'relu' (relu): input 0 is tensor 3 'c'" + later);

  g = ValidGraph();
  g.nodes[0].inputs[0] = 4;  // conv reads r, relu reads c: a cycle
  CHECK(VerifyMessage(g) == "node 0 'conv' (conv2d): input 0 is tensor 4 'r'" + later);

  g = ValidGraph();
  g.nodes[1].inputs[0] = 4;  // relu reads its own output
  CHECK(VerifyMessage(g) == "node 1 'relu' (relu): input 0 is tensor 4 'r'" + later);

  g = ValidGraph();
  g.nodes[0].inputs = {0, kNoTensor, 2};
  CHECK(VerifyMessage(g) ==
        "node 0 'conv' (conv2d): conv2d: input 1 'weights' is required but absent");
  g.nodes[0].inputs = {0};
  CHECK(VerifyMessage(g) == "node 0 'conv' (conv2d): conv2d: has 1 inputs; expected 2 to 3");
}

TEST_CASE("node outputs: SSA, graph inputs and constants are read-only, count") {
  Graph g = ValidGraph();
  g.nodes[1].outputs = {3};
  CHECK(VerifyMessage(g) ==
        "node 1 'relu' (relu): output 0 tensor 3 'c' is already produced by another"
        " node (tensors are SSA)");
  g = ValidGraph();
  g.nodes[1].outputs = {0};
  CHECK(VerifyMessage(g) ==
        "node 1 'relu' (relu): output 0 tensor 0 'x' is a graph input; a node cannot"
        " write it");
  g = ValidGraph();
  g.nodes[1].outputs = {2};
  CHECK(VerifyMessage(g) ==
        "node 1 'relu' (relu): output 0 tensor 2 'b' is a constant; a node cannot"
        " write it");
  g = ValidGraph();
  g.nodes[1].outputs = {};
  CHECK(VerifyMessage(g) == "node 1 'relu' (relu): has 0 outputs; expected 1");
  g = ValidGraph();
  g.nodes[1].outputs = {4, g.AddTensor(F32({1, 4, 4, 3}, "r2"))};
  CHECK(VerifyMessage(g) == "node 1 'relu' (relu): has 2 outputs; expected 1");
  g = ValidGraph();
  g.nodes[1].outputs = {17};
  CHECK(VerifyMessage(g) == "node 1 'relu' (relu): output 0 is tensor 17, which does not exist");
}

TEST_CASE("declared output types must equal inference") {
  Graph g = ValidGraph();
  g.tensors[4].shape = {1, 4, 4, 4};
  CHECK(VerifyMessage(g) ==
        "node 1 'relu' (relu): output 0 tensor 4 'r' is declared f32[1,4,4,4];"
        " inference gives f32[1,4,4,3]");
  g = ValidGraph();
  g.tensors[4].dtype = DType::kI8;
  CHECK(VerifyMessage(g) ==
        "node 1 'relu' (relu): output 0 tensor 4 'r' is declared i8[1,4,4,3];"
        " inference gives f32[1,4,4,3]");
  g = ValidGraph();
  g.tensors[0].shape = {1, 4, 4, 5};  // the weights have 2 input channels
  CHECK(VerifyMessage(g) ==
        "node 0 'conv' (conv2d): conv2d: input 'weights' has 2 input channels"
        " (shape [3,1,1,2]); expected 5 like the input");
}

TEST_CASE("attributes and ops") {
  Graph g = ValidGraph();
  g.nodes[0].attrs.Set("padding", Str("full"));
  CHECK(VerifyMessage(g) ==
        "node 0 'conv' (conv2d): attribute 'padding' is \"full\"; expected one of"
        " [\"same\",\"valid\"]");
  g = ValidGraph();
  g.nodes[0].attrs.Set("group", I64(2));
  CHECK(VerifyMessage(g) == "node 0 'conv' (conv2d): unknown attribute 'group' for conv2d");
  g = ValidGraph();
  g.nodes[0].attrs.Set("strides", Ints({0, 1}));
  CHECK(Contains(VerifyMessage(g), "node 0 'conv' (conv2d): attribute 'strides' is 0"));
  // A node built without Graph::AddNode may lack an optional attribute.
  g = ValidGraph();
  CHECK(g.nodes[0].attrs.Erase("strides"));
  CHECK(
      Contains(VerifyMessage(g), "node 0 'conv' (conv2d): conv2d: attribute 'strides' is absent"));
  g = ValidGraph();
  g.nodes[1].op = static_cast<OpKind>(999);
  CHECK(VerifyMessage(g) == "node 1 'relu' (<bad op>): op 999 is unknown");
}

TEST_CASE("tensors: names, extents, dtypes") {
  Graph g = ValidGraph();
  g.tensors[4].name = "c";
  CHECK(VerifyMessage(g) == "tensor 4 'c': name is used by an earlier tensor");
  g = ValidGraph();
  g.tensors[4].name = "";
  CHECK(VerifyMessage(g) == "tensor 4 '': name is empty");
  g = ValidGraph();
  g.tensors[0].shape = {1, -4, 4, 2};
  CHECK(VerifyMessage(g) ==
        "tensor 0 'x': shape [1,-4,4,2] has a negative extent or too many elements");
  g = ValidGraph();
  g.tensors[0].shape = {int64_t{1} << 31};  // one past kMaxExtent = 2^31 - 1
  CHECK(VerifyMessage(g) == "tensor 0 'x': shape [2147483648] has an extent above 2147483647");
  g = ValidGraph();
  g.tensors[0].shape = {1 << 30, 1 << 30, 1 << 30};  // 2^90 elements
  CHECK(VerifyMessage(g) ==
        "tensor 0 'x': shape [1073741824,1073741824,1073741824] has a negative extent or too"
        " many elements");
  g = ValidGraph();
  g.tensors[0].dtype = static_cast<DType>(9);
  CHECK(VerifyMessage(g) == "tensor 0 'x': dtype 9 is unknown");
  g = ValidGraph();
  g.AddTensor(F32({2}, "orphan"));
  CHECK(VerifyMessage(g) ==
        "tensor 5 'orphan' is dangling: neither a graph input, a constant, nor the"
        " output of a node");
  g = ValidGraph();
  g.nodes.pop_back();  // r loses its producer
  CHECK(Contains(VerifyMessage(g), "tensor 4 'r' is dangling"));
}

TEST_CASE("constants: byte size, including sizes that overflow 64 bits") {
  Graph g = ValidGraph();
  g.tensors[2].constant = Zeros(8);  // [3] f32 needs 3 * 4 = 12
  CHECK(VerifyMessage(g) == "tensor 2 'b': constant holds 8 bytes; shape [3] f32 needs 12");
  g = ValidGraph();
  g.tensors[2].constant = Zeros(16);
  CHECK(VerifyMessage(g) == "tensor 2 'b': constant holds 16 bytes; shape [3] f32 needs 12");
  // 2^62 elements fit int64, but 2^62 * 4 bytes = 2^64 wraps to 0 in uint64.
  g = ValidGraph();
  g.tensors[2].shape = {1 << 30, 1 << 30, 1 << 2};
  g.tensors[2].constant = Zeros(0);
  CHECK(Contains(VerifyMessage(g),
                 "tensor 2 'b': constant holds 0 bytes; shape [1073741824,1073741824,4]"));
  // An empty constant of zero elements is fine.
  g = ValidGraph();
  g.AddConstant("empty", DType::kI32, {0, 5}, Zeros(0));
  CHECK(Verify(g).ok());
}

TEST_CASE("fixed point: per-tensor has one value - per-channel matches its axis") {
  Graph g = ValidGraph();
  g.tensors[1].fixed_point = {{7, 6, 5}, 0};  // w is [3,1,1,2]: 3 along axis 0
  g.tensors[0].fixed_point = {{4}, -1};
  CHECK(Verify(g).ok());
  g.tensors[1].fixed_point = {{7, 6}, 0};
  CHECK(VerifyMessage(g) ==
        "tensor 1 'w': fixed point has 2 fraction lengths; expected 3 (extent of axis 0)");
  g.tensors[1].fixed_point = {{7, 6}, 3};  // axis 3 has extent 2: fine
  CHECK(Verify(g).ok());
  g.tensors[1].fixed_point = {{7, 6, 5}, 4};
  CHECK(VerifyMessage(g) == "tensor 1 'w': fixed-point axis 4 is out of range for shape [3,1,1,2]");
  g.tensors[1].fixed_point = {{7, 6, 5}, -2};
  CHECK(VerifyMessage(g) ==
        "tensor 1 'w': fixed-point axis -2 is out of range for shape [3,1,1,2]");
  g.tensors[1].fixed_point = {{7, 6}, -1};
  CHECK(VerifyMessage(g) ==
        "tensor 1 'w': per-tensor fixed point has 2 fraction lengths; expected 1");
}

TEST_CASE("graph inputs and outputs: in range, no duplicates, inputs not constants") {
  Graph g = ValidGraph();
  g.inputs = {0, 0};
  CHECK(VerifyMessage(g) == "graph input list names tensor 0 'x' twice");
  g = ValidGraph();
  g.outputs = {4, 4};
  CHECK(VerifyMessage(g) == "graph output list names tensor 4 'r' twice");
  g = ValidGraph();
  g.outputs = {4, 9};
  CHECK(VerifyMessage(g) == "graph output 1 is tensor 9, which does not exist (5 tensors)");
  g = ValidGraph();
  g.inputs = {-1};
  CHECK(VerifyMessage(g) == "graph input 0 is tensor -1, which does not exist (5 tensors)");
  g = ValidGraph();
  g.inputs = {0, 1};
  CHECK(VerifyMessage(g) == "graph input tensor 1 'w' is a constant");
  // An output may be any defined tensor, also an input or a constant.
  g = ValidGraph();
  g.outputs = {4, 3, 0, 2};
  CHECK(Verify(g).ok());
}

}  // namespace
}  // namespace opuc
