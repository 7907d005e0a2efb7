// FoldScaleAxis and FoldBatchNorm: per-channel constants after inner
// products folded into weights and biases; expected values by hand.
#include "opuc/cpu_reference/reference.h"
#include "opuc/tensor_io/host_tensor.h"
#include "pass/pass_test_util.h"

namespace opuc {
namespace {

using namespace testing;

/// x[1,2,2,2] -> conv2d 1x1 (w = [[1,2],[3,4]], b = [0.5,-0.5]).
TensorId Conv(GraphBuilder& b, TensorId x, const char* activation = "none", bool bias = true) {
  TensorId w = b.ConstantF32("w", {2, 1, 1, 2}, {1, 2, 3, 4});
  std::vector<TensorId> inputs = {x, w};
  if (bias) inputs.push_back(b.ConstantF32("b", {2}, {0.5f, -0.5f}));
  return b.Op(OpKind::kConv2D, "conv", inputs, Attrs({{"activation", Str(activation)}}));
}

TEST_CASE("FoldScaleAxis: mul by a per-channel constant goes into weights and bias") {
  for (bool constant_first : {false, true}) {
    GraphBuilder b("net");
    TensorId x = b.Input("x", DType::kF32, {1, 2, 2, 2});
    TensorId conv = Conv(b, x);
    TensorId s = b.ConstantF32("s", {1, 1, 1, 2}, {2, 4});
    b.Output(b.Op(OpKind::kMul, "y",
                  constant_first ? std::vector<TensorId>{s, conv} : std::vector<TensorId>{conv, s},
                  Attrs({{"activation", Str("relu6")}})));
    Graph g = Build(std::move(b));
    auto run = RunPasses(g, {"FoldScaleAxis"});
    REQUIRE(run.status.ok());
    CHECK(run.changed);
    CHECK(NodeSignatures(g) == Lines{"conv2d(x,w/scaled,b/scaled)->y"});
    // Output channel 0 scales by 2, channel 1 by 4.
    CHECK(ConstantF32(g, "w/scaled") == std::vector<float>{2, 4, 12, 16});
    CHECK(ConstantF32(g, "b/scaled") == std::vector<float>{1, -2});
    CHECK(g.nodes[0].attrs.GetString("activation") == "relu6");  // the mul's activation
    CHECK(g.tensors.size() == 4);  // x, y, w/scaled, b/scaled: the rest is gone
    CHECK(run.runs[0].counters.ToString() == "scales folded into weights: 1");
  }
}

TEST_CASE("FoldScaleAxis: depthwise weights keep the channel last, FC puts it first") {
  GraphBuilder b("net");
  TensorId x = b.Input("x", DType::kF32, {1, 2, 2, 2});
  TensorId w = b.ConstantF32("dw", {1, 1, 1, 2}, {1, 2});
  TensorId dw = b.Op(OpKind::kDepthwiseConv2D, "dwconv", {x, w});
  TensorId s = b.ConstantF32("s", {2}, {3, 5});
  TensorId y = b.Op(OpKind::kMul, "y", {dw, s});
  TensorId flat = b.Op(OpKind::kReshape, "flat", {y}, Attrs({{"new_shape", Ints({1, 8})}}));
  TensorId fw = b.ConstantF32("fw", {2, 8}, {1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2});
  TensorId fc = b.Op(OpKind::kFullyConnected, "fc", {flat, fw});
  TensorId t = b.ConstantF32("t", {1}, {-1});  // one scale for every channel
  b.Output(b.Op(OpKind::kMul, "z", {fc, t}));
  Graph g = Build(std::move(b));
  REQUIRE(RunPasses(g, {"FoldScaleAxis"}).status.ok());
  CHECK(NodeSignatures(g) == Lines{"depthwise_conv2d(x,dw/scaled)->y", "reshape(y)->flat",
                                   "fully_connected(flat,fw/scaled)->z"});
  CHECK(ConstantF32(g, "dw/scaled") == std::vector<float>{3, 10});
  CHECK(ConstantF32(g, "fw/scaled") ==
        std::vector<float>({-1, -1, -1, -1, -1, -1, -1, -1, -2, -2, -2, -2, -2, -2, -2, -2}));
}

TEST_CASE("FoldScaleAxis leaves inexact or unsafe cases identical") {
  auto check_untouched = [](Graph g) {
    const std::string before = PrintGraph(g);
    auto run = RunPasses(g, {"FoldScaleAxis"});
    REQUIRE(run.status.ok());
    CHECK_FALSE(run.changed);
    CHECK(PrintGraph(g) == before);
  };
  {  // relu(conv) * s != conv with scaled weights when s < 0
    GraphBuilder b("relu");
    TensorId conv = Conv(b, b.Input("x", DType::kF32, {1, 2, 2, 2}), "relu");
    b.Output(b.Op(OpKind::kMul, "y", {conv, b.ConstantF32("s", {2}, {2, -4})}));
    check_untouched(Build(std::move(b)));
  }
  {  // the conv output is also read elsewhere
    GraphBuilder b("shared");
    TensorId conv = Conv(b, b.Input("x", DType::kF32, {1, 2, 2, 2}));
    b.Output(b.Op(OpKind::kMul, "y", {conv, b.ConstantF32("s", {2}, {2, 4})}));
    b.Output(conv);
    check_untouched(Build(std::move(b)));
  }
  {  // the constant varies along a spatial axis, not only the channel
    GraphBuilder b("spatial");
    TensorId conv = Conv(b, b.Input("x", DType::kF32, {1, 2, 2, 2}));
    b.Output(b.Op(OpKind::kMul, "y", {conv, b.ConstantF32("s", {1, 2, 1, 1}, {2, 4})}));
    check_untouched(Build(std::move(b)));
  }
  {  // the other operand is not a constant
    GraphBuilder b("dynamic");
    TensorId x = b.Input("x", DType::kF32, {1, 2, 2, 2});
    TensorId s = b.Input("s", DType::kF32, {2});
    b.Output(b.Op(OpKind::kMul, "y", {Conv(b, x), s}));
    check_untouched(Build(std::move(b)));
  }
}

TEST_CASE("FoldBatchNorm: scale then shift become new weights and bias") {
  GraphBuilder b("bn");
  TensorId conv = Conv(b, b.Input("x", DType::kF32, {1, 2, 2, 2}));
  TensorId scaled = b.Op(OpKind::kMul, "scaled", {conv, b.ConstantF32("s", {2}, {2, 4})});
  b.Output(b.Op(OpKind::kAdd, "y", {scaled, b.ConstantF32("c", {2}, {1, 1})},
                Attrs({{"activation", Str("relu")}})));
  Graph g = Build(std::move(b));
  auto run = RunPasses(g, {"FoldBatchNorm"});
  REQUIRE(run.status.ok());
  CHECK(NodeSignatures(g) == Lines{"conv2d(x,w/scaled,b/scaled/shifted)->y"});
  // bias: 0.5 * 2 + 1 = 2, -0.5 * 4 + 1 = -1
  CHECK(ConstantF32(g, "b/scaled/shifted") == std::vector<float>{2, -1});
  CHECK(g.nodes[0].attrs.GetString("activation") == "relu");
}

TEST_CASE("FoldBatchNorm: sub, a missing bias, and c - conv left alone") {
  {
    GraphBuilder b("sub");
    TensorId conv = Conv(b, b.Input("x", DType::kF32, {1, 2, 2, 2}));
    b.Output(b.Op(OpKind::kSub, "y", {conv, b.ConstantF32("c", {2}, {1, 2})}));
    Graph g = Build(std::move(b));
    REQUIRE(RunPasses(g, {"FoldBatchNorm"}).status.ok());
    CHECK(ConstantF32(g, "b/shifted") == std::vector<float>{-0.5f, -2.5f});
  }
  {
    GraphBuilder b("no_bias");
    TensorId conv = Conv(b, b.Input("x", DType::kF32, {1, 2, 2, 2}), "none", /*bias=*/false);
    b.Output(b.Op(OpKind::kAdd, "y", {b.ConstantF32("c", {2}, {1, 2}), conv}));
    Graph g = Build(std::move(b));
    REQUIRE(RunPasses(g, {"FoldBatchNorm"}).status.ok());
    CHECK(NodeSignatures(g) == Lines{"conv2d(x,w,conv/bias)->y"});
    CHECK(ConstantF32(g, "conv/bias") == std::vector<float>{1, 2});
  }
  {
    GraphBuilder b("reversed");
    TensorId conv = Conv(b, b.Input("x", DType::kF32, {1, 2, 2, 2}));
    b.Output(b.Op(OpKind::kSub, "y", {b.ConstantF32("c", {2}, {1, 2}), conv}));
    Graph g = Build(std::move(b));
    const std::string before = PrintGraph(g);
    auto run = RunPasses(g, {"FoldBatchNorm"});
    REQUIRE(run.status.ok());
    CHECK(PrintGraph(g) == before);
  }
}

}  // namespace
}  // namespace opuc

