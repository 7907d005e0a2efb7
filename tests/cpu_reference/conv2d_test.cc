// conv2d: padding as TFLite computes it, strides, dilation, bias, weight
// layout [Co,Kh,Kw,Ci] (a correlation, no kernel flip), fused activations.
#include <cmath>

#include "reference_test_util.h"

namespace opuc {
namespace {

using namespace testing;

const std::vector<float> k1To9 = {1, 2, 3, 4, 5, 6, 7, 8, 9};
const std::vector<float> kOnes9(9, 1.0f);

TEST_CASE("conv2d SAME on an odd 3x3 input pads one on each side") {
  // out = ceil(3/1) = 3; total = (3-1)*1 + 3 - 3 = 2, pad_before = 1. With a
  // kernel of ones each output is the sum of its 3x3 neighbourhood:
  //   [1 2 3]      (0,0) 1+2+4+5 = 12   (0,1) 1+..+6 = 21   (0,2) 2+3+5+6 = 16
  //   [4 5 6]  ->  (1,0) 1+2+4+5+7+8 = 27  (1,1) 45        (1,2) 2+3+5+6+8+9 = 33
  //   [7 8 9]      (2,0) 4+5+7+8 = 24   (2,1) 4+..+9 = 39   (2,2) 5+6+8+9 = 28
  OpRun r = RunOp(OpKind::kConv2D, {F({1, 3, 3, 1}, k1To9), C({1, 3, 3, 1}, kOnes9)},
                  A({{"padding", Str("same")}}));
  REQUIRE(r.status.ok());
  CHECK(r.shape == Shape{1, 3, 3, 1});
  CHECK(r.values == std::vector<float>{12, 21, 16, 27, 45, 33, 24, 39, 28});
}

TEST_CASE("conv2d SAME with stride 2 on an even input puts the odd padding after") {
  // Input 4x4 holding 1..16 row by row. out = ceil(4/2) = 2;
  // total = (2-1)*2 + 3 - 4 = 1, so pad_before = 0 and the extra row and
  // column are at the end. Windows: rows {0,1,2} and {2,3}, columns alike.
  //   (0,0) 1+2+3+5+6+7+9+10+11 = 54      (0,1) 3+4+7+8+11+12 = 45
  //   (1,0) 9+10+11+13+14+15 = 72         (1,1) 11+12+15+16 = 54
  // (pad_before = 1 would give (0,0) = 1+2+5+6 = 14.)
  std::vector<float> input(16);
  for (int i = 0; i < 16; ++i) input[static_cast<size_t>(i)] = static_cast<float>(i + 1);
  OpRun r = RunOp(OpKind::kConv2D, {F({1, 4, 4, 1}, input), C({1, 3, 3, 1}, kOnes9)},
                  A({{"padding", Str("same")}, {"strides", IntList({2, 2})}}));
  REQUIRE(r.status.ok());
  CHECK(r.shape == Shape{1, 2, 2, 1});
  CHECK(r.values == std::vector<float>{54, 45, 72, 54});
}

TEST_CASE("conv2d VALID correlates without flipping the kernel") {
  // Kernel [[1,2],[3,4]] on [1..9] (3x3): out = (3-2)/1 + 1 = 2.
  //   (0,0) 1*1 + 2*2 + 4*3 + 5*4 = 37    (0,1) 2*1 + 3*2 + 5*3 + 6*4 = 47
  //   (1,0) 4*1 + 5*2 + 7*3 + 8*4 = 67    (1,1) 5*1 + 6*2 + 8*3 + 9*4 = 77
  OpRun r = RunOp(OpKind::kConv2D, {F({1, 3, 3, 1}, k1To9), C({1, 2, 2, 1}, {1, 2, 3, 4})});
  REQUIRE(r.status.ok());
  CHECK(r.values == std::vector<float>{37, 47, 67, 77});
}

TEST_CASE("conv2d with dilation 2") {
  SUBCASE("VALID") {
    // Input 5x5, in(r,c) = 5r + c + 1; kernel [[1,2],[3,4]] dilated to 3x3:
    // out = (5-3)/1 + 1 = 3, and
    //   out(y,x) = in(y,x) + 2 in(y,x+2) + 3 in(y+2,x) + 4 in(y+2,x+2)
    //            = 10(5y+x) + (1 + 2*3 + 3*11 + 4*13) = 50y + 10x + 92.
    std::vector<float> input(25);
    for (int i = 0; i < 25; ++i) input[static_cast<size_t>(i)] = static_cast<float>(i + 1);
    OpRun r = RunOp(OpKind::kConv2D, {F({1, 5, 5, 1}, input), C({1, 2, 2, 1}, {1, 2, 3, 4})},
                    A({{"dilations", IntList({2, 2})}}));
    REQUIRE(r.status.ok());
    CHECK(r.shape == Shape{1, 3, 3, 1});
    CHECK(r.values == std::vector<float>{92, 102, 112, 142, 152, 162, 192, 202, 212});
  }
  SUBCASE("SAME") {
    // 2x2 ones dilated to an effective 3x3 on [1..9]: total = 2*1 + 3 - 3 = 2,
    // pad_before = 1, so out(y,x) sums in(y-1+2i, x-1+2j), i,j in {0,1}:
    //   (0,0) in(1,1) = 5; (0,1) in(1,0)+in(1,2) = 10; (1,1) 1+3+7+9 = 20; ...
    OpRun r = RunOp(OpKind::kConv2D, {F({1, 3, 3, 1}, k1To9), C({1, 2, 2, 1}, {1, 1, 1, 1})},
                    A({{"dilations", IntList({2, 2})}, {"padding", Str("same")}}));
    REQUIRE(r.status.ok());
    CHECK(r.values == std::vector<float>{5, 10, 5, 10, 20, 10, 5, 10, 5});
  }
}

TEST_CASE("conv2d channels, bias and every fused activation") {
  // 1x1 kernel, weights [Co=2][1][1][Ci=2] = [[1,2],[3,-1]], bias [0.5,-1].
  // Pixel (1,2): c0 = 1 + 4 + 0.5 = 5.5, c1 = 3 - 2 - 1 = 0.
  // Pixel (3,-4): c0 = 3 - 8 + 0.5 = -4.5, c1 = 9 + 4 - 1 = 12.
  auto run = [](const char* activation) {
    return RunOp(
        OpKind::kConv2D,
        {F({1, 1, 2, 2}, {1, 2, 3, -4}), C({2, 1, 1, 2}, {1, 2, 3, -1}), C({2}, {0.5f, -1})},
        A({{"activation", Str(activation)}}));
  };
  CHECK(run("none").values == std::vector<float>{5.5f, 0, -4.5f, 12});
  CHECK(run("relu").values == std::vector<float>{5.5f, 0, 0, 12});
  CHECK(run("relu6").values == std::vector<float>{5.5f, 0, 0, 6});
  CHECK(run("relu_n1_to_1").values == std::vector<float>{1, 0, -1, 1});
  // tanh(x) = 1 - 2/(e^2x + 1): e^11 = 59874.14 gives tanh(5.5) = 0.9999665971;
  // e^9 = 8103.084 gives tanh(4.5) = 0.9997532108; e^24 = 2.65e10 gives
  // tanh(12) = 1 - 7.6e-11, which rounds to the float 1.
  CheckClose(run("tanh").values, {0.9999665971, 0, -0.9997532108, 1.0});
}

TEST_CASE("conv2d without bias, batch 2, stride 2 VALID") {
  // Kernel 1x1 of 2 on [1,2,2,1]-shaped batches [[1,2],[3,4]] and [[5,6],[7,8]],
  // stride 2: out = (2-1)/2 + 1 = 1 per axis, reading only (0,0): 2 and 10.
  OpRun r = RunOp(OpKind::kConv2D,
                  {F({2, 2, 2, 1}, {1, 2, 3, 4, 5, 6, 7, 8}), C({1, 1, 1, 1}, {2}), Absent()},
                  A({{"strides", IntList({2, 2})}}));
  REQUIRE(r.status.ok());
  CHECK(r.shape == Shape{2, 1, 1, 1});
  CHECK(r.values == std::vector<float>{2, 10});
}

}  // namespace
}  // namespace opuc
