// i8 add, sub, mul, prelu (docs/numerics.md §5), relu/relu6/relu_n1_to_1
// (§3 clamp, §6 table rows), lookup_table, and the ops that need a table.
#include "integer_test_util.h"

namespace opuc {
namespace {

using namespace testing;

TEST_CASE("E14: add aligns up to the finest f and rounds once") {
  // 100 at f 6 + (-37) at f 4, f_out 5: F = 6, s = 100 - 148 = -48, (-48 + 1) >> 1 = -24.
  CHECK(Ok(RunQ(OpKind::kAdd, {Q({1}, {100}, 6), Q({1}, {-37}, 4)}, 5)) == Q8{-24});
  // 101: s = -47, (-47 + 1) >> 1 = -23 (-23.5 ties up).
  CHECK(Ok(RunQ(OpKind::kAdd, {Q({1}, {101}, 6), Q({1}, {-37}, 4)}, 5)) == Q8{-23});
}

TEST_CASE("sub: E14 with the sign of the rhs flipped") {
  CHECK(Ok(RunQ(OpKind::kSub, {Q({2}, {100, 101}, 6), Q({1}, {37}, 4)}, 5)) == Q8{-24, -23});
}

TEST_CASE("add: ties, saturation, S = 0, broadcast, constant operand, fused relu") {
  // f 1 + f 1 -> f 0: 1 + 0 = 0.5 -> 1; -1 + 0 = -0.5 -> 0.
  CHECK(Ok(RunQ(OpKind::kAdd, {Q({2}, {1, -1}, 1), Q({1}, {0}, 1)}, 0)) == Q8{1, 0});
  // S = 0: 127 + 127 -> 127, -128 + -128 -> -128, 3 + 4 = 7.
  CHECK(Ok(RunQ(OpKind::kAdd, {Q({3}, {127, -128, 3}, 2), Q({3}, {127, -128, 4}, 2)}, 2)) ==
        Q8{127, -128, 7});
  // A constant rhs at f 15 and lhs at -8, f_out 15: F = 15, lhs shifted by 23:
  // 1 * 2^23 + 1 -> requant(., 0) saturates to 127; 0 + 5 = 5.
  CHECK(Ok(RunQ(OpKind::kAdd, {Q({2}, {1, 0}, -8), QC({1}, {5}, 15)}, 15)) == Q8{127, 5});
  // Fused relu clamps E14's -24 to 0.
  CHECK(Ok(RunQ(OpKind::kAdd, {Q({1}, {100}, 6), Q({1}, {-37}, 4)}, 5,
                A({{"activation", Str("relu")}}))) == Q8{0});
}

TEST_CASE("E15: mul is the exact product, rounded once") {
  // 90 at f 6 times -50 at f 5, f_out 5: p = -4500, S = 6: (-4500 + 32) >> 6 = -70.
  CHECK(Ok(RunQ(OpKind::kMul, {Q({1}, {90}, 6), Q({1}, {-50}, 5)}, 5)) == Q8{-70});
}

TEST_CASE("mul: ties, saturation, S = 0, S = -31, broadcast") {
  // f 1 * f 0 -> f 0: 1 * 1 = 0.5 -> 1; -1 * 1 = -0.5 -> 0.
  CHECK(Ok(RunQ(OpKind::kMul, {Q({2}, {1, -1}, 1), Q({1}, {1}, 0)}, 0)) == Q8{1, 0});
  // S = 0: 127 * 127 -> 127, 127 * -128 -> -128, 3 * -4 = -12.
  CHECK(Ok(RunQ(OpKind::kMul, {Q({3}, {127, 127, 3}, 0), Q({3}, {127, -128, -4}, 0)}, 0)) ==
        Q8{127, -128, -12});
  // f -8 * f -8 -> f 15: S = -31: 1 -> 127, -1 -> -128, 0 -> 0.
  CHECK(Ok(RunQ(OpKind::kMul, {Q({3}, {1, -1, 0}, -8), Q({1}, {1}, -8)}, 15)) == Q8{127, -128, 0});
}

TEST_CASE("E16: prelu with a quantized alpha") {
  // alpha 0.25 at f 7 -> 32; f_in = f_out = 4. -50 * 32 = -1600, S = 7: -1536 >> 7 = -12
  // (-12.5 ties up); 50 -> requant(50, 0) = 50.
  CHECK(Ok(RunQ(OpKind::kPRelu, {Q({2}, {-50, 50}, 4), QC({1}, {32}, 7)}, 4)) == Q8{-12, 50});
}

TEST_CASE("prelu: alpha at f 23, the positive branch rescaled, alpha per element") {
  // -128 * 127 = -16 256 at f 0 + 23, f_out 0: (-16 256 + 2^22) >> 23 = 0.
  CHECK(Ok(RunQ(OpKind::kPRelu, {Q({1}, {-128}, 0), QC({1}, {127}, 23)}, 0)) == Q8{0});
  // f_in 5 -> f_out 4: 77 -> (77 + 1) >> 1 = 39; -77 * 64 (alpha 0.5 at f 7) = -4928 at f 12,
  // S = 8: (-4928 + 128) >> 8 = -4800 >> 8 = -19 (floor of -18.75).
  CHECK(Ok(RunQ(OpKind::kPRelu, {Q({2}, {77, -77}, 5), QC({1}, {64}, 7)}, 4)) == Q8{39, -19});
  // Alpha per element (broadcast over [2, 2]): -10 * [1, 2] at f 0 + 0 -> [-10, -20].
  CHECK(Ok(RunQ(OpKind::kPRelu, {Q({2, 2}, {-10, -10, 3, -1}, 0), Q({2}, {1, 2}, 0)}, 0)) ==
        Q8{-10, -20, 3, -2});
  // alpha at f 24 is out of range.
  QRun r = RunQ(OpKind::kPRelu, {Q({1}, {-1}, 0), QC({1}, {1}, 24)}, 0);
  CHECK(Contains(r.error(), "input 'alpha' (tensor 'in1') has fraction length 24"));
}

TEST_CASE("relu, relu6, relu_n1_to_1: requant then clamp, as the §6 table rows") {
  // relu 4 -> 4: -5 -> 0, 7 -> 7.
  CHECK(Ok(RunQ(OpKind::kRelu, {Q({2}, {-5, 7}, 4)}, 4)) == Q8{0, 7});
  // relu6 4 -> 4: 127 -> min(127, quantize(6, 4) = 96) = 96.
  CHECK(Ok(RunQ(OpKind::kRelu6, {Q({2}, {127, -1}, 4)}, 4)) == Q8{96, 0});
  // relu6 5 -> 4: 127 -> requant(127, 1) = 64 (63.5 ties up), below 96.
  CHECK(Ok(RunQ(OpKind::kRelu6, {Q({1}, {127}, 5)}, 4)) == Q8{64});
  // relu_n1_to_1 6 -> 7: 100 -> requant(100, -1) = 200 -> 127; -100 -> -128.
  CHECK(Ok(RunQ(OpKind::kReluN1To1, {Q({2}, {100, -100}, 6)}, 7)) == Q8{127, -128});
  // relu_n1_to_1 4 -> 4: [-16, 16].
  CHECK(Ok(RunQ(OpKind::kReluN1To1, {Q({3}, {-17, 16, 17}, 4)}, 4)) == Q8{-16, 16, 16});
  // relu 1 -> 0: ties: 1 -> 0.5 -> 1, 3 -> 1.5 -> 2; relu -8 -> 15 saturates.
  CHECK(Ok(RunQ(OpKind::kRelu, {Q({2}, {1, 3}, 1)}, 0)) == Q8{1, 2});
  CHECK(Ok(RunQ(OpKind::kRelu, {Q({2}, {1, -1}, -8)}, 15)) == Q8{127, 0});
}

TEST_CASE("lookup_table: y = table[q + 128]") {
  // Table entry i holds 127 - i (clamped): q = -128 -> index 0 -> 127; q = 0 -> index 128 -> -1;
  // q = 127 -> index 255 -> -128. Entry 144 is set to 94 (the §6 sigmoid row, q = 16).
  Q8 table(256);
  for (size_t i = 0; i < 256; ++i) table[i] = i == 0 ? 127 : 127 - static_cast<int64_t>(i);
  table[255] = -128;
  table[144] = 94;
  QRun r = RunQ(OpKind::kLookupTable, {Q({4}, {-128, 0, 127, 16}, 4), Table(table)}, 7);
  CHECK(Ok(r) == Q8{127, -1, -128, 94});
}

TEST_CASE("leaky_relu, hard_swish, sigmoid, tanh on i8 need a lookup_table") {
  const OpKind ops[] = {OpKind::kHardSwish, OpKind::kSigmoid, OpKind::kTanh};
  for (OpKind op : ops) {
    QRun r = RunQ(op, {Q({1}, {1}, 4)}, 4);
    CHECK(r.status.code() == StatusCode::kUnsupported);
    CHECK(Contains(r.error(), "on i8 needs a lookup_table (run the quantizer"));
  }
  QRun r = RunQ(OpKind::kLeakyRelu, {Q({1}, {1}, 4)}, 4, A({{"alpha", Real(0.125)}}));
  CHECK(Contains(r.error(), "leaky_relu on i8 needs a lookup_table"));
}

TEST_CASE("binary ops: missing and out-of-range fixed points name the tensor") {
  QOperand rhs = Q({1}, {1}, 0);
  rhs.fixed_point = {};
  QRun r = RunQ(OpKind::kAdd, {Q({1}, {1}, 0), rhs}, 0);
  CHECK(!r.verified.ok());
  CHECK(Contains(r.status.message(), "input 'rhs' (tensor 'in1') is i8 without a fixed point"));
  r = RunQ(OpKind::kMul, {Q({1}, {1}, 16), Q({1}, {1}, 0)}, 0);
  CHECK(Contains(r.error(), "input 'lhs' (tensor 'in0') has fraction length 16"));
  r = RunQFixed(OpKind::kAdd, {Q({1}, {1}, 0), Q({1}, {1}, 0)}, {{0, 0}, -1});
  CHECK(Contains(r.status.message(), "output (tensor 'op') has 2 fraction lengths (axis -1)"));
}

}  // namespace
}  // namespace opuc
