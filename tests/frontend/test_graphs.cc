//===- tests/frontend/test_graphs.cc - Graphs the frontend tests share ----===//
#include "frontend/test_graphs.h"

#include <doctest/doctest.h>

#include <cstring>

namespace opuc::test {
namespace {

TensorId Activation(Graph& g, const std::string& name, Shape shape) {
  Tensor t;
  t.name = name;
  t.dtype = DType::kF32;
  t.shape = std::move(shape);
  return g.AddTensor(std::move(t));
}

void AddOp(Graph& g, const std::string& name, OpKind op, std::vector<TensorId> inputs,
           TensorId output, Attributes attrs = {}) {
  Node node;
  node.name = name;
  node.op = op;
  node.inputs = std::move(inputs);
  node.outputs = {output};
  node.attrs = std::move(attrs);
  g.AddNode(std::move(node));
}

Attributes Pool2x2() {
  Attributes a;
  a.Set("filter", std::vector<int64_t>{2, 2});
  a.Set("strides", std::vector<int64_t>{2, 2});
  a.Set("padding", std::string("valid"));
  return a;
}

}  // namespace

ConstantData FloatData(const std::vector<float>& values) {
  return ConstantData::Copy(values.data(), values.size() * sizeof(float));
}

Graph MakeTinyGraph() {
  Graph g;
  g.name = "tiny";
  const TensorId input = Activation(g, "input", {1, 4, 4, 2});
  std::vector<float> w(4 * 3 * 3 * 2);
  for (size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>(i) / 8.0f - 4.0f;
  const TensorId weights = g.AddConstant("conv1/w", DType::kF32, {4, 3, 3, 2}, FloatData(w));
  g.tensor(weights).fixed_point = FixedPoint{{7, 6, 7, 5}, 0};
  const TensorId bias =
      g.AddConstant("conv1/b", DType::kF32, {4}, FloatData({0.5f, -1.0f, 2.0f, 0.0f}));
  g.tensor(bias).fixed_point = FixedPoint{{12}, -1};

  const TensorId conv = Activation(g, "conv1/out", {1, 4, 4, 4});
  Attributes conv_attrs;
  conv_attrs.Set("padding", std::string("same"));
  conv_attrs.Set("strides", std::vector<int64_t>{1, 1});
  AddOp(g, "conv1", OpKind::kConv2D, {input, weights, bias}, conv, conv_attrs);
  const TensorId relu = Activation(g, "relu1/out", {1, 4, 4, 4});
  AddOp(g, "relu1", OpKind::kRelu, {conv}, relu);
  const TensorId pool1 = Activation(g, "pool1/out", {1, 2, 2, 4});
  AddOp(g, "pool1", OpKind::kMaxPool2D, {relu}, pool1, Pool2x2());
  const TensorId pool2 = Activation(g, "pool2/out", {1, 2, 2, 2});
  AddOp(g, "pool2", OpKind::kMaxPool2D, {input}, pool2, Pool2x2());
  const TensorId concat = Activation(g, "concat/out", {1, 2, 2, 6});
  Attributes concat_attrs;
  concat_attrs.Set("axis", int64_t{3});
  AddOp(g, "concat", OpKind::kConcat, {pool1, pool2}, concat, concat_attrs);
  const TensorId softmax = Activation(g, "softmax/out", {1, 2, 2, 6});
  Attributes softmax_attrs;
  softmax_attrs.Set("beta", 1.0 / 3.0);  // not exact in 12 decimals
  AddOp(g, "softmax", OpKind::kSoftmax, {concat}, softmax, softmax_attrs);
  const TensorId mean = Activation(g, "mean/out", {1, 1, 1, 6});
  Attributes mean_attrs;
  mean_attrs.Set("axes", std::vector<int64_t>{1, 2});
  mean_attrs.Set("keep_dims", true);
  AddOp(g, "mean", OpKind::kMean, {softmax}, mean, mean_attrs);

  g.inputs = {input};
  g.outputs = {mean};
  g.metadata = {{"producer", "opuc frontend test"},
                {"note", "quote \" backslash \\ newline \n tab \t"}};
  return g;
}

Graph MakeSmallGraph() {
  Graph g;
  g.name = "small";
  const TensorId input = Activation(g, "x", {1, 2, 2, 2});
  const TensorId weights =
      g.AddConstant("w", DType::kF32, {2, 1, 1, 2}, FloatData({1.0f, 2.0f, 0.5f, -1.0f}));
  const TensorId bias = g.AddConstant("b", DType::kF32, {2}, FloatData({0.25f, -0.25f}));
  const TensorId conv = Activation(g, "conv", {1, 2, 2, 2});
  AddOp(g, "conv", OpKind::kConv2D, {input, weights, bias}, conv);
  const TensorId pool = Activation(g, "pool", {1, 1, 1, 2});
  AddOp(g, "pool", OpKind::kMaxPool2D, {conv}, pool, Pool2x2());
  const TensorId softmax = Activation(g, "softmax", {1, 1, 1, 2});
  AddOp(g, "softmax", OpKind::kSoftmax, {pool}, softmax);
  const TensorId mean = Activation(g, "mean", {1, 1, 1});
  Attributes mean_attrs;
  mean_attrs.Set("axes", std::vector<int64_t>{3});
  AddOp(g, "mean", OpKind::kMean, {softmax}, mean, mean_attrs);
  g.inputs = {input};
  g.outputs = {mean};
  g.metadata = {{"k", "v"}};
  return g;
}

void CheckSameGraph(const Graph& a, const Graph& b) {
  CHECK(a.name == b.name);
  REQUIRE(a.tensors.size() == b.tensors.size());
  for (size_t i = 0; i < a.tensors.size(); ++i) {
    const Tensor& x = a.tensors[i];
    const Tensor& y = b.tensors[i];
    INFO("tensor ", i, " '", x.name, "'");
    CHECK(x.name == y.name);
    CHECK(x.dtype == y.dtype);
    CHECK(x.shape == y.shape);
    CHECK(x.fixed_point == y.fixed_point);
    REQUIRE(x.is_constant() == y.is_constant());
    if (x.is_constant()) CHECK(x.constant->SameBytes(*y.constant));
  }
  REQUIRE(a.nodes.size() == b.nodes.size());
  for (size_t i = 0; i < a.nodes.size(); ++i) {
    INFO("node ", i, " '", a.nodes[i].name, "'");
    CHECK(a.nodes[i].name == b.nodes[i].name);
    CHECK(a.nodes[i].op == b.nodes[i].op);
    CHECK(a.nodes[i].inputs == b.nodes[i].inputs);
    CHECK(a.nodes[i].outputs == b.nodes[i].outputs);
    CHECK(a.nodes[i].attrs == b.nodes[i].attrs);
    REQUIRE((a.nodes[i].body == nullptr) == (b.nodes[i].body == nullptr));
    if (a.nodes[i].body) CheckSameGraph(*a.nodes[i].body, *b.nodes[i].body);
  }
  CHECK(a.inputs == b.inputs);
  CHECK(a.outputs == b.outputs);
  CHECK(a.metadata == b.metadata);
}

const char kTwoNodeJson[] = R"json({
  "version": 1,
  "name": "two_nodes",
  "tensors": [
    { "name": "image", "dtype": "F32", "shape": [1, 2, 2, 2] },
    { "name": "mix/w", "dtype": "F32", "shape": [2, 1, 1, 2], "buffer": 1 },
    { "name": "mix/out", "dtype": "F32", "shape": [1, 2, 2, 2] },
    { "name": "act/out", "dtype": "F32", "shape": [1, 2, 2, 2] }
  ],
  "buffers": [
    {},
    { "data": [0, 0, 128, 63, 0, 0, 0, 64, 0, 0, 0, 63, 0, 0, 128, 191] }
  ],
  "nodes": [
    {
      "op": "conv2d",
      "name": "mix",
      "inputs": [0, 1, -1],
      "outputs": [2],
      "attrs": [
        { "name": "padding", "value_type": "StringAttr", "value": { "value": "same" } }
      ]
    },
    { "op": "relu", "name": "act", "inputs": [2], "outputs": [3] }
  ],
  "inputs": [0],
  "outputs": [3],
  "metadata": [
    { "key": "author", "value": "docs/graph-format.md" }
  ]
}
)json";

}  // namespace opuc::test
