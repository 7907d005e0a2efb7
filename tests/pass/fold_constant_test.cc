// FoldConstant, FoldDequantize and Densify: constant subgraphs evaluated at
// compile time; expected values by hand.
#include <cstdint>

#include "opuc/ir/sparsity.h"
#include "opuc/ir/verifier.h"
#include "pass/pass_test_util.h"

namespace opuc {
namespace {

using namespace testing;

TEST_CASE("FoldConstant evaluates constant subgraphs, cascading, and drops what they read") {
  GraphBuilder b("net");
  TensorId x = b.Input("x", DType::kF32, {2});
  TensorId k1 = b.ConstantF32("k1", {2}, {1, 2});
  TensorId k2 = b.ConstantF32("k2", {2}, {3, 4});
  TensorId s = b.Op(OpKind::kAdd, "s", {k1, k2});  // {4, 6}
  TensorId d = b.Op(OpKind::kSub, "d", {k1, k2});  // {-2, -2}
  TensorId r = b.Op(OpKind::kRelu, "r", {d});      // {0, 0}
  TensorId y = b.Op(OpKind::kMul, "y", {x, s});
  b.Output(b.Op(OpKind::kAdd, "z", {y, r}));
  Graph g = Build(std::move(b));
  auto run = RunPasses(g, {"FoldConstant"});
  REQUIRE(run.status.ok());
  CHECK(NodeSignatures(g) == Lines{"mul(x,s)->y", "add(y,r)->z"});
  CHECK(ConstantF32(g, "s") == std::vector<float>{4, 6});
  CHECK(ConstantF32(g, "r") == std::vector<float>{0, 0});
  CHECK(ConstantF32(g, "k1").empty());  // no longer read: dropped
  CHECK(run.runs[0].counters.ToString() == "nodes folded: 3");
}

TEST_CASE("FoldConstant keeps a folded graph output, honours the size limit, and no-ops") {
  GraphBuilder b("net");
  TensorId k1 = b.ConstantF32("k1", {2}, {1, 2});
  TensorId k2 = b.ConstantF32("k2", {2}, {3, 4});
  b.Output(b.Op(OpKind::kMul, "out", {k1, k2}));
  Graph g = Build(std::move(b));
  Graph limited = g;

  REQUIRE(RunPasses(g, {"FoldConstant"}).status.ok());
  CHECK(g.nodes.empty());
  REQUIRE(g.outputs.size() == 1);
  CHECK(g.tensor(g.outputs[0]).name == "out");
  CHECK(ConstantF32(g, "out") == std::vector<float>{3, 8});

  PassContext ctx;
  REQUIRE(ctx.config.Set("FoldConstant.max_output_bytes", int64_t{4}).ok());  // result is 8
  auto pass = CreatePass("FoldConstant");
  REQUIRE(pass.ok());
  PassCounters counters;
  const std::string before = PrintGraph(limited);
  Expected<bool> changed = (*pass)->Run(limited, ctx, counters);
  REQUIRE(changed.ok());
  CHECK_FALSE(*changed);
  CHECK(PrintGraph(limited) == before);
}

TEST_CASE("FoldDequantize turns float16 constants into float32 ones") {
  // IEEE half: 0x3C00 = 1, 0xC000 = -2, 0x3555 = 2^-2 * (1 + 341/1024) = 0.333251953125,
  // 0x0001 = 2^-24 (the smallest subnormal).
  const uint16_t half[4] = {0x3C00, 0xC000, 0x3555, 0x0001};
  GraphBuilder b("net");
  TensorId x = b.Input("x", DType::kF32, {4});
  TensorId w = b.Constant("w16", DType::kF16, {4}, ConstantData::Copy(half, sizeof(half)));
  TensorId deq = b.Op(OpKind::kDequantize, "w", {w});
  b.Output(b.Op(OpKind::kMul, "y", {x, deq}));
  Graph g = Build(std::move(b));
  auto run = RunPasses(g, {"FoldDequantize"});
  REQUIRE(run.status.ok());
  CHECK(NodeSignatures(g) == Lines{"mul(x,w)->y"});
  CHECK(ConstantF32(g, "w") == std::vector<float>{1.0f, -2.0f, 0.333251953125f, 0x1p-24f});
  CHECK(run.runs[0].counters.ToString() == "dequantized constants: 1");
}

TEST_CASE("Densify decodes a sparse constant feeding DENSIFY") {
  // [[0, 5], [7, 0]]: rows dense (2), columns compressed: row 0 holds column 1, row 1 column 0.
  Sparsity sparsity;
  sparsity.traversal_order = {0, 1};
  sparsity.dimensions.resize(2);
  sparsity.dimensions[0].dense = true;
  sparsity.dimensions[0].dense_size = 2;
  sparsity.dimensions[1].dense = false;
  sparsity.dimensions[1].segments = {0, 1, 2};
  sparsity.dimensions[1].indices = {1, 0};
  const float stored[2] = {5, 7};

  auto tensor = [](const char* name) {
    Tensor t;
    t.name = name;
    t.shape = {2, 2};
    return t;
  };
  Graph g0;
  const TensorId x = g0.AddTensor(tensor("x"));
  g0.inputs = {x};
  Tensor sparse = tensor("w_sparse");
  sparse.constant = ConstantData::Copy(stored, sizeof(stored));
  sparse.sparsity = sparsity;
  const TensorId w_sparse = g0.AddTensor(sparse);
  const TensorId w = g0.AddTensor(tensor("w"));
  const TensorId y = g0.AddTensor(tensor("y"));
  g0.AddNode(Node{"w", OpKind::kDensify, {w_sparse}, {w}, {}});
  g0.AddNode(Node{"y", OpKind::kAdd, {x, w}, {y}, {}});
  g0.outputs = {y};
  REQUIRE(Verify(g0).ok());

  auto run = RunPasses(g0, {"Densify"});
  REQUIRE(run.status.ok());
  CHECK(NodeSignatures(g0) == Lines{"add(x,w)->y"});
  CHECK(ConstantF32(g0, "w") == std::vector<float>{0, 5, 7, 0});
  CHECK(ConstantF32(g0, "w_sparse").empty());
}

}  // namespace
}  // namespace opuc

namespace opuc {
namespace {

using namespace testing;

TEST_CASE("FoldDequantize and Densify leave nodes with non-constant inputs alone") {
  GraphBuilder b("net");
  TensorId x16 = b.Input("x16", DType::kF16, {4});
  TensorId x = b.Op(OpKind::kDequantize, "x", {x16});
  b.Output(b.Op(OpKind::kDensify, "y", {x}));
  Graph g = Build(std::move(b));
  const std::string before = PrintGraph(g);
  auto run = RunPasses(g, {"FoldDequantize", "Densify"});
  REQUIRE(run.status.ok());
  CHECK_FALSE(run.changed);
  CHECK(PrintGraph(g) == before);
}

}  // namespace
}  // namespace opuc
