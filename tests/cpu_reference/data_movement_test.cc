// pad, reshape, concat, depth_to_space: elements move, values do not change.
#include "reference_test_util.h"

namespace opuc {
namespace {

using namespace testing;

TEST_CASE("pad puts `value` before and after each dimension") {
  // [[1,2],[3,4]], pads [before0=1, after0=0, before1=0, after1=2] -> [3,4]:
  //   v v v v / 1 2 v v / 3 4 v v
  auto pad = [](double value) {
    return RunOp(OpKind::kPad, {F({2, 2}, {1, 2, 3, 4})},
                 A({{"pads", IntList({1, 0, 0, 2})}, {"value", Real(value)}}));
  };
  OpRun zero = pad(0.0);
  REQUIRE(zero.status.ok());
  CHECK(zero.shape == Shape{3, 4});
  CHECK(zero.values == std::vector<float>{0, 0, 0, 0, 1, 2, 0, 0, 3, 4, 0, 0});
  CHECK(pad(-1.5).values ==
        std::vector<float>{-1.5f, -1.5f, -1.5f, -1.5f, 1, 2, -1.5f, -1.5f, 3, 4, -1.5f, -1.5f});
}

TEST_CASE("pad NHWC spatially by one on every side") {
  // 1x1x2x1 [5,6] padded by 1 in H and W: 3x4 with the pair in the middle row.
  OpRun r = RunOp(OpKind::kPad, {F({1, 1, 2, 1}, {5, 6})},
                  A({{"pads", IntList({0, 0, 1, 1, 1, 1, 0, 0})}}));
  REQUIRE(r.status.ok());
  CHECK(r.shape == Shape{1, 3, 4, 1});
  CHECK(r.values == std::vector<float>{0, 0, 0, 0, 0, 5, 6, 0, 0, 0, 0, 0});
}

TEST_CASE("pad on integers needs an integer value in range") {
  OpRun ints = RunOp(OpKind::kPad, {Ints(DType::kI32, {2}, {1, 2})},
                     A({{"pads", IntList({1, 1})}, {"value", Real(7.0)}}));
  REQUIRE(ints.status.ok());
  CHECK(ints.dtype == DType::kI32);
  CHECK(ints.values == std::vector<float>{7, 1, 2, 7});
  OpRun bad = RunOp(OpKind::kPad, {Ints(DType::kI8, {2}, {1, 2})},
                    A({{"pads", IntList({1, 1})}, {"value", Real(300.0)}}));
  CHECK(bad.status.code() == StatusCode::kInvalidArgument);
  CHECK(Contains(bad.status.message(), "attribute 'value'"));
}

TEST_CASE("reshape keeps the elements in C order, for any dtype") {
  OpRun r =
      RunOp(OpKind::kReshape, {F({2, 3}, {1, 2, 3, 4, 5, 6})}, A({{"new_shape", IntList({3, 2})}}));
  REQUIRE(r.status.ok());
  CHECK(r.shape == Shape{3, 2});
  CHECK(r.values == std::vector<float>{1, 2, 3, 4, 5, 6});
  OpRun ints = RunOp(OpKind::kReshape, {Ints(DType::kI8, {4}, {-1, 2, -3, 4})},
                     A({{"new_shape", IntList({2, 1, 2})}}));
  CHECK(ints.dtype == DType::kI8);
  CHECK(ints.values == std::vector<float>{-1, 2, -3, 4});
}

TEST_CASE("concat along the last, a middle and the first axis") {
  // a [1,2,2] = [[[1,2],[3,4]]], b [1,2,1] = [[[5],[6]]]: axis -1 -> [[[1,2,5],[3,4,6]]].
  OpRun last = RunOp(OpKind::kConcat, {F({1, 2, 2}, {1, 2, 3, 4}), F({1, 2, 1}, {5, 6})},
                     A({{"axis", I64(-1)}}));
  REQUIRE(last.status.ok());
  CHECK(last.shape == Shape{1, 2, 3});
  CHECK(last.values == std::vector<float>{1, 2, 5, 3, 4, 6});
  // a with c [1,1,2] = [[[7,8]]] along axis 1 -> [[1,2],[3,4],[7,8]].
  OpRun middle = RunOp(OpKind::kConcat, {F({1, 2, 2}, {1, 2, 3, 4}), F({1, 1, 2}, {7, 8})},
                       A({{"axis", I64(1)}}));
  CHECK(middle.shape == Shape{1, 3, 2});
  CHECK(middle.values == std::vector<float>{1, 2, 3, 4, 7, 8});
  // Three inputs along axis 0.
  OpRun first =
      RunOp(OpKind::kConcat, {F({1, 2}, {1, 2}), F({2, 2}, {3, 4, 5, 6}), C({1, 2}, {7, 8})},
            A({{"axis", I64(0)}}));
  CHECK(first.shape == Shape{4, 2});
  CHECK(first.values == std::vector<float>{1, 2, 3, 4, 5, 6, 7, 8});
}

TEST_CASE("concat applies its fused activation and moves integers") {
  // [-1, 7] ++ [3] with relu6 -> [0, 6, 3].
  OpRun r = RunOp(OpKind::kConcat, {F({2}, {-1, 7}), F({1}, {3})},
                  A({{"axis", I64(0)}, {"activation", Str("relu6")}}));
  REQUIRE(r.status.ok());
  CHECK(r.values == std::vector<float>{0, 6, 3});
  OpRun ints =
      RunOp(OpKind::kConcat, {Ints(DType::kI32, {1}, {-5}), Ints(DType::kI32, {2}, {6, 7})},
            A({{"axis", I64(0)}}));
  CHECK(ints.values == std::vector<float>{-5, 6, 7});
}

TEST_CASE("depth_to_space uses TensorFlow's DCR order") {
  // out[n,y,x,c] = in[n, y/b, x/b, ((y%b)*b + x%b)*C' + c].
  SUBCASE("block 2, one output channel: [1,2,3,4] -> [[1,2],[3,4]]") {
    OpRun r =
        RunOp(OpKind::kDepthToSpace, {F({1, 1, 1, 4}, {1, 2, 3, 4})}, A({{"block_size", I64(2)}}));
    REQUIRE(r.status.ok());
    CHECK(r.shape == Shape{1, 2, 2, 1});
    CHECK(r.values == std::vector<float>{1, 2, 3, 4});
  }
  SUBCASE("block 2, two output channels: pairs of channels become pixels") {
    // (y,x) reads channels ((y*2 + x)*2 + c): (0,0) (1,2), (0,1) (3,4), (1,0) (5,6), (1,1) (7,8).
    OpRun r = RunOp(OpKind::kDepthToSpace, {F({1, 1, 1, 8}, {1, 2, 3, 4, 5, 6, 7, 8})},
                    A({{"block_size", I64(2)}}));
    REQUIRE(r.status.ok());
    CHECK(r.shape == Shape{1, 2, 2, 2});
    CHECK(r.values == std::vector<float>{1, 2, 3, 4, 5, 6, 7, 8});
  }
  SUBCASE("block 2 on two input rows") {
    // Input pixels (0,0) = [1,2,3,4] and (1,0) = [5,6,7,8]; output 4x2:
    //   rows 0,1 come from input row 0: [1,2], [3,4]; rows 2,3 from row 1: [5,6], [7,8].
    OpRun r = RunOp(OpKind::kDepthToSpace, {F({1, 2, 1, 4}, {1, 2, 3, 4, 5, 6, 7, 8})},
                    A({{"block_size", I64(2)}}));
    REQUIRE(r.status.ok());
    CHECK(r.shape == Shape{1, 4, 2, 1});
    CHECK(r.values == std::vector<float>{1, 2, 3, 4, 5, 6, 7, 8});
  }
}

}  // namespace
}  // namespace opuc
