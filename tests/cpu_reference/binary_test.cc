// add, sub, mul: NumPy broadcasting and the fused activation.
#include <cmath>

#include "reference_test_util.h"

namespace opuc {
namespace {

using namespace testing;

const std::vector<float> k2x3 = {1, 2, 3, 4, 5, 6};  // [[1,2,3],[4,5,6]]

TEST_CASE("add broadcasts a row vector and a column vector") {
  SUBCASE("[2,3] + [3]: the row repeats") {
    OpRun r = RunOp(OpKind::kAdd, {F({2, 3}, k2x3), F({3}, {10, 20, 30})});
    REQUIRE(r.status.ok());
    CHECK(r.values == std::vector<float>{11, 22, 33, 14, 25, 36});
  }
  SUBCASE("[2,3] + [2,1]: the column repeats") {
    OpRun r = RunOp(OpKind::kAdd, {F({2, 3}, k2x3), F({2, 1}, {10, 20})});
    REQUIRE(r.status.ok());
    CHECK(r.values == std::vector<float>{11, 12, 13, 24, 25, 26});
  }
}

TEST_CASE("add, sub and mul broadcast both operands: 2x1 op 1x3 gives 2x3") {
  // lhs [[1],[2]], rhs [[10,20,30]]: out[i][j] = lhs[i] op rhs[j].
  const std::vector<Operand> operands = {F({2, 1}, {1, 2}), F({1, 3}, {10, 20, 30})};
  OpRun add = RunOp(OpKind::kAdd, operands);
  OpRun sub = RunOp(OpKind::kSub, operands);
  OpRun mul = RunOp(OpKind::kMul, operands);
  REQUIRE(add.status.ok());
  CHECK(add.shape == Shape{2, 3});
  CHECK(add.values == std::vector<float>{11, 21, 31, 12, 22, 32});
  CHECK(sub.values == std::vector<float>{-9, -19, -29, -8, -18, -28});
  CHECK(mul.values == std::vector<float>{10, 20, 30, 20, 40, 60});
}

TEST_CASE("binary ops broadcast across ranks: 2x1x2 op 3x1 gives 2x3x2") {
  // lhs [[[1,2]],[[3,4]]], rhs [[10],[20],[30]]: out[i,j,k] = lhs[i,0,k] + rhs[j,0].
  OpRun r = RunOp(OpKind::kAdd, {F({2, 1, 2}, {1, 2, 3, 4}), F({3, 1}, {10, 20, 30})});
  REQUIRE(r.status.ok());
  CHECK(r.shape == Shape{2, 3, 2});
  CHECK(r.values == std::vector<float>{11, 12, 21, 22, 31, 32, 13, 14, 23, 24, 33, 34});
}

TEST_CASE("binary ops with a scalar and with equal shapes") {
  OpRun scalar = RunOp(OpKind::kMul, {F({2, 3}, k2x3), C({}, {2})});
  REQUIRE(scalar.status.ok());
  CHECK(scalar.values == std::vector<float>{2, 4, 6, 8, 10, 12});
  OpRun same = RunOp(OpKind::kSub, {F({2, 3}, k2x3), F({2, 3}, {6, 5, 4, 3, 2, 1})});
  CHECK(same.values == std::vector<float>{-5, -3, -1, 1, 3, 5});
  // The scalar on the left: 10 - [1..6].
  OpRun left = RunOp(OpKind::kSub, {C({}, {10}), F({2, 3}, k2x3)});
  CHECK(left.values == std::vector<float>{9, 8, 7, 6, 5, 4});
}

TEST_CASE("binary ops apply their fused activation to the result") {
  // [-2, -0.5, 3, 8] + 1 = [-1, 0.5, 4, 9].
  auto add = [](const char* activation) {
    return RunOp(OpKind::kAdd, {F({4}, {-2, -0.5f, 3, 8}), F({1}, {1})},
                 A({{"activation", Str(activation)}}));
  };
  CHECK(add("none").values == std::vector<float>{-1, 0.5f, 4, 9});
  CHECK(add("relu").values == std::vector<float>{0, 0.5f, 4, 9});
  CHECK(add("relu6").values == std::vector<float>{0, 0.5f, 4, 6});
  CHECK(add("relu_n1_to_1").values == std::vector<float>{-1, 0.5f, 1, 1});
  // tanh(-1) = -0.7615941560, tanh(0.5) = 0.4621171573, tanh(4) = 0.9993292997,
  // tanh(9) = 0.9999999695.
  CheckClose(add("tanh").values, {-0.7615941560, 0.4621171573, 0.9993292997, 0.9999999695});
  // sub with relu6: [5, 10] - [1, 1] = [4, 9] -> [4, 6]; mul with relu: [-1, 2] * 3.
  CHECK(RunOp(OpKind::kSub, {F({2}, {5, 10}), F({1}, {1})}, A({{"activation", Str("relu6")}}))
            .values == std::vector<float>{4, 6});
  CHECK(RunOp(OpKind::kMul, {F({2}, {-1, 2}), F({1}, {3})}, A({{"activation", Str("relu")}}))
            .values == std::vector<float>{0, 6});
}

TEST_CASE("binary ops on integers are not implemented by the float reference") {
  OpRun r = RunOp(OpKind::kAdd, {Ints(DType::kI32, {2}, {1, 2}), Ints(DType::kI32, {2}, {3, 4})});
  CHECK(r.status.code() == StatusCode::kUnsupported);
  CHECK(Contains(r.status.message(), "node 0 'op' (add)"));
  CHECK(Contains(r.status.message(), "i32"));
}

}  // namespace
}  // namespace opuc
