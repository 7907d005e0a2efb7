//===- tests/cpu/prepared_node_test.cc - A node prepared once ------===//
//
// PreparedCpuNode gives EvaluateNodeOnCpu's bytes run after run, writes into
// outputs that already have their type (the same storage each run), and
// still refuses inputs of the wrong type, naming the node.
//
//===----------------------------------------------------------------------===//
#include <doctest/doctest.h>

#include <cstring>

#include "opuc/cpu/executor.h"
#include "opuc/ir/graph_builder.h"
#include "opuc/tensor_io/random_input.h"

namespace opuc {
namespace {

/// x [1,6,6,8] -> depthwise 3x3 (same padding, relu6) -> [1,6,6,8].
Graph Depthwise() {
  GraphBuilder b("dw");
  const TensorId x = b.Input("x", DType::kF32, {1, 6, 6, 8});
  std::vector<float> w(3 * 3 * 8);
  for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>(static_cast<int>(i % 9) - 4) / 8;
  Attributes attrs;
  attrs.Set("padding", std::string("same"));
  attrs.Set("activation", std::string("relu6"));
  b.Output(b.Op(OpKind::kDepthwiseConv2D, "dw", {x, b.ConstantF32("w", {1, 3, 3, 8}, w)}, attrs));
  return std::move(b).Finish().value();
}

bool SameBytes(const HostTensor& a, const HostTensor& b) {
  return a.type() == b.type() && std::memcmp(a.raw(), b.raw(), a.bytes()) == 0;
}

TEST_CASE("a prepared node computes what EvaluateNodeOnCpu does, in the same storage each run") {
  const Graph g = Depthwise();
  Expected<PreparedCpuNode> node = PreparedCpuNode::Prepare(g, 0);
  REQUIRE_MESSAGE(node.ok(), node.status().ToString());
  HostTensor w = HostTensor::FromConstant(g.tensor(g.nodes[0].inputs[1])).value();
  std::vector<HostTensor> got;
  const void* storage = nullptr;
  for (uint64_t seed : {1u, 2u, 3u}) {
    CAPTURE(seed);
    const HostTensor x = RandomTensor(DType::kF32, {1, 6, 6, 8}, seed).value();
    std::vector<HostTensor> want;
    REQUIRE(EvaluateNodeOnCpu(g, 0, {&x, &w}, &want).ok());
    REQUIRE(node->Run({&x, &w}, &got).ok());
    REQUIRE(got.size() == 1);
    CHECK(SameBytes(got[0], want[0]));
    if (storage) CHECK(got[0].raw() == storage);  // written in place from the second run on
    storage = got[0].raw();
  }
}

TEST_CASE("a prepared node refuses inputs of another type, and a node that does not exist") {
  const Graph g = Depthwise();
  const PreparedCpuNode node = PreparedCpuNode::Prepare(g, 0).value();
  HostTensor w = HostTensor::FromConstant(g.tensor(g.nodes[0].inputs[1])).value();
  const HostTensor small = RandomTensor(DType::kF32, {1, 5, 6, 8}, 1).value();
  std::vector<HostTensor> out;
  CHECK(node.Run({&small, &w}, &out).ToString() ==
        "invalid argument: node 0 'dw' (depthwise_conv2d): input 0 (tensor 0 'x') is f32[1,5,6,8];"
        " the graph declares f32[1,6,6,8]");
  CHECK(PreparedCpuNode::Prepare(g, 1).status().ToString() ==
        "invalid argument: node 1 does not exist (the graph has 1 nodes)");
}

}  // namespace
}  // namespace opuc
