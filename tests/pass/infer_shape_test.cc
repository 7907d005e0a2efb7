// InferShape: output types follow their inputs.
#include "pass/pass_test_util.h"

namespace opuc {
namespace {

using namespace testing;

TEST_CASE("InferShape propagates a new input shape and is a no-op when types hold") {
  GraphBuilder b("net");
  TensorId x = b.Input("x", DType::kF32, {1, 8, 8, 2});
  TensorId pool = b.Op(OpKind::kMaxPool2D, "pool", {x},
                       Attrs({{"filter", Ints({2, 2})}, {"strides", Ints({2, 2})}}));
  b.Output(b.Op(OpKind::kRelu, "y", {pool}));
  Graph g = Build(std::move(b));

  const std::string before = PrintGraph(g);
  auto same = RunPasses(g, {"InferShape"});
  REQUIRE(same.status.ok());
  CHECK_FALSE(same.changed);
  CHECK(PrintGraph(g) == before);

  g.tensor(g.inputs[0]).shape = {1, 6, 10, 2};
  auto run = RunPasses(g, {"InferShape"});
  REQUIRE(run.status.ok());
  CHECK(run.changed);
  // 2x2 pool, stride 2, valid: 6 -> 3, 10 -> 5.
  CHECK(g.tensor(g.nodes[0].outputs[0]).shape == Shape{1, 3, 5, 2});
  CHECK(g.tensor(g.nodes[1].outputs[0]).shape == Shape{1, 3, 5, 2});
  CHECK(run.runs[0].counters.ToString() == "tensor types updated: 2");
}

TEST_CASE("InferShape reports the node whose inputs no longer fit") {
  GraphBuilder b("net");
  TensorId x = b.Input("x", DType::kF32, {1, 4, 4, 2});
  b.Output(b.Op(OpKind::kMaxPool2D, "pool", {x}, Attrs({{"filter", Ints({3, 3})}})));
  Graph g = Build(std::move(b));
  g.tensor(g.inputs[0]).shape = {1, 2, 2, 2};  // a 3x3 valid window no longer fits
  auto run = RunPasses(g, {"InferShape"});
  REQUIRE_FALSE(run.status.ok());
  CHECK(run.status.message().rfind(
            "pass InferShape: node 0 'pool' (max_pool2d): max_pool2d: height", 0) == 0);
}

}  // namespace
}  // namespace opuc
