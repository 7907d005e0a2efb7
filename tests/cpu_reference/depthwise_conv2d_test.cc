// depthwise_conv2d: output channel c·M + m reads input channel c with weights
// [1,Kh,Kw,C·M]; padding, strides and dilation as conv2d.
#include "reference_test_util.h"

namespace opuc {
namespace {

using namespace testing;

// Input 1x2x2x2: pixel (y,x) = (c0, c1) = (1,10), (2,20), (3,30), (4,40).
const std::vector<float> kInput = {1, 10, 2, 20, 3, 30, 4, 40};
// Weights [1][ky][kx][o] for o = c·2 + m:
//   o0 (c0,m0) all 1; o1 (c0,m1) 1,2,3,4 by tap; o2 (c1,m0) all 1; o3 (c1,m1) all 0.5.
const std::vector<float> kWeights = {1, 1, 1, 0.5f,   // (0,0)
                                     1, 2, 1, 0.5f,   // (0,1)
                                     1, 3, 1, 0.5f,   // (1,0)
                                     1, 4, 1, 0.5f};  // (1,1)

TEST_CASE("depthwise_conv2d with depth multiplier 2 maps channel c to c*2 + m") {
  // VALID 2x2 window on 2x2: one output pixel.
  //   o0 = 1+2+3+4 = 10; o1 = 1*1 + 2*2 + 3*3 + 4*4 = 30;
  //   o2 = 10+20+30+40 = 100; o3 = 0.5 * 100 = 50. Bias [1,2,3,4] adds.
  OpRun r = RunOp(OpKind::kDepthwiseConv2D,
                  {F({1, 2, 2, 2}, kInput), C({1, 2, 2, 4}, kWeights), C({4}, {1, 2, 3, 4})},
                  A({{"depth_multiplier", I64(2)}}));
  REQUIRE(r.status.ok());
  CHECK(r.shape == Shape{1, 1, 1, 4});
  CHECK(r.values == std::vector<float>{11, 32, 103, 54});
}

TEST_CASE("depthwise_conv2d applies its fused activation after the bias") {
  // Sums as above, 10, 30, 100, 50; bias [-11, 0, -200, 0] gives -1, 30, -100, 50;
  // relu6 gives 0, 6, 0, 6.
  OpRun r = RunOp(OpKind::kDepthwiseConv2D,
                  {F({1, 2, 2, 2}, kInput), C({1, 2, 2, 4}, kWeights), C({4}, {-11, 0, -200, 0})},
                  A({{"depth_multiplier", I64(2)}, {"activation", Str("relu6")}}));
  REQUIRE(r.status.ok());
  CHECK(r.values == std::vector<float>{0, 6, 0, 6});
}

TEST_CASE("depthwise_conv2d SAME with stride 2 on an even input") {
  // One channel, 3x3 ones on 1..16 (4x4): pad_before = 0 as for conv2d
  // (total = (2-1)*2 + 3 - 4 = 1), so the sums are 54, 45, 72, 54.
  std::vector<float> input(16);
  for (int i = 0; i < 16; ++i) input[static_cast<size_t>(i)] = static_cast<float>(i + 1);
  OpRun r = RunOp(OpKind::kDepthwiseConv2D,
                  {F({1, 4, 4, 1}, input), C({1, 3, 3, 1}, std::vector<float>(9, 1.0f))},
                  A({{"padding", Str("same")}, {"strides", IntList({2, 2})}}));
  REQUIRE(r.status.ok());
  CHECK(r.shape == Shape{1, 2, 2, 1});
  CHECK(r.values == std::vector<float>{54, 45, 72, 54});
}

TEST_CASE("depthwise_conv2d SAME on odd sizes, two channels") {
  // 3x3 input, channel 0 = 1..9 and channel 1 = -(1..9), 3x3 kernel with
  // weight 1 for channel 0 and 2 for channel 1: SAME pads 1 each side, so
  // channel 0 is the neighbourhood sum (12 21 16 / 27 45 33 / 24 39 28) and
  // channel 1 is -2 times it.
  std::vector<float> input;
  for (int i = 1; i <= 9; ++i) {
    input.push_back(static_cast<float>(i));
    input.push_back(static_cast<float>(-i));
  }
  std::vector<float> weights;
  for (int t = 0; t < 9; ++t) {
    weights.push_back(1);
    weights.push_back(2);
  }
  OpRun r = RunOp(OpKind::kDepthwiseConv2D, {F({1, 3, 3, 2}, input), C({1, 3, 3, 2}, weights)},
                  A({{"padding", Str("same")}}));
  REQUIRE(r.status.ok());
  const std::vector<float> sums = {12, 21, 16, 27, 45, 33, 24, 39, 28};
  std::vector<float> expected;
  for (float s : sums) {
    expected.push_back(s);
    expected.push_back(-2 * s);
  }
  CHECK(r.values == expected);
}

TEST_CASE("depthwise_conv2d with dilation 2") {
  // As for conv2d: in(r,c) = 5r + c + 1 on 5x5, kernel [[1,2],[3,4]] dilated:
  // out(y,x) = 50y + 10x + 92.
  std::vector<float> input(25);
  for (int i = 0; i < 25; ++i) input[static_cast<size_t>(i)] = static_cast<float>(i + 1);
  OpRun r = RunOp(OpKind::kDepthwiseConv2D, {F({1, 5, 5, 1}, input), C({1, 2, 2, 1}, {1, 2, 3, 4})},
                  A({{"dilations", IntList({2, 2})}}));
  REQUIRE(r.status.ok());
  CHECK(r.values == std::vector<float>{92, 102, 112, 142, 152, 162, 192, 202, 212});
}

}  // namespace
}  // namespace opuc
