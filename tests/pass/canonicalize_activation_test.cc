// CanonicalizeActivation: fused activations become explicit nodes.
#include "pass/pass_test_util.h"

namespace opuc {
namespace {

using namespace testing;

TEST_CASE("each fused activation becomes the matching op after its node") {
  GraphBuilder b("net");
  TensorId x = b.Input("x", DType::kF32, {1, 2, 2, 2});
  TensorId k = b.ConstantF32("k", {2}, {1, 2});
  TensorId a = b.Op(OpKind::kAdd, "a", {x, k}, Attrs({{"activation", Str("relu6")}}));
  TensorId m = b.Op(OpKind::kMul, "m", {a, k}, Attrs({{"activation", Str("relu_n1_to_1")}}));
  TensorId c = b.Op(OpKind::kConcat, "c", {a, m},
                    Attrs({{"axis", AttrValue(int64_t{3})}, {"activation", Str("tanh")}}));
  TensorId p = b.Op(OpKind::kMaxPool2D, "p", {c},
                    Attrs({{"filter", Ints({2, 2})}, {"activation", Str("relu")}}));
  b.Output(p);
  Graph g = Build(std::move(b));
  auto run = RunPasses(g, {"CanonicalizeActivation"});
  REQUIRE(run.status.ok());
  CHECK(NodeSignatures(g) == Lines{"add(x,k)->a/pre_activation", "relu6(a/pre_activation)->a",
                                   "mul(a,k)->m/pre_activation",
                                   "relu_n1_to_1(m/pre_activation)->m",
                                   "concat(a,m)->c/pre_activation", "tanh(c/pre_activation)->c",
                                   "max_pool2d(c)->p/pre_activation", "relu(p/pre_activation)->p"});
  for (const Node& node : g.nodes)
    if (node.attrs.Has("activation")) CHECK(node.attrs.GetString("activation") == "none");
  CHECK(g.nodes[1].name == "a/relu6");
  CHECK(g.tensor(g.outputs[0]).name == "p");
  CHECK(run.runs[0].counters.ToString() == "activations made explicit: 4");
}

TEST_CASE("graphs without fused activations are left identical") {
  GraphBuilder b("net");
  TensorId x = b.Input("x", DType::kF32, {1, 4});
  b.Output(b.Op(OpKind::kRelu, "y", {b.Op(OpKind::kAdd, "a", {x, x})}));
  Graph g = Build(std::move(b));
  const std::string before = PrintGraph(g);
  auto run = RunPasses(g, {"CanonicalizeActivation"});
  REQUIRE(run.status.ok());
  CHECK_FALSE(run.changed);
  CHECK(PrintGraph(g) == before);
}

}  // namespace
}  // namespace opuc
