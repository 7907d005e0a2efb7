// mean and softmax.
#include "reference_test_util.h"

namespace opuc {
namespace {

using namespace testing;

const std::vector<float> k2x3 = {1, 2, 3, 4, 5, 6};  // [[1,2,3],[4,5,6]]

OpRun Mean(Operand input, std::vector<int64_t> axes, bool keep = false) {
  return RunOp(OpKind::kMean, {std::move(input)},
               A({{"axes", IntList(std::move(axes))}, {"keep_dims", Flag(keep)}}));
}

TEST_CASE("mean over one axis, all axes, negative axes and keep_dims") {
  OpRun rows = Mean(F({2, 3}, k2x3), {1});  // (1+2+3)/3 = 2, (4+5+6)/3 = 5
  REQUIRE(rows.status.ok());
  CHECK(rows.shape == Shape{2});
  CHECK(rows.values == std::vector<float>{2, 5});
  OpRun cols = Mean(F({2, 3}, k2x3), {0});  // (1+4)/2, (2+5)/2, (3+6)/2
  CHECK(cols.values == std::vector<float>{2.5f, 3.5f, 4.5f});
  OpRun all = Mean(F({2, 3}, k2x3), {0, 1});  // 21/6
  CHECK(all.shape == Shape{});
  CHECK(all.values == std::vector<float>{3.5f});
  OpRun kept = Mean(F({2, 3}, k2x3), {-1}, true);
  CHECK(kept.shape == Shape{2, 1});
  CHECK(kept.values == std::vector<float>{2, 5});
}

TEST_CASE("mean over H and W is a global average pool") {
  // Pixels (c0,c1) = (1,2), (3,4), (5,6), (7,8): c0 = 16/4 = 4, c1 = 20/4 = 5.
  OpRun r = Mean(F({1, 2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8}), {1, 2}, true);
  REQUIRE(r.status.ok());
  CHECK(r.shape == Shape{1, 1, 1, 2});
  CHECK(r.values == std::vector<float>{4, 5});
}

TEST_CASE("softmax over the last axis") {
  // Row [1,2,3]: subtract the max 3 -> e^-2, e^-1, e^0 = 0.1353352832,
  // 0.3678794412, 1; sum 1.5032147244, so 0.0900305732, 0.2447284711, 0.6652409558.
  // Row [0,0,0]: 1/3 each.
  OpRun r = RunOp(OpKind::kSoftmax, {F({2, 3}, {1, 2, 3, 0, 0, 0})});
  REQUIRE(r.status.ok());
  CheckClose(r.values, {0.0900305732, 0.2447284711, 0.6652409558, 1.0 / 3, 1.0 / 3, 1.0 / 3});
}

TEST_CASE("softmax with beta scales the inputs") {
  // beta 2 on [1,2,3] is softmax([2,4,6]): e^-4 = 0.0183156389, e^-2 = 0.1353352832,
  // 1; sum 1.1536509221 -> 0.0158762389, 0.1173104278, 0.8668133322.
  OpRun r = RunOp(OpKind::kSoftmax, {F({1, 3}, {1, 2, 3})}, A({{"beta", Real(2.0)}}));
  REQUIRE(r.status.ok());
  CheckClose(r.values, {0.0158762389, 0.1173104278, 0.8668133322});
  // beta 0 makes every row uniform.
  OpRun flat = RunOp(OpKind::kSoftmax, {F({1, 4}, {1, 2, 3, 4})}, A({{"beta", Real(0.0)}}));
  CHECK(flat.values == std::vector<float>{0.25f, 0.25f, 0.25f, 0.25f});
}

TEST_CASE("softmax subtracts the maximum, so large inputs do not overflow") {
  // e^1000 overflows a float; after subtracting the max both terms are e^0.
  OpRun r = RunOp(OpKind::kSoftmax, {F({2}, {1000, 1000})});
  REQUIRE(r.status.ok());
  CHECK(r.values == std::vector<float>{0.5f, 0.5f});
}

}  // namespace
}  // namespace opuc
