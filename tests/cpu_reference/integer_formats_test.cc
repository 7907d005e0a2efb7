// The three activation formats of docs/numerics.md §1b (i8, u8, i16) on the
// integer reference executor: one saturation to the output's format, the
// two 8-bit passes of an i16 input, tables on i16 inputs, and examples
// E29-E38 with the page's integers.
#include <random>

#include "integer_test_util.h"
#include "opuc/numerics/fixed_point.h"

namespace opuc {
namespace {

using namespace testing;

constexpr DType kU8 = DType::kU8;
constexpr DType kI16 = DType::kI16;
constexpr DType kI8 = DType::kI8;

/// fully_connected of one row: out[o] = stage(Σ_i q[i] · w[o, i] + b[o]).
QRun Fc(DType out_format, QOperand input, QOperand weights, int f_out,
        std::string activation = "none", std::optional<QOperand> bias = std::nullopt) {
  std::vector<QOperand> ops = {std::move(input), std::move(weights)};
  if (bias) ops.push_back(*bias);
  return RunQAs(out_format, OpKind::kFullyConnected, ops, f_out, Act(activation));
}

TEST_CASE("E29: requant saturates to the output's format, once") {
  // i16 input 20000 at f 7, weight 1 at f 0, f_out 0: S = 7, 20000 / 128 = 156.25.
  for (auto [format, up, down] :
       {std::tuple{kI8, 127, -128}, std::tuple{kU8, 156, 0}, std::tuple{kI16, 156, -156}}) {
    CAPTURE(DTypeName(format));
    CHECK(Ok(Fc(format, As(kI16, Q({1, 1}, {20000}, 7)), QW({1, 1}, {1}, {0}, 0), 0)) == Q8{up});
    CHECK(Ok(Fc(format, As(kI16, Q({1, 1}, {-20000}, 7)), QW({1, 1}, {1}, {0}, 0), 0)) == Q8{down});
  }
}

TEST_CASE("E30: a u8 output keeps the bit that i8 spends on the sign") {
  // 100 · 100 + 20 000 = 30 000 at f 5 + 6, f_out 4: S = 7 -> 234 (234.375).
  const QOperand x = Q({1, 1}, {100}, 5), w = QW({1, 1}, {100}, {6}, 0);
  CHECK(Ok(Fc(kU8, x, w, 4, "relu", I32C({1}, {20000}))) == Q8{234});
  CHECK(Ok(Fc(kI8, x, w, 4, "relu", I32C({1}, {20000}))) == Q8{127});
  // relu6 at f_out 5: i8 cannot reach 6.0 (quantize(6, 5) = 192 -> 127); u8 clamps at 192.
  // 127 · 127 = 16 129 at f 5 + 5, f_out 5: S = 5 -> 504 -> 255 -> 192.
  const QOperand big = Q({1, 1}, {127}, 5), w5 = QW({1, 1}, {127}, {5}, 0);
  CHECK(Ok(Fc(kU8, big, w5, 5, "relu6")) == Q8{192});
  CHECK(Ok(Fc(kI8, big, w5, 5, "relu6")) == Q8{127});
  // A u8 output stage floors negative results at 0 with or without relu.
  CHECK(Ok(Fc(kU8, Q({1, 1}, {-100}, 5), w, 4)) == Q8{0});
}

TEST_CASE("E31-E32: an i16 input is two 8-bit passes, an i16 output stage") {
  // q = -12345 = 256 · (-49) + 199, 30000 = 256 · 117 + 48; w = [3, -7].
  CHECK(SplitInt16(-12345).high == -49);
  CHECK(SplitInt16(-12345).low == 199);
  CHECK(SplitInt16(30000).high == 117);
  CHECK(SplitInt16(30000).low == 48);
  CHECK(SplitInt16(-32768).high == -128);
  CHECK(SplitInt16(-32768).low == 0);
  CHECK(SplitInt16(-1).high == -1);
  CHECK(SplitInt16(-1).low == 255);
  // high pass -966, low pass 261: (-966 << 8) + 261 = -247 035 = -37 035 - 210 000.
  // f_in 12, f_w 6, f_out 14: S = 4 -> (-247 035 + 8) >> 4 = -15 440 (-15 439.6875).
  QRun r = Fc(kI16, As(kI16, Q({1, 2}, {-12345, 30000}, 12)), QW({1, 2}, {3, -7}, {6}, 0), 14);
  CHECK(Ok(r) == Q8{-15440});
}

/// Round half up of x / 2^s, written out for the test (s > 0).
int64_t HalfUp(int64_t x, int s) { return (x + (int64_t{1} << (s - 1))) >> s; }

TEST_CASE("two passes equal the direct 16x8 product, bit for bit, on random data") {
  std::mt19937 rng(20261125);
  std::uniform_int_distribution<int> q16(-32768, 32767), q8(-128, 127);
  for (int trial = 0; trial < 50; ++trial) {
    const int64_t ci = 1 + trial * 7;
    Q8 q, w;
    int64_t direct = 0, high = 0, low = 0;
    for (int64_t i = 0; i < ci; ++i) {
      q.push_back(q16(rng));
      w.push_back(q8(rng));
      const int64_t lo = ((q.back() % 256) + 256) % 256;  // the unsigned low byte
      const int64_t hi = (q.back() - lo) / 256;           // exact: the signed high byte
      direct += q.back() * w.back();
      high += hi * w.back();
      low += lo * w.back();
    }
    REQUIRE(direct == high * 256 + low);
    // The executor's result is the output stage of exactly that sum: f_in 15,
    // f_w 7, f_out 10: S = 12, saturated to i16.
    const int64_t want = std::min<int64_t>(32767, std::max<int64_t>(-32768, HalfUp(direct, 12)));
    CHECK(Ok(Fc(kI16, As(kI16, Q({1, ci}, q, 15)), QW({1, ci}, w, {7}, 0), 10)) == Q8{want});
  }
}

TEST_CASE("an i16 input accumulates beyond int32, exactly (int48)") {
  // 1000 · 32767 · 127 = 4 161 409 000 > 2^31; at f_in 15, f_w 7, f_out 0 it is
  // 4 161 409 000 / 2^22 = 992.2 -> 992 in i16.
  const Q8 q(1000, 32767), w(1000, 127);
  CHECK(Ok(Fc(kI16, As(kI16, Q({1, 1000}, q, 15)), QW({1, 1000}, w, {7}, 0), 0)) == Q8{992});
}

TEST_CASE("E33: a table on an i16 input interpolates 257 knots") {
  // Knots T[k] = 10 k (i16). q = 1000: high 3, low 232, k = 131:
  // 1310 + shr_rhu(10 · 232, 8) = 1310 + 9 (9.06) = 1319.
  Q8 linear(257);
  for (size_t k = 0; k < linear.size(); ++k) linear[k] = static_cast<int64_t>(10 * k);
  const QOperand knots{kI16, {257}, linear, {}, true, false};
  // q = -32768: k = 0, low 0 -> 0; q = 32767: k = 255, low 255 -> 2550 + 10 = 2560 (9.96).
  CHECK(Ok(RunQAs(kI16, OpKind::kLookupTable, {As(kI16, Q({3}, {1000, -32768, 32767}, 12)), knots},
                  7)) == Q8{1319, 0, 2560});
  // sigmoid from i16 at f 12 to u8 at f 8: T[131] = rhu(256 σ(3/16)) = 140,
  // T[132] = rhu(256 σ(1/4)) = 144 -> q = 1000 gives 140 + shr_rhu(4 · 232, 8) = 144
  // (256 σ(1000/4096) = 143.55). T[124] = 112, T[125] = 116 -> q = -1000 (high -4,
  // low 24) gives 112 + shr_rhu(4 · 24, 8) = 112 (112.45).
  Q8 sigmoid(257, 0);
  sigmoid[131] = 140, sigmoid[132] = 144, sigmoid[124] = 112, sigmoid[125] = 116;
  const QOperand table{kU8, {257}, sigmoid, {}, true, false};
  CHECK(Ok(RunQAs(kU8, OpKind::kLookupTable, {As(kI16, Q({2}, {1000, -1000}, 12)), table}, 8)) ==
        Q8{144, 112});
  // A u8 input indexes its table directly: T[q].
  Q8 squares(256);
  for (size_t i = 0; i < squares.size(); ++i) squares[i] = static_cast<int64_t>(i * i / 256);
  const QOperand u8_table{kU8, {256}, squares, {}, true, false};
  CHECK(Ok(RunQAs(kU8, OpKind::kLookupTable, {As(kU8, Q({3}, {0, 200, 255}, 8)), u8_table}, 8)) ==
        Q8{0, 156, 254});
}

TEST_CASE("E34: add and mul across formats round once") {
  // u8 200 at f 7 (1.5625) + i16 -3000 at f 11 (-1.46484375) -> i8 at f 6:
  // F = 11: 200 · 16 - 3000 = 200; shr_rhu(200, 5) = 6 (6.25).
  CHECK(Ok(RunQAs(kI8, OpKind::kAdd, {As(kU8, Q({1}, {200}, 7)), As(kI16, Q({1}, {-3000}, 11))},
                  6)) == Q8{6});
  // u8 200 · i16 -3000 = -600 000 at f 18 -> i16 at f 12: -600 000 / 64 = -9375.
  CHECK(Ok(RunQAs(kI16, OpKind::kMul, {As(kU8, Q({1}, {200}, 7)), As(kI16, Q({1}, {-3000}, 11))},
                  12)) == Q8{-9375});
  // prelu on i16: -1000 at f 10, alpha 32 at f 7, f_out 10: -32 000 >> 7 = -250.
  CHECK(Ok(RunQAs(kI16, OpKind::kPRelu, {As(kI16, Q({2}, {-1000, 1000}, 10)), QC({1}, {32}, 7)},
                  10)) == Q8{-250, 1000});
}

TEST_CASE("E35: softmax reads i8 or u8 and writes i8 or u8") {
  const auto table = [] {
    Q8 t(256, 0);
    t[0] = 32768, t[8] = 19875, t[40] = 2690;
    return I32C({256}, t);
  }();
  // E26's row, written to u8 at f 8: rhu_div(E · 256, 55 333) = [152, 92, 12].
  CHECK(Ok(RunQAs(kU8, OpKind::kSoftmax, {Q({1, 3}, {40, 32, 0}, 4), table}, 8)) ==
        Q8{152, 92, 12});
  // The same differences from a u8 row: [200, 192, 160] -> E26's [76, 46, 6].
  CHECK(Ok(RunQ(OpKind::kSoftmax, {As(kU8, Q({1, 3}, {200, 192, 160}, 4)), table}, 7)) ==
        Q8{76, 46, 6});
  QRun wide = RunQ(OpKind::kSoftmax, {As(kI16, Q({1, 3}, {200, 192, 160}, 4)), table}, 7);
  CHECK(Contains(wide.error(), "is i16; an integer softmax reads 8-bit inputs"));
}

TEST_CASE("E36: graph inputs quantize into the output's format") {
  const auto quantize = [](DType format, std::vector<float> x, int f) {
    GraphBuilder b("q");
    const TensorId in = b.Input("x", DType::kF32, {static_cast<int64_t>(x.size())});
    const TensorId out = b.Op(OpKind::kQuantize, "quantize", {in});
    b.Output(out);
    Graph g = std::move(b).Finish().value();
    g.tensor(out).dtype = format;
    g.tensor(out).fixed_point = FixedPoint{{f}, -1};
    REQUIRE(Verify(g).ok());
    HostTensor input = HostTensor::Zeros(DType::kF32, {static_cast<int64_t>(x.size())}).value();
    for (size_t i = 0; i < x.size(); ++i) input.data<float>()[i] = x[i];
    return IntValues(RunReference(g, {input}).value().front());
  };
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  CHECK(quantize(kU8, {1.5f, -0.3f, 2.0f, nan, inf, -inf}, 7) == Q8{192, 0, 255, 0, 255, 0});
  CHECK(quantize(kI16, {1.5f, -9.0f, 1.0f / 8192, -1.0f / 8192}, 12) ==
        Q8{6144, -32768, 1, 0});  // ±0.5 LSB: ties go up
}

TEST_CASE("E37: pools, means and moves in u8 and i16") {
  const Attributes pool = A({{"filter", IntList({2, 2})}, {"strides", IntList({2, 2})}});
  // avg of [250, 251, 251, 252] = 251 (beyond i8); max 252, into i8 at f - 1: 126.
  const QOperand window = As(kU8, Q({1, 2, 2, 1}, {250, 251, 251, 252}, 4));
  CHECK(Ok(RunQAs(kU8, OpKind::kAvgPool2D, {window}, 4, pool)) == Q8{251});
  CHECK(Ok(RunQAs(kI8, OpKind::kMaxPool2D, {window}, 3, pool)) == Q8{126});
  // mean of i16 [30000, 30001] = 30000.5 -> 30001 (tie up).
  CHECK(Ok(RunQAs(kI16, OpKind::kMean, {As(kI16, Q({1, 2}, {30000, 30001}, 9))}, 9,
                  A({{"axes", IntList({1})}}))) == Q8{30001});
  // concat of u8 [200] and i8 [-5] into u8: 200 stays, -5 saturates to 0.
  CHECK(Ok(RunQAs(kU8, OpKind::kConcat, {As(kU8, Q({1}, {200}, 5)), Q({1}, {-5}, 5)}, 5,
                  A({{"axis", I64(0)}}))) == Q8{200, 0});
  // relu from i16 at f 8 to u8 at f 4: -300 -> 0, 1000 -> 62.5 -> 63, 30000 -> 1875 -> 255.
  CHECK(Ok(RunQAs(kU8, OpKind::kRelu, {As(kI16, Q({3}, {-300, 1000, 30000}, 8))}, 4)) ==
        Q8{0, 63, 255});
  // reshape moves i16 into i8 at f - 2: 1000 -> 250 -> 127; -6 -> -1.5 -> -1.
  CHECK(Ok(RunQAs(kI8, OpKind::kReshape, {As(kI16, Q({2}, {1000, -6}, 6))}, 4,
                  A({{"new_shape", IntList({2, 1})}}))) == Q8{127, -1});
}

TEST_CASE("E38: resize_bilinear on u8 keeps E23's weights") {
  // 2 -> 4, default: [16, 48] at f 3 -> [16, 32, 48, 48].
  CHECK(Ok(RunQAs(kU8, OpKind::kResizeBilinear, {As(kU8, Q({1, 1, 2, 1}, {16, 48}, 3))}, 3,
                  A({{"size", IntList({1, 4})}}))) == Q8{16, 32, 48, 48});
}

TEST_CASE("format errors name the tensor") {
  // An i16 activation may reach f = 23; an i8 one only 15.
  CHECK(Fc(kI16, As(kI16, Q({1, 1}, {1}, 23)), QW({1, 1}, {1}, {0}, 0), 23).error().empty());
  CHECK(Contains(Fc(kI8, Q({1, 1}, {1}, 16), QW({1, 1}, {1}, {0}, 0), 15).error(),
                 "fraction length 16"));
  // Weights stay i8.
  QRun wide = Fc(kI8, Q({1, 1}, {1}, 5), As(kI16, QW({1, 1}, {1}, {0}, 0)), 5);
  CHECK(Contains(wide.error(), "weights are i8"));
}

}  // namespace
}  // namespace opuc
