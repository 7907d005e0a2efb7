// Unification of activation fraction lengths (src/quant/activation_bits.h):
// each tensor's own best length is planted with a single calibration value,
// and the expected result follows the rules by hand.
#include <doctest/doctest.h>

#include <cmath>

#include "activation_bits.h"
#include "opuc/ir/graph_builder.h"
#include "pass/pass_test_util.h"

namespace opuc::quant {
namespace {

using testing::Attrs;
using testing::Build;
using testing::Ints;

/// Stats whose best length is exactly `f`: 101·2^-f is exact from f up and
/// clips (101·2 > 127) above it.
TensorStats BestAt(int f) {
  const float v = static_cast<float>(std::ldexp(101.0, -f));
  TensorStats stats;
  AccumulateErrors(&v, 1, stats);
  return stats;
}

TEST_CASE("activation bits: concat, moves, residual operands and clamps share one length") {
  GraphBuilder b("net");
  TensorId x = b.Input("x", DType::kF32, {1, 2, 2, 2});
  auto conv = [&](const char* name) {
    TensorId w = b.ConstantF32(std::string(name) + "/w", {2, 1, 1, 2}, {1, 0, 0, 1});
    return b.Op(OpKind::kConv2D, name, {x, w});
  };
  TensorId c1 = conv("c1");
  TensorId r1 = b.Op(OpKind::kRelu, "r1", {c1});
  TensorId c2 = conv("c2");
  TensorId cat = b.Op(OpKind::kConcat, "cat", {r1, c2}, Attrs({{"axis", int64_t{3}}}));
  TensorId p = b.Op(OpKind::kMaxPool2D, "p", {cat},
                    Attrs({{"filter", Ints({1, 1})}, {"strides", Ints({1, 1})}}));
  TensorId y = b.Op(OpKind::kConcat, "y", {conv("c4"), conv("c5")}, Attrs({{"axis", int64_t{3}}}));
  TensorId a = b.Op(OpKind::kAdd, "a", {p, y});
  TensorId c3 = conv("c3");
  TensorId r3 = b.Op(OpKind::kRelu, "r3", {c3});
  b.Output(a);
  b.Output(r3);
  b.Output(c3);
  Graph g = Build(std::move(b));

  std::vector<TensorStats> stats(g.tensors.size());
  auto plant = [&](TensorId t, int f) { stats[static_cast<size_t>(t)] = BestAt(f); };
  plant(x, 5);
  plant(c1, 3);  // only read by r1: does not vote
  plant(r1, 6);
  plant(c2, 4);
  plant(cat, 7);
  plant(p, 5);
  plant(y, 6);
  plant(a, 7);
  plant(c3, 2);  // read by r3 and a graph output: votes, and r3 stays apart
  plant(r3, 6);
  for (const Node& node : g.nodes)
    if (node.name == "c4" || node.name == "c5") plant(node.outputs[0], 6);

  const std::vector<int> bits = ChooseActivationBits(g, stats);
  auto at = [&](TensorId t) { return bits[static_cast<size_t>(t)]; };
  // {c1, r1, c2, cat, p, y, c4, c5}: concat + pool + residual operands;
  // voters choose 6, 4, 7, 5, 6, 6, 6 → 4.
  for (TensorId t : {c1, r1, c2, cat, p, y}) CHECK(at(t) == 4);
  CHECK(at(x) == 5);  // a conv's input and output are independent
  CHECK(at(a) == 7);  // an add's output is free
  CHECK(at(c3) == 2);
  CHECK(at(r3) == 6);
  // Constants have no activation length.
  for (size_t t = 0; t < g.tensors.size(); ++t)
    if (g.tensors[t].is_constant()) CHECK(bits[t] == kNoBits);
}

TEST_CASE("activation bits: a clamp's input takes the clamp's length even when finer") {
  GraphBuilder b("net");
  TensorId x = b.Input("x", DType::kF32, {1, 4});
  TensorId w = b.ConstantF32("w", {4, 4}, std::vector<float>(16, 0.5f));
  TensorId fc = b.Op(OpKind::kFullyConnected, "fc", {x, w});
  TensorId r = b.Op(OpKind::kRelu6, "r", {fc});
  b.Output(r);
  Graph g = Build(std::move(b));
  std::vector<TensorStats> stats(g.tensors.size());
  stats[static_cast<size_t>(x)] = BestAt(7);
  stats[static_cast<size_t>(fc)] = BestAt(2);  // wide negative range relu6 removes
  stats[static_cast<size_t>(r)] = BestAt(4);
  const std::vector<int> bits = ChooseActivationBits(g, stats);
  CHECK(bits[static_cast<size_t>(fc)] == 4);
  CHECK(bits[static_cast<size_t>(r)] == 4);
  CHECK(bits[static_cast<size_t>(x)] == 7);
}

}  // namespace
}  // namespace opuc::quant
