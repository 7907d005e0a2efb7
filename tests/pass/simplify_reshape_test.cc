// SimplifyReshape: reshape chains, identity reshapes and zero pads.
#include "pass/pass_test_util.h"

namespace opuc {
namespace {

using namespace testing;

TEST_CASE("reshape chains collapse and identities disappear") {
  GraphBuilder b("net");
  TensorId x = b.Input("x", DType::kF32, {1, 2, 3, 4});
  TensorId r1 = b.Op(OpKind::kReshape, "r1", {x}, Attrs({{"new_shape", Ints({6, 4})}}));
  TensorId r2 = b.Op(OpKind::kReshape, "r2", {r1}, Attrs({{"new_shape", Ints({24})}}));
  TensorId r3 = b.Op(OpKind::kReshape, "r3", {r2}, Attrs({{"new_shape", Ints({1, 24})}}));
  TensorId same = b.Op(OpKind::kReshape, "same", {r3}, Attrs({{"new_shape", Ints({1, 24})}}));
  TensorId pad0 = b.Op(OpKind::kPad, "pad0", {same}, Attrs({{"pads", Ints({0, 0, 0, 0})}}));
  b.Output(b.Op(OpKind::kRelu, "y", {pad0}));
  Graph g = Build(std::move(b));
  auto run = RunPasses(g, {"SimplifyReshape"});
  REQUIRE(run.status.ok());
  CHECK(run.changed);
  // Each reshape of a reshape reads the inner one's input instead: r2, r3 and
  // then "same" all end up reading x. "same" ([1,24] from [1,2,3,4]) is no
  // identity any more; pad0 is. r1, r2, r3 and pad0 lose their readers.
  CHECK(NodeSignatures(g) == Lines{"reshape(x)->same", "relu(same)->y"});
  CHECK(g.tensors.size() == 3);
  CHECK(run.runs[0].counters.ToString() == "reshape chains shortened: 3, zero pads removed: 1");
}

TEST_CASE("a reshape back to the input shape vanishes, graph outputs keep their tensor") {
  GraphBuilder b("net");
  TensorId x = b.Input("x", DType::kF32, {2, 3});
  TensorId flat = b.Op(OpKind::kReshape, "flat", {x}, Attrs({{"new_shape", Ints({6})}}));
  TensorId back = b.Op(OpKind::kReshape, "back", {flat}, Attrs({{"new_shape", Ints({2, 3})}}));
  TensorId y = b.Op(OpKind::kRelu, "y", {back});
  b.Output(b.Op(OpKind::kReshape, "out", {y}, Attrs({{"new_shape", Ints({2, 3})}})));
  Graph g = Build(std::move(b));
  REQUIRE(RunPasses(g, {"SimplifyReshape"}).status.ok());
  // back(flat(x)) = x; "out" is an identity but a graph output, so it stays.
  CHECK(NodeSignatures(g) == Lines{"relu(x)->y", "reshape(y)->out"});
}

TEST_CASE("nothing to simplify leaves the graph identical") {
  GraphBuilder b("net");
  TensorId x = b.Input("x", DType::kF32, {1, 2, 2, 1});
  TensorId pad = b.Op(OpKind::kPad, "pad", {x}, Attrs({{"pads", Ints({0, 0, 1, 1, 1, 1, 0, 0})}}));
  b.Output(b.Op(OpKind::kReshape, "flat", {pad}, Attrs({{"new_shape", Ints({16})}})));
  Graph g = Build(std::move(b));
  const std::string before = PrintGraph(g);
  auto run = RunPasses(g, {"SimplifyReshape"});
  REQUIRE(run.status.ok());
  CHECK_FALSE(run.changed);
  CHECK(PrintGraph(g) == before);
}

}  // namespace
}  // namespace opuc
