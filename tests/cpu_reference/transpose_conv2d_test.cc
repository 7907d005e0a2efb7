// transpose_conv2d: every input element scatters input · weights[o,ky,kx,i]
// to out[y·s - pad + ky, x·s - pad + kx, o]; the padding is the forward
// convolution's from output_shape to the input; bias and activation follow.
#include "reference_test_util.h"

namespace opuc {
namespace {

using namespace testing;

Attributes TransposeAttrs(Shape out, int64_t stride, const char* padding,
                          const char* activation = "none") {
  return A({{"output_shape", IntList(out)},
            {"strides", IntList({stride, stride})},
            {"padding", Str(padding)},
            {"activation", Str(activation)}});
}

TEST_CASE("transpose_conv2d VALID, stride 2: non-overlapping blocks") {
  // Input [[1,2],[3,4]], kernel [[1,2],[3,4]], output 4x4. Padding: the forward
  // conv 4 -> 2 needs total = (2-1)*2 + 2 - 4 = 0. Input (y,x) writes
  // in(y,x) * kernel into rows 2y..2y+1, columns 2x..2x+1.
  OpRun r = RunOp(OpKind::kTransposeConv2D,
                  {F({1, 2, 2, 1}, {1, 2, 3, 4}), C({1, 2, 2, 1}, {1, 2, 3, 4})},
                  TransposeAttrs({1, 4, 4, 1}, 2, "valid"));
  REQUIRE(r.status.ok());
  CHECK(r.shape == Shape{1, 4, 4, 1});
  CHECK(r.values == std::vector<float>{1, 2, 2, 4,  //
                                       3, 4, 6, 8,  //
                                       3, 6, 4, 8,  //
                                       9, 12, 12, 16});
}

TEST_CASE("transpose_conv2d VALID crops nothing at the start, the extra row stays bias") {
  // Output 5x5 also transposes to 2x2 with VALID ((5-2)/2 + 1 = 2); total padding
  // (2-1)*2 + 2 - 5 = -1 -> 0. Row 4 and column 4 receive nothing: just the bias 1.
  OpRun r = RunOp(OpKind::kTransposeConv2D,
                  {F({1, 2, 2, 1}, {1, 2, 3, 4}), C({1, 2, 2, 1}, {1, 2, 3, 4}), C({1}, {1})},
                  TransposeAttrs({1, 5, 5, 1}, 2, "valid"));
  REQUIRE(r.status.ok());
  CHECK(r.values == std::vector<float>{2,  3,  3,  5,  1,  //
                                       4,  5,  7,  9,  1,  //
                                       4,  7,  5,  9,  1,  //
                                       10, 13, 13, 17, 1,  //
                                       1,  1,  1,  1,  1});
}

TEST_CASE("transpose_conv2d SAME, stride 2, 3x3 kernel of ones") {
  // Output 4x4 (ceil(4/2) = 2 = input). Forward padding: total = (2-1)*2 + 3 - 4
  // = 1, pad = 0. Input (y,x) adds in(y,x) to rows 2y..2y+2 and columns
  // 2x..2x+2, cropped at 4. Rows 0,1 get y=0; row 2 gets y=0 and 1; row 3 y=1:
  //   row 0: 1, 1, 1+2 = 3, 2        row 2: 1+3 = 4, 4, 1+2+3+4 = 10, 2+4 = 6
  //   row 1: as row 0                 row 3: 3, 3, 3+4 = 7, 4
  OpRun r = RunOp(OpKind::kTransposeConv2D,
                  {F({1, 2, 2, 1}, {1, 2, 3, 4}), C({1, 3, 3, 1}, std::vector<float>(9, 1.0f))},
                  TransposeAttrs({1, 4, 4, 1}, 2, "same"));
  REQUIRE(r.status.ok());
  CHECK(r.values == std::vector<float>{1, 1, 3, 2,   //
                                       1, 1, 3, 2,   //
                                       4, 4, 10, 6,  //
                                       3, 3, 7, 4});
}

TEST_CASE("transpose_conv2d SAME, stride 1: padding 1 before") {
  // Kernel 1x3 [1,2,3] on a row [1,10,100], output 1x3. Width: total =
  // (3-1)*1 + 3 - 3 = 2, pad = 1; height: total 0. Input x writes
  // in(x) * w(kx) to column x - 1 + kx:
  //   col 0: x=0,kx=1: 1*2; x=1,kx=0: 10*1            -> 12
  //   col 1: x=0,kx=2: 1*3; x=1,kx=1: 20; x=2,kx=0: 100 -> 123
  //   col 2: x=1,kx=2: 30; x=2,kx=1: 200                -> 230
  const std::vector<Operand> operands = {F({1, 1, 3, 1}, {1, 10, 100}), C({1, 1, 3, 1}, {1, 2, 3}),
                                         C({1}, {-200})};
  SUBCASE("bias then activation") {
    // 12 - 200 = -188, 123 - 200 = -77, 230 - 200 = 30; relu: 0, 0, 30.
    OpRun r =
        RunOp(OpKind::kTransposeConv2D, operands, TransposeAttrs({1, 1, 3, 1}, 1, "same", "relu"));
    REQUIRE(r.status.ok());
    CHECK(r.values == std::vector<float>{0, 0, 30});
  }
  SUBCASE("without bias") {
    OpRun r = RunOp(OpKind::kTransposeConv2D, {operands[0], operands[1]},
                    TransposeAttrs({1, 1, 3, 1}, 1, "same"));
    REQUIRE(r.status.ok());
    CHECK(r.values == std::vector<float>{12, 123, 230});
  }
}

TEST_CASE("transpose_conv2d reads weights as Co x Kh x Kw x Ci") {
  // 1x1 kernel, weights [[1,2],[3,-1]] (o0: i0*1 + i1*2, o1: i0*3 - i1), input
  // pixel (1,2): out = (1 + 4, 3 - 2) = (5, 1); relu_n1_to_1 clamps to (1, 1).
  OpRun r =
      RunOp(OpKind::kTransposeConv2D, {F({1, 1, 1, 2}, {1, 2}), C({2, 1, 1, 2}, {1, 2, 3, -1})},
            TransposeAttrs({1, 1, 1, 2}, 1, "valid"));
  REQUIRE(r.status.ok());
  CHECK(r.values == std::vector<float>{5, 1});
  OpRun clamped =
      RunOp(OpKind::kTransposeConv2D, {F({1, 1, 1, 2}, {1, 2}), C({2, 1, 1, 2}, {1, 2, 3, -1})},
            TransposeAttrs({1, 1, 1, 2}, 1, "valid", "relu_n1_to_1"));
  CHECK(clamped.values == std::vector<float>{1, 1});
}

}  // namespace
}  // namespace opuc
