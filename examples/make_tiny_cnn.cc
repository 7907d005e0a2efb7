//===- examples/make_tiny_cnn.cc - The bundled example model --------------===//
//
// Writes tiny_cnn.opug: a small float CNN that touches every OPU datapath
// stage the later stages of opuc care about.
//
//   input [1,32,32,3]
//   conv1   3x3 conv, 12 ch, bias, ReLU         [1,32,32,12]
//   pool1   2x2 max pool, stride 2              [1,16,16,12]
//   conv2   3x3 conv, bias, ReLU                [1,16,16,12]
//   conv3   3x3 conv, bias                      [1,16,16,12]
//   res     add(conv3, pool1)                   residual
//   res_relu ReLU as its own node               [1,16,16,12]
//   branch_a 1x1 conv, ReLU ┐
//   branch_b 3x3 conv, ReLU ┴ concat            [1,16,16,24]
//   fuse    1x1 conv 24->12, ReLU               [1,16,16,12]
//   up      nearest 2x upsample                 [1,32,32,12]
//   head    3x3 conv, 4 ch                      [1,32,32,4]   output
//
// 5,152 parameters. Weights are uniform in ±sqrt(6/fan_in) (He-uniform), biases
// in ±0.1, drawn from SplitMix64 with seed 20261122 and converted to float by
// integer arithmetic only, so the bytes are the same on every platform.
//
//===----------------------------------------------------------------------===//
#include <cmath>
#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

#include "opuc/ir/graph_builder.h"
#include "opuc/opug/opug.h"
#include "opuc/tensor_io/random_input.h"

namespace {

using opuc::Attributes;
using opuc::GraphBuilder;
using opuc::OpKind;
using opuc::SplitMix64;
using opuc::TensorId;

constexpr uint64_t kSeed = 20261122;

std::vector<float> Draw(SplitMix64& rng, size_t count, float limit) {
  std::vector<float> values(count);
  for (float& v : values) v = limit * rng.UniformSigned();
  return values;
}

Attributes ConvAttrs(const char* activation) {
  Attributes attrs;
  attrs.Set("padding", std::string("same"));
  attrs.Set("activation", std::string(activation));
  return attrs;
}

/// A conv2d with He-uniform weights [co,k,k,ci] and a bias.
TensorId Conv(GraphBuilder& b, SplitMix64& rng, const std::string& name, TensorId input, int64_t ci,
              int64_t co, int64_t k, const char* activation) {
  const auto fan_in = static_cast<float>(ci * k * k);
  const TensorId w =
      b.ConstantF32(name + "/weights", {co, k, k, ci},
                    Draw(rng, static_cast<size_t>(co * k * k * ci), std::sqrt(6.0f / fan_in)));
  const TensorId bias =
      b.ConstantF32(name + "/bias", {co}, Draw(rng, static_cast<size_t>(co), 0.1f));
  return b.Op(OpKind::kConv2D, name, {input, w, bias}, ConvAttrs(activation));
}

opuc::Expected<opuc::Graph> BuildTinyCnn() {
  SplitMix64 rng(kSeed);
  GraphBuilder b("tiny_cnn");
  b.Metadata("source", "examples/make_tiny_cnn.cc, SplitMix64 seed 20261122");
  const TensorId input = b.Input("input", opuc::DType::kF32, {1, 32, 32, 3});
  const TensorId conv1 = Conv(b, rng, "conv1", input, 3, 12, 3, "relu");
  Attributes pool;
  pool.Set("filter", std::vector<int64_t>{2, 2});
  pool.Set("strides", std::vector<int64_t>{2, 2});
  const TensorId pool1 = b.Op(OpKind::kMaxPool2D, "pool1", {conv1}, pool);
  const TensorId conv2 = Conv(b, rng, "conv2", pool1, 12, 12, 3, "relu");
  const TensorId conv3 = Conv(b, rng, "conv3", conv2, 12, 12, 3, "none");
  const TensorId res = b.Op(OpKind::kAdd, "res", {conv3, pool1});
  const TensorId res_relu = b.Op(OpKind::kRelu, "res_relu", {res});
  const TensorId branch_a = Conv(b, rng, "branch_a", res_relu, 12, 12, 1, "relu");
  const TensorId branch_b = Conv(b, rng, "branch_b", res_relu, 12, 12, 3, "relu");
  Attributes concat;
  concat.Set("axis", int64_t{3});
  const TensorId cat = b.Op(OpKind::kConcat, "concat", {branch_a, branch_b}, concat);
  const TensorId fuse = Conv(b, rng, "fuse", cat, 24, 12, 1, "relu");
  Attributes up;
  up.Set("size", std::vector<int64_t>{32, 32});
  const TensorId upsampled = b.Op(OpKind::kResizeNearest, "up", {fuse}, up);
  const TensorId head = Conv(b, rng, "head", upsampled, 12, 4, 3, "none");
  b.Output(head);
  return std::move(b).Finish();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: make_tiny_cnn OUTPUT.opug\n";
    return 2;
  }
  opuc::Expected<opuc::Graph> graph = BuildTinyCnn();
  if (!graph.ok()) {
    std::cerr << "make_tiny_cnn: error: " << graph.status().message() << '\n';
    return 3;
  }
  opuc::Status saved = opuc::SaveOpugFile(*graph, argv[1]);
  if (!saved.ok()) {
    std::cerr << "make_tiny_cnn: error: " << saved.message() << '\n';
    return 2;
  }
  return 0;
}