namespace opuc {
namespace {

using namespace testing;

/// Output 0 of the float reference on `graph` for input values `x`.
std::vector<float> Evaluate(const Graph& graph, const std::vector<float>& x) {
  const Tensor& in = graph.tensor(graph.inputs[0]);
  std::vector<HostTensor> inputs;
  inputs.push_back(
      HostTensor::Copy(DType::kF32, in.shape, x.data(), x.size() * sizeof(float)).value());
  Expected<std::vector<HostTensor>> out = RunReference(graph, inputs);
  REQUIRE_MESSAGE(out.ok(), out.status().ToString());
  const HostTensor& y = out->front();
  return std::vector<float>(y.data<float>(), y.data<float>() + y.elements());
}

TEST_CASE("the folded graph computes what the original did") {
  GraphBuilder b("bn");
  TensorId x = b.Input("x", DType::kF32, {1, 2, 2, 2});
  TensorId w = b.ConstantF32("w", {2, 3, 3, 2}, std::vector<float>(36, 0.25f));
  TensorId conv = b.Op(OpKind::kConv2D, "conv", {x, w, b.ConstantF32("b", {2}, {0.5f, -1})},
                       Attrs({{"padding", Str("same")}}));
  TensorId scaled = b.Op(OpKind::kMul, "scaled", {conv, b.ConstantF32("s", {2}, {3, -0.5f})});
  b.Output(b.Op(OpKind::kSub, "y", {scaled, b.ConstantF32("c", {1, 1, 1, 2}, {1, 2})},
                Attrs({{"activation", Str("relu")}})));
  Graph original = Build(std::move(b));
  Graph folded = original;
  REQUIRE(RunPasses(folded, {"FoldBatchNorm"}).status.ok());
  REQUIRE(folded.nodes.size() == 1);
  const std::vector<float> input = {1, -2, 3, 0.5f, -1, 2, 0.25f, 4};
  const std::vector<float> before = Evaluate(original, input);
  const std::vector<float> after = Evaluate(folded, input);
  REQUIRE(before.size() == after.size());
  // Every value here is a small multiple of 1/8, so both orders round the same.
  for (size_t i = 0; i < before.size(); ++i) CHECK(after[i] == before[i]);
}

}  // namespace
}  // namespace opuc
