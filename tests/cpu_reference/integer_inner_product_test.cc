// i8 conv2d, depthwise_conv2d, transpose_conv2d, fully_connected
// (docs/numerics.md §2, §3): exact accumulation, the output stage with
// S[c] = f_in + f_w[c] - f_out, the fused clamp, and every error path.
#include "integer_test_util.h"

namespace opuc {
namespace {

using namespace testing;

// A fully_connected over rows of one element: out[r] = stage(q[r] * w + b).
QRun Fc(Q8 q, int f_in, int64_t w, int f_w, int f_out, std::string activation = "none",
        std::optional<int64_t> bias = std::nullopt) {
  const auto rows = static_cast<int64_t>(q.size());
  std::vector<QOperand> ops = {Q({rows, 1}, std::move(q), f_in), QW({1, 1}, {w}, {f_w}, 0)};
  if (bias) ops.push_back(I32C({1}, {*bias}));
  return RunQ(OpKind::kFullyConnected, ops, f_out, Act(activation));
}

TEST_CASE("E9: conv2d 1x1, f_in 5, f_w 6, f_out 4: acc 1234 -> 10") {
  // acc = 10 * 117 + 2 * 32 = 1170 + 64 = 1234; S = 5 + 6 - 4 = 7: (1234 + 64) >> 7 = 10.
  QRun r =
      RunQ(OpKind::kConv2D, {Q({1, 1, 1, 2}, {10, 2}, 5), QW({1, 1, 1, 2}, {117, 32}, {6}, 0)}, 4);
  CHECK(Ok(r) == Q8{10});
  CHECK(r.shape == Shape{1, 1, 1, 1});
}

TEST_CASE("E10: fully_connected with bias, tiny-yolo layer 1 fraction lengths") {
  // f_in 7, f_w 2, f_out 2: S = 7. Rows: 10 * 100 + 75 = 1075 -> 1139 >> 7 = 8;
  // -10 * 100 + 75 = -925 -> -861 >> 7 = -7.
  CHECK(Ok(Fc({10, -10}, 7, 100, 2, 2, "none", 75)) == Q8{8, -7});
}

TEST_CASE("E12: S = -2 shifts left and saturates on the true value") {
  // f_in 2, f_w 3, f_out 7: acc 25 -> 100, 40 -> 160 -> 127, -33 -> -132 -> -128.
  CHECK(Ok(Fc({25, 40, -33}, 2, 1, 3, 7)) == Q8{100, 127, -128});
}

TEST_CASE("E13: fused relu6 and relu_n1_to_1 clamp after the output stage") {
  // S = 0 (f_in 4, f_w 0, f_out 4); relu6 at f_out 4: [0, quantize(6, 4) = 96].
  CHECK(Ok(Fc({110, -5, 50}, 4, 1, 0, 4, "relu6")) == Q8{96, 0, 50});
  // f_out 5: quantize(6, 5) = 192 -> 127, so the clamp never bites above.
  CHECK(Ok(Fc({127, -5}, 5, 1, 0, 5, "relu6")) == Q8{127, 0});
  // relu_n1_to_1 at f_out 7: [quantize(-1, 7), quantize(1, 7)] = [-128, 127].
  CHECK(Ok(Fc({-128, 127, 3}, 7, 1, 0, 7, "relu_n1_to_1")) == Q8{-128, 127, 3});
  // At f_out 4 it is [-16, 16].
  CHECK(Ok(Fc({-100, 100, 3}, 4, 1, 0, 4, "relu_n1_to_1")) == Q8{-16, 16, 3});
  CHECK(Ok(Fc({-100, 100}, 4, 1, 0, 4, "relu")) == Q8{0, 100});
}

TEST_CASE("E27 and E28 through fully_connected: one exact rounding") {
  // E27: 100 * -48 + 209 600 = 204 800 at f 6 + 6 = 12, f_out 0: (204 800 + 2048) >> 12 = 50.
  CHECK(Ok(Fc({100}, 6, -48, 6, 0, "none", 209600)) == Q8{50});
  // E28: 1 * -1 + 131 073 = 131 072 at f 9 + 9 = 18, f_out 0: 0.5 -> 1.
  CHECK(Ok(Fc({1}, 9, -1, 9, 0, "none", 131073)) == Q8{1});
}

TEST_CASE("output stage ties at +0.5 and -0.5, and saturation at both ends") {
  // S = 1 (f_in 1, f_w 0, f_out 0): 1 -> 0.5 -> 1, -1 -> -0.5 -> 0, 3 -> 1.5 -> 2,
  // -3 -> -1.5 -> -1.
  CHECK(Ok(Fc({1, -1, 3, -3}, 1, 1, 0, 0)) == Q8{1, 0, 2, -1});
  // S = 7: 100 * 127 + 7300 = 20 000 -> 156.25 -> 127; -100 * 127 - 7300 = -20 000 -> -128.
  CHECK(Ok(Fc({100}, 7, 127, 0, 0, "none", 7300)) == Q8{127});
  CHECK(Ok(Fc({-100}, 7, 127, 0, 0, "none", -7300)) == Q8{-128});
}

TEST_CASE("S = 0, S = -31 (f at -8 and 15), S = 46 (f_w at 23)") {
  CHECK(Ok(Fc({-77, 127, -128}, 3, 1, 0, 3)) == Q8{-77, 127, -128});
  // f_in -8, f_w -8, f_out 15: S = -31; 1 -> 2^31 -> 127, -1 -> -128, 0 -> 0.
  CHECK(Ok(Fc({1, -1, 0}, -8, 1, -8, 15)) == Q8{127, -128, 0});
  // f_in 15, f_w 23, f_out -8: S = 46; |acc| <= 127 * 127 = 16 129 < 2^45: 0.
  CHECK(Ok(Fc({127, -127, -128}, 15, 127, 23, -8)) == Q8{0, 0, 0});
}

TEST_CASE("conv2d: border windows skip the taps outside the input") {
  // Input 2x2 [1 2; 3 4], 3x3 kernel 1..9, SAME: padding 1 before. Output (0,0)
  // uses taps (1,1),(1,2),(2,1),(2,2) = 5*1 + 6*2 + 8*3 + 9*4 = 77; (0,1): 4*1 + 5*2 +
  // 7*3 + 8*4 = 67; (1,0): 2*1 + 3*2 + 5*3 + 6*4 = 47; (1,1): 1 + 2*2 + 4*3 + 5*4 = 37.
  // f 0 everywhere: S = 0.
  QRun r = RunQ(
      OpKind::kConv2D,
      {Q({1, 2, 2, 1}, {1, 2, 3, 4}, 0), QW({1, 3, 3, 1}, {1, 2, 3, 4, 5, 6, 7, 8, 9}, {0}, 0)}, 0,
      A({{"padding", Str("same")}}));
  CHECK(Ok(r) == Q8{77, 67, 47, 37});
}

TEST_CASE("conv2d: per-channel weight fraction lengths and bias") {
  // 1x1, q = 10 at f 0, w = [3, 3] at f_w [1, 2], f_out 0: S = [1, 2].
  // Channel 0: 30 + b 2 = 32 -> (32 + 1) >> 1 = 16; channel 1: 30 + b 0 = 30 ->
  // (30 + 2) >> 2 = 8 (7.5 ties up).
  QRun r =
      RunQ(OpKind::kConv2D,
           {Q({1, 1, 1, 1}, {10}, 0), QW({2, 1, 1, 1}, {3, 3}, {1, 2}, 0), I32C({2}, {2, 0})}, 0);
  CHECK(Ok(r) == Q8{16, 8});
}

TEST_CASE("depthwise_conv2d: per-channel fraction lengths along axis 3") {
  // Input channel 0 (q = 10), multiplier 2: outputs 10 * 3 = 30 at S = [1, 2] -> 15, 8
  // (7.5 ties up). A per-tensor weight f applies to every channel.
  Attributes attrs = A({{"depth_multiplier", I64(2)}});
  QRun r = RunQ(OpKind::kDepthwiseConv2D,
                {Q({1, 1, 1, 1}, {10}, 0), QW({1, 1, 1, 2}, {3, 3}, {1, 2}, 3)}, 0, attrs);
  CHECK(Ok(r) == Q8{15, 8});
  r = RunQ(OpKind::kDepthwiseConv2D,
           {Q({1, 1, 1, 1}, {-10}, 0), QC({1, 1, 1, 2}, {3, 5}, 1), I32C({2}, {-1, 0})}, 0, attrs);
  // -30 - 1 = -31 -> (-31 + 1) >> 1 = -15; -50 -> -25.
  CHECK(Ok(r) == Q8{-15, -25});
}

TEST_CASE("transpose_conv2d: exact scatter, bias, one rounding") {
  // 1x1 input q = 5 scattered by a 2x2 kernel [1 2; 3 4], stride 2: [5 10; 15 20];
  // plus bias 1 at fraction 0 + 1: [6 11; 16 21]; S = 1: 3, 6, 8, 11 (5.5 and 10.5 tie up).
  Attributes attrs = A({{"output_shape", IntList({1, 2, 2, 1})}, {"strides", IntList({2, 2})}});
  QRun r = RunQ(OpKind::kTransposeConv2D,
                {Q({1, 1, 1, 1}, {5}, 0), QW({1, 2, 2, 1}, {1, 2, 3, 4}, {1}, 0), I32C({1}, {1})},
                0, attrs);
  CHECK(Ok(r) == Q8{3, 6, 8, 11});
}

TEST_CASE("E7: a conv within the bound runs, its worst case fits int32") {
  // 3x3, Ci = 64 (576 taps), every w = 127, every input -128, bias 1 000 000:
  // acc = 576 * -128 * 127 + 1 000 000 = -9 363 456 + 1 000 000 = -8 363 456 (|acc| <= B).
  // f_in 9, f_w 8, f_out 0: S = 17: (-8 363 456 + 65 536) >> 17 = floor(-63.31) = -64.
  QRun r = RunQ(OpKind::kConv2D,
                {Q({1, 3, 3, 64}, Q8(576, -128), 9), QW({1, 3, 3, 64}, Q8(576, 127), {8}, 0),
                 I32C({1}, {1000000})},
                0);
  CHECK(Ok(r) == Q8{-64});
}

TEST_CASE("E8: an accumulator outside int32 is an error, never a wrap") {
  // Ci = 2^17, every q = -128 and w = -128: acc = 2^17 * 2^14 = 2^31.
  const int64_t ci = int64_t{1} << 17;
  QRun r = RunQ(OpKind::kFullyConnected,
                {Q({1, ci}, Q8(static_cast<size_t>(ci), -128), 0),
                 QW({1, ci}, Q8(static_cast<size_t>(ci), -128), {0}, 0)},
                0);
  CHECK(Contains(r.error(), "node 0 'op' (fully_connected)"));
  CHECK(Contains(r.error(), "output channel 0: accumulator 2147483648 leaves int32"));
  // The bias counts: 1 * 1 + (2^31 - 1) = 2^31.
  r = Fc({1}, 0, 1, 0, 0, "none", 2147483647);
  CHECK(Contains(r.error(), "accumulator 2147483648 leaves int32"));
  r = Fc({-1}, 0, 1, 0, 0, "none", -2147483648LL);
  CHECK(Contains(r.error(), "accumulator -2147483649 leaves int32"));
}

TEST_CASE("fused tanh has no integer form") {
  QRun r = Fc({1}, 0, 1, 0, 0, "tanh");
  CHECK(r.status.code() == StatusCode::kUnsupported);
  CHECK(Contains(r.error(), "fused tanh"));
  CHECK(Contains(r.error(), "lookup_table"));
}

TEST_CASE("inner products: missing and out-of-range fixed points name the tensor") {
  // Weights without a fixed point: Verify() accepts (a constant), the kernel does not.
  QOperand w = QW({1, 1}, {1}, {0}, 0);
  w.fixed_point = {};
  QRun r = RunQ(OpKind::kFullyConnected, {Q({1, 1}, {1}, 0), w}, 0);
  CHECK(Contains(r.error(), "input 'weights' (tensor 'in1') is i8 without a fixed point"));
  // f_w = 24 is out of range.
  r = Fc({1}, 0, 1, 24, 0);
  CHECK(Contains(r.error(), "tensor 'in1'"));
  CHECK(Contains(r.error(), "fraction length 24"));
  // Per channel along the wrong axis.
  r = RunQ(OpKind::kConv2D, {Q({1, 1, 1, 2}, {1, 1}, 0), QW({1, 1, 1, 2}, {1, 1}, {0, 0}, 3)}, 0);
  CHECK(Contains(r.error(), "input 'weights' (tensor 'in1') has a fixed point along axis 3"));
  // f_in 16 and f_out -9 are out of the activation range.
  r = Fc({1}, 16, 1, 0, 0);
  CHECK(Contains(r.error(),
                 "input 'input' (tensor 'in0') has fraction length 16; expected one in [-8, 15]"));
  r = Fc({1}, 0, 1, 0, -9);
  CHECK(Contains(r.error(), "output (tensor 'op') has fraction length -9"));
  // An output without a fixed point (the verifier rejects the graph too).
  r = RunQFixed(OpKind::kFullyConnected, {Q({1, 1}, {1}, 0), QW({1, 1}, {1}, {0}, 0)}, {});
  CHECK(!r.verified.ok());
  CHECK(Contains(r.status.message(), "output (tensor 'op') is i8 without a fixed point"));
}

}  // namespace
}  // namespace opuc
