// The unary elementwise ops and prelu.
#include <cmath>
#include <limits>

#include "reference_test_util.h"

namespace opuc {
namespace {

using namespace testing;

const std::vector<float> kX = {-4, -3, -1.5f, -0.5f, 0, 0.5f, 1.5f, 3, 7};

std::vector<float> Unary(OpKind op, const std::vector<float>& x, Attributes attrs = {}) {
  OpRun r = RunOp(op, {F({static_cast<int64_t>(x.size())}, x)}, std::move(attrs));
  REQUIRE(r.status.ok());
  return r.values;
}

TEST_CASE("relu, relu6 and relu_n1_to_1 clamp") {
  CHECK(Unary(OpKind::kRelu, kX) == std::vector<float>{0, 0, 0, 0, 0, 0.5f, 1.5f, 3, 7});
  CHECK(Unary(OpKind::kRelu6, kX) == std::vector<float>{0, 0, 0, 0, 0, 0.5f, 1.5f, 3, 6});
  CHECK(Unary(OpKind::kReluN1To1, kX) == std::vector<float>{-1, -1, -1, -0.5f, 0, 0.5f, 1, 1, 1});
}

TEST_CASE("the clamps keep NaN") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (OpKind op : {OpKind::kRelu, OpKind::kRelu6, OpKind::kReluN1To1})
    CHECK(std::isnan(Unary(op, {nan})[0]));
}

TEST_CASE("leaky_relu scales the negative side by alpha") {
  // alpha 0.25: -4 -> -1, -3 -> -0.75, -1.5 -> -0.375, -0.5 -> -0.125; x > 0 unchanged.
  CHECK(Unary(OpKind::kLeakyRelu, kX, A({{"alpha", Real(0.25)}})) ==
        std::vector<float>{-1, -0.75f, -0.375f, -0.125f, 0, 0.5f, 1.5f, 3, 7});
}

TEST_CASE("hard_swish is x * relu6(x + 3) / 6") {
  //  -4: relu6(-1) = 0 -> 0          -3: relu6(0) = 0 -> 0
  //  -1.5: -1.5 * 1.5 / 6 = -0.375   -0.5: -0.5 * 2.5 / 6 = -0.2083333
  //   0: 0                            0.5: 0.5 * 3.5 / 6 = 0.2916667
  //   1.5: 1.5 * 4.5 / 6 = 1.125      3: 3 * 6 / 6 = 3      7: 7 * 6 / 6 = 7
  CheckClose(Unary(OpKind::kHardSwish, kX),
             {0, 0, -0.375, -0.5 * 2.5 / 6, 0, 0.5 * 3.5 / 6, 1.125, 3, 7});
}

TEST_CASE("sigmoid is 1 / (1 + e^-x), with TFLite's cutoffs") {
  // sigmoid(0) = 0.5; sigmoid(±1) = 0.7310585786 / 0.2689414214;
  // sigmoid(2) = 0.8807970780; sigmoid(-5) = 1 / (1 + 148.4131591) = 0.0066928509.
  CheckClose(Unary(OpKind::kSigmoid, {0, 1, -1, 2, -5}),
             {0.5, 0.7310585786, 0.2689414214, 0.8807970780, 0.0066928509});
  // Above 16.619047164916992188 the result is exactly 1 (1/(1+e^-17) would be
  // 1 - 4.1e-8, which also rounds to 1 in float, so check it is not below).
  CHECK(Unary(OpKind::kSigmoid, {17})[0] == 1.0f);
  // Below -9 the result is e^x: e^-10 = 4.5399929762e-05, where the plain
  // formula 1/(1 + e^10) = 4.5397868702e-05 differs in the 5th digit.
  CheckClose(Unary(OpKind::kSigmoid, {-10}), {4.5399929762e-05}, 1e-6);
}

TEST_CASE("tanh") {
  // tanh(0) = 0, tanh(±1) = ±0.7615941560, tanh(0.5) = 0.4621171573,
  // tanh(3) = 0.9950547537; tanh(20) = 1 - 8.5e-18, the float 1.
  CheckClose(Unary(OpKind::kTanh, {0, 1, -1, 0.5f, 3, 20}),
             {0, 0.7615941560, -0.7615941560, 0.4621171573, 0.9950547537, 1.0});
}

TEST_CASE("prelu multiplies negative inputs by a broadcast alpha") {
  SUBCASE("one alpha per channel (the last axis)") {
    // x [[-1,2],[-3,-4]], alpha [0.5,0.25]: -1*0.5, 2, -3*0.5, -4*0.25.
    OpRun r = RunOp(OpKind::kPRelu, {F({2, 2}, {-1, 2, -3, -4}), C({2}, {0.5f, 0.25f})});
    REQUIRE(r.status.ok());
    CHECK(r.values == std::vector<float>{-0.5f, 2, -1.5f, -1});
  }
  SUBCASE("alpha broadcast along the first axis; zero takes the x >= 0 branch") {
    // x [[-1,-2],[0,4]], alpha [[0.5],[2]]: -0.5, -1, 0, 4.
    OpRun r = RunOp(OpKind::kPRelu, {F({2, 2}, {-1, -2, 0, 4}), C({2, 1}, {0.5f, 2})});
    REQUIRE(r.status.ok());
    CHECK(r.values == std::vector<float>{-0.5f, -1, 0, 4});
  }
  SUBCASE("NHWC with alpha [1,1,C]") {
    // Pixels (-2, -2) and (2, -8), alpha (0.5, 0.125): (-1, -0.25), (2, -1).
    OpRun r =
        RunOp(OpKind::kPRelu, {F({1, 1, 2, 2}, {-2, -2, 2, -8}), C({1, 1, 2}, {0.5f, 0.125f})});
    REQUIRE(r.status.ok());
    CHECK(r.values == std::vector<float>{-1, -0.25f, 2, -1});
  }
}

}  // namespace
}  // namespace opuc
