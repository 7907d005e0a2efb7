// The `fused` node in the IR: the printer shows its body indented under it,
// the verifier checks the body and the argument types, the .opug forms
// hold it, and the float reference runs it to the same bits as the ops
// it replaced.
#include <cstring>

#include "frontend/test_graphs.h"
#include "fusion/fusion_test_util.h"
#include "opuc/cpu_reference/reference.h"
#include "opuc/fusion/fuse_mutator.h"
#include "opuc/ir/verifier.h"
#include "opuc/opug/opug.h"
#include "opuc/tensor_io/random_input.h"

namespace opuc {
namespace {

using namespace testing;

/// out = relu(mul(add(x, y), 0.5)): one group, parameters x and y.
Graph Net() {
  GraphBuilder b("net");
  TensorId x = b.Input("x", DType::kF32, {1, 4});
  TensorId y = b.Input("y", DType::kF32, {1, 4});
  TensorId half = b.ConstantF32("half", {}, {0.5f});
  TensorId a = b.Op(OpKind::kAdd, "a", {x, y});
  TensorId m = b.Op(OpKind::kMul, "m", {a, half});
  b.Output(b.Op(OpKind::kRelu, "out", {m}));
  return Build(std::move(b));
}

Graph FusedNet() {
  Graph g = Net();
  Expected<FuseCounts> counts = FuseOps(g, FuseOptions{});
  REQUIRE_MESSAGE(counts.ok(), counts.status().ToString());
  REQUIRE(counts->fused_nodes == 1);
  return g;
}

TEST_CASE("ApplyPartition says where each node and tensor went") {
  Graph g = Net();  // tensors x, y, half, a, m, out; nodes a, m, out
  Expected<IndexedForwardGraph> forward = BuildIndexedForwardGraph(g);
  REQUIRE(forward.ok());
  Expected<Partition> partition = PartitionGraph(*forward, FuseOptions{});
  REQUIRE(partition.ok());
  FuseRenumbering renumbering;
  REQUIRE(ApplyPartition(g, *forward, *partition, &renumbering).ok());
  CHECK(renumbering.node == std::vector<NodeId>{0, 0, 0});
  // half is copied into the body; a and m live only there.
  CHECK(renumbering.tensor == std::vector<TensorId>{0, 1, kNoTensor, kNoTensor, kNoTensor, 2});
  CHECK(g.tensor(2).name == "out");
}

std::string VerifyMessage(const Graph& g) { return Verify(g).ToString(); }

TEST_CASE("the printer shows a fused node's body under it") {
  // The constant's hash is FNV-1a of 00 00 00 3f (0.5f), computed by hand.
  CHECK(PrintGraph(FusedNet()) == R"(graph "net" {
  input %x: f32[1,4]
  input %y: f32[1,4]
  %out: f32[1,4] = fused(%x, %y)
    graph "fused_add_mul_relu" {
      input %x: f32[1,4]
      input %y: f32[1,4]
      %half: f32[] = const 4 bytes fnv1a:1c95ab18
      %a: f32[1,4] = add(%x, %y) {activation="none"}
      %m: f32[1,4] = mul(%a, %half) {activation="none"}
      %out: f32[1,4] = relu(%m)
      output %out
    }
  output %out
}
)");
}

TEST_CASE("the verifier checks bodies and their parameters") {
  Graph good = FusedNet();
  CHECK(Verify(good).ok());

  Graph no_body = good;
  no_body.nodes[0].body = nullptr;
  CHECK(VerifyMessage(no_body) ==
        "invalid argument: node 0 'out' (fused): has no body (a fused node carries its function)");

  Graph stray = Net();
  stray.nodes[0].body = good.nodes[0].body;
  CHECK(VerifyMessage(stray) ==
        "invalid argument: node 0 'a' (add): has a body; only fused nodes have one");

  Graph bad_body = good;
  Graph body = *good.nodes[0].body;
  body.tensor(body.nodes[0].outputs[0]).shape = {1, 5};
  bad_body.nodes[0].body = std::make_shared<const Graph>(body);
  CHECK(VerifyMessage(bad_body).find("node 0 'out' (fused): body: node 0 'a' (add): output 0") !=
        std::string::npos);

  Graph wrong_type = good;
  Tensor z;
  z.name = "z";
  z.shape = {1, 5};
  wrong_type.inputs.push_back(wrong_type.AddTensor(z));
  wrong_type.nodes[0].inputs[1] = wrong_type.inputs.back();
  CHECK(VerifyMessage(wrong_type) ==
        "invalid argument: node 0 'out' (fused): fused: argument 1 is f32[1,5]; parameter 1 'y'"
        " is f32[1,4]");

  Graph too_few = good;
  too_few.nodes[0].inputs.pop_back();
  too_few.inputs.pop_back();  // y is now read by nothing: keep the graph otherwise valid
  too_few.inputs.push_back(good.nodes[0].inputs[1]);
  CHECK(VerifyMessage(too_few) ==
        "invalid argument: node 0 'out' (fused): fused: has 1 arguments; its body"
        " \"fused_add_mul_relu\" has 2 parameters");
}

TEST_CASE("the binary .opug holds fused nodes, bodies and all") {
  const Graph g = FusedNet();
  Expected<std::vector<uint8_t>> bytes = WriteOpug(g);
  REQUIRE_MESSAGE(bytes.ok(), bytes.status().ToString());
  Expected<Graph> back = ReadOpug(*bytes, "net.opug");
  REQUIRE_MESSAGE(back.ok(), back.status().ToString());
  // The printer shows every tensor, node and constant hash of the body.
  CHECK(PrintGraph(*back) == PrintGraph(g));
  Expected<std::vector<uint8_t>> again = WriteOpug(*back);
  REQUIRE(again.ok());
  CHECK(*again == *bytes);
}

TEST_CASE("the .opug.json holds fused nodes, bodies and all" * test::NeedsJsonReader()) {
  const Graph g = FusedNet();
  Expected<std::string> json = OpugToJson(g);
  REQUIRE_MESSAGE(json.ok(), json.status().ToString());
  CHECK(json->find(
            "\"body\": {\n        \"version\": 1,\n        \"name\": \"fused_add_mul_relu\"") !=
        std::string::npos);
  Expected<Graph> from_json = ReadOpugJson(*json, "net.opug.json");
  REQUIRE_MESSAGE(from_json.ok(), from_json.status().ToString());
  CHECK(PrintGraph(*from_json) == PrintGraph(g));

  // A body's indices are its own and are checked as the root's are.
  std::string bad = *json;
  const std::string relu_writes = "\"outputs\": [5]";  // the body's relu, its tensor 5
  const size_t at = bad.find(relu_writes);
  REQUIRE(at != std::string::npos);
  bad.replace(at, relu_writes.size(), "\"outputs\": [9]");
  CHECK(ReadOpugJson(bad, "net.opug.json").status().ToString() ==
        "invalid argument: net.opug.json: node 0 'out': body: node 2 'out': output 0 is tensor 9,"
        " which is out of range (6 tensors)");
}

TEST_CASE("the reference runs a fused graph to the same bits, and InferShape keeps it") {
  GraphBuilder b("seed000");
  TensorId x = b.Input("x", DType::kF32, {1, 6, 6, 3});
  TensorId w = b.ConstantF32("weight", {3, 3, 3, 3}, std::vector<float>(81, 0.3f));
  TensorId conv = b.Op(OpKind::kConv2D, "conv", {x, w});
  TensorId c = b.ConstantF32("c", {1, 4, 4, 3}, std::vector<float>(48, -1.5f));
  TensorId act = b.Op(OpKind::kRelu, "act", {b.Op(OpKind::kAdd, "y", {conv, c})});
  TensorId mul = b.Op(OpKind::kMul, "mul", {conv, b.ConstantF32("half", {}, {0.5f})});
  b.Output(b.Op(OpKind::kAdd, "z", {act, mul}));
  Graph g = Build(std::move(b));
  Expected<std::vector<HostTensor>> inputs = RandomInputs(g, 11);
  REQUIRE(inputs.ok());
  Expected<std::vector<HostTensor>> before = RunReference(g, *inputs);
  REQUIRE(before.ok());
  REQUIRE(FuseOps(g, FuseOptions{}).ok());
  REQUIRE(g.nodes.size() == 1);
  Expected<std::vector<HostTensor>> after = RunReference(g, *inputs);
  REQUIRE_MESSAGE(after.ok(), after.status().ToString());
  REQUIRE((*after)[0].bytes() == (*before)[0].bytes());
  CHECK(std::memcmp((*after)[0].raw(), (*before)[0].raw(), (*before)[0].bytes()) == 0);

  const std::string printed = PrintGraph(g);
  auto run = RunPasses(g, {"InferShape"});
  REQUIRE(run.status.ok());
  CHECK_FALSE(run.changed);
  CHECK(PrintGraph(g) == printed);
}

}  // namespace
}  // namespace opuc
