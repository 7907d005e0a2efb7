// max_pool2d and avg_pool2d: windows, TFLite's padding, border counting.
#include "reference_test_util.h"

namespace opuc {
namespace {

using namespace testing;

const std::vector<float> k1To9 = {1, 2, 3, 4, 5, 6, 7, 8, 9};

std::vector<float> OneTo16() {
  std::vector<float> v(16);
  for (int i = 0; i < 16; ++i) v[static_cast<size_t>(i)] = static_cast<float>(i + 1);
  return v;
}

Attributes Pool(int64_t k, int64_t s, const char* padding, const char* activation = "none") {
  return A({{"filter", IntList({k, k})},
            {"strides", IntList({s, s})},
            {"padding", Str(padding)},
            {"activation", Str(activation)}});
}

TEST_CASE("avg_pool2d SAME counts only the elements inside the input") {
  // 3x3 window, stride 1, on [1..9]: pad 1 each side. Sums as a 3x3 box filter,
  // divided by the number of real elements (4 at corners, 6 at edges, 9 inside):
  //   12/4 = 3    21/6 = 3.5   16/4 = 4
  //   27/6 = 4.5  45/9 = 5     33/6 = 5.5
  //   24/4 = 6    39/6 = 6.5   28/4 = 7
  OpRun r = RunOp(OpKind::kAvgPool2D, {F({1, 3, 3, 1}, k1To9)}, Pool(3, 1, "same"));
  REQUIRE(r.status.ok());
  CHECK(r.shape == Shape{1, 3, 3, 1});
  CHECK(r.values == std::vector<float>{3, 3.5f, 4, 4.5f, 5, 5.5f, 6, 6.5f, 7});
  // relu6 clamps 6.5 and 7 to 6.
  OpRun clamped = RunOp(OpKind::kAvgPool2D, {F({1, 3, 3, 1}, k1To9)}, Pool(3, 1, "same", "relu6"));
  CHECK(clamped.values == std::vector<float>{3, 3.5f, 4, 4.5f, 5, 5.5f, 6, 6, 6});
}

TEST_CASE("avg_pool2d SAME, 2x2 stride 2 on an odd input: the border windows are partial") {
  // 3 -> ceil(3/2) = 2; total = (2-1)*2 + 2 - 3 = 1, pad_before = 0. Windows rows
  // {0,1} and {2}, columns alike:
  //   (0,0) (1+2+4+5)/4 = 3   (0,1) (3+6)/2 = 4.5   (1,0) (7+8)/2 = 7.5   (1,1) 9/1 = 9
  OpRun r = RunOp(OpKind::kAvgPool2D, {F({1, 3, 3, 1}, k1To9)}, Pool(2, 2, "same"));
  REQUIRE(r.status.ok());
  CHECK(r.shape == Shape{1, 2, 2, 1});
  CHECK(r.values == std::vector<float>{3, 4.5f, 7.5f, 9});
}

TEST_CASE("avg_pool2d VALID, 2x2 stride 2") {
  // 1..16 in 4x4: (1+2+5+6)/4 = 3.5, (3+4+7+8)/4 = 5.5, (9+10+13+14)/4 = 11.5,
  // (11+12+15+16)/4 = 13.5.
  OpRun r = RunOp(OpKind::kAvgPool2D, {F({1, 4, 4, 1}, OneTo16())}, Pool(2, 2, "valid"));
  REQUIRE(r.status.ok());
  CHECK(r.values == std::vector<float>{3.5f, 5.5f, 11.5f, 13.5f});
}

TEST_CASE("max_pool2d SAME never takes the padding as a value") {
  // -(1..9), 3x3 window, stride 1: were padding 0, every border output would be 0.
  //   (0,0) max(-1,-2,-4,-5) = -1   (0,1) -1   (0,2) max(-2,-3,-5,-6) = -2
  //   (1,0) -1   (1,1) -1   (1,2) -2
  //   (2,0) max(-4,-5,-7,-8) = -4   (2,1) -4   (2,2) max(-5,-6,-8,-9) = -5
  std::vector<float> input;
  for (float v : k1To9) input.push_back(-v);
  OpRun r = RunOp(OpKind::kMaxPool2D, {F({1, 3, 3, 1}, input)}, Pool(3, 1, "same"));
  REQUIRE(r.status.ok());
  CHECK(r.values == std::vector<float>{-1, -1, -2, -1, -1, -2, -4, -4, -5});
  OpRun relu = RunOp(OpKind::kMaxPool2D, {F({1, 3, 3, 1}, input)}, Pool(3, 1, "same", "relu"));
  CHECK(relu.values == std::vector<float>(9, 0.0f));
}

TEST_CASE("max_pool2d SAME, 3x3 stride 2 on an even input") {
  // 4 -> 2, total = 1, pad_before = 0: windows rows {0,1,2} and {2,3}:
  //   (0,0) 11  (0,1) max of rows 0-2, cols 2-3 = 12  (1,0) 15  (1,1) 16
  OpRun r = RunOp(OpKind::kMaxPool2D, {F({1, 4, 4, 1}, OneTo16())}, Pool(3, 2, "same"));
  REQUIRE(r.status.ok());
  CHECK(r.values == std::vector<float>{11, 12, 15, 16});
}

TEST_CASE("pools work per channel and per batch") {
  // Two channels (c, -c) and two batches; 2x2 VALID over the whole 2x2 image.
  // Batch 0: c0 = 1,2,3,4 and c1 = -1..-4: max (4, -1), avg (2.5, -2.5).
  // Batch 1: c0 = 5..8: max (8, -5), avg (6.5, -6.5).
  std::vector<float> input;
  for (int v = 1; v <= 8; ++v) {
    input.push_back(static_cast<float>(v));
    input.push_back(static_cast<float>(-v));
  }
  OpRun mx = RunOp(OpKind::kMaxPool2D, {F({2, 2, 2, 2}, input)}, Pool(2, 1, "valid"));
  OpRun avg = RunOp(OpKind::kAvgPool2D, {F({2, 2, 2, 2}, input)}, Pool(2, 1, "valid"));
  REQUIRE(mx.status.ok());
  CHECK(mx.shape == Shape{2, 1, 1, 2});
  CHECK(mx.values == std::vector<float>{4, -1, 8, -5});
  CHECK(avg.values == std::vector<float>{2.5f, -2.5f, 6.5f, -6.5f});
}

}  // namespace
}  // namespace opuc
