// Refining activation lengths against the outputs (src/quant/refine_lengths.h);
// every rounding below is worked out by hand.
#include <doctest/doctest.h>

#include "activation_bits.h"
#include "opuc/ir/graph_builder.h"
#include "pass/pass_test_util.h"
#include "refine_lengths.h"

namespace opuc::quant {
namespace {

using testing::Build;

TEST_CASE("refine lengths: the output, not the tensor's own error, picks the length") {
  // y = x · [100, 0] on x = [0.28, 5.0]: only x[0] reaches the output.
  // Its own least error is at f = 4 (x[1] = 5.0 clips at 5 and beyond); there
  // x[0] = 4.48/16 → 4/16 = 0.25, y[0] = 25 instead of 28: E = (3/28)².
  // x at f = 5 clips x[1], which y ignores, and resolves x[0]: 8.96 → 9/32 =
  // 0.28125, y[0] = 28.125 → at y's f = 2: 112.5 → 113/4 = 28.25; E =
  // (0.25/28)². Then y at f = 1: 56.25 → 56/2 = 28, exact: E = 0. x at f = 3
  // (2.24 → 2/8) and y at f = 3 (225 clips) are worse and stay untried or lose.
  GraphBuilder b("net");
  TensorId x = b.Input("x", DType::kF32, {1, 2});
  TensorId y = b.Op(OpKind::kMul, "y", {x, b.ConstantF32("c", {2}, {100.0f, 0.0f})});
  b.Output(y);
  Graph g = Build(std::move(b));
  std::vector<int> bits(g.tensors.size(), kNoBits);
  bits[static_cast<size_t>(x)] = 4;
  bits[static_cast<size_t>(y)] = 2;
  const std::vector<std::vector<HostTensor>> samples = {
      {testing::F32Tensor({1, 2}, {0.28f, 5.0f})}};
  Expected<RefineReport> report = RefineActivationBits(g, g, samples, bits);
  REQUIRE(report.ok());
  CHECK(bits[static_cast<size_t>(x)] == 5);
  CHECK(bits[static_cast<size_t>(y)] == 1);
  CHECK(report->groups_changed == 2);
  CHECK(report->error_before == doctest::Approx((3.0 / 28) * (3.0 / 28)).epsilon(1e-5));
  CHECK(report->error_after == 0.0);
}

TEST_CASE("refine lengths: a unified group moves as one") {
  // relu is h's only reader, so h and relu(h) share a length
  // (activation_bits.h). x = 0.28125 = 9/32 is exact at its f = 8; f = 9
  // clips it (144 → 127/512) and f = 7 is no better, so x stays. h = x at
  // f = 4 is 4.5 → 5/16 = 0.3125; at f = 5 it is exact (9/32): the group
  // moves to 5 (both tensors), and f = 3 (2.25 → 2/8) then loses.
  GraphBuilder b("net");
  TensorId x = b.Input("x", DType::kF32, {1, 1});
  TensorId h = b.Op(OpKind::kMul, "h", {x, b.ConstantF32("one", {1}, {1.0f})});
  TensorId r = b.Op(OpKind::kRelu, "r", {h});
  b.Output(r);
  Graph g = Build(std::move(b));
  REQUIRE(UnifyActivations(g).group[static_cast<size_t>(h)] ==
          UnifyActivations(g).group[static_cast<size_t>(r)]);
  std::vector<int> bits(g.tensors.size(), kNoBits);
  bits[static_cast<size_t>(x)] = 8;
  bits[static_cast<size_t>(h)] = bits[static_cast<size_t>(r)] = 4;
  const std::vector<std::vector<HostTensor>> samples = {{testing::F32Tensor({1, 1}, {0.28125f})}};
  Expected<RefineReport> report = RefineActivationBits(g, g, samples, bits);
  REQUIRE(report.ok());
  CHECK(bits[static_cast<size_t>(h)] == 5);
  CHECK(bits[static_cast<size_t>(r)] == 5);
  CHECK(bits[static_cast<size_t>(x)] == 8);
  CHECK(report->error_after == 0.0);
}

}  // namespace
}  // namespace opuc::quant
