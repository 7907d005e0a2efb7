// Lookup tables (docs/numerics.md §6, §8): the entries worked out on that
// page by hand, and the clamps against their closed form.
#include <doctest/doctest.h>

#include "tables.h"

namespace opuc::quant {
namespace {

int8_t Entry(OpKind op, int f_in, int f_out, int q, Attributes attrs = {}) {
  return BuildTable(op, attrs, f_in, f_out)[static_cast<size_t>(q + 128)];
}

Attributes Alpha(double alpha) {
  Attributes a;
  a.Set("alpha", alpha);
  return a;
}

TEST_CASE("tables: the worked rows of numerics.md §6") {
  CHECK(Entry(OpKind::kSigmoid, 4, 7, 16) == 94);                   // 0.731059 · 128 = 93.58
  CHECK(Entry(OpKind::kSigmoid, 4, 7, 127) == 127);                 // 127.95 → 128 saturates
  CHECK(Entry(OpKind::kTanh, 5, 7, -16) == -59);                    // −0.462117 · 128 = −59.15
  CHECK(Entry(OpKind::kHardSwish, 4, 4, -24) == -6);                // −1.5·1.5/6 · 16 = −6
  CHECK(Entry(OpKind::kLeakyRelu, 4, 4, -20, Alpha(0.125)) == -2);  // −2.5 ties up
  CHECK(Entry(OpKind::kLeakyRelu, 4, 4, -25, Alpha(0.1)) == -3);    // float32(0.1) > 0.1
  CHECK(Entry(OpKind::kRelu6, 4, 4, 127) == 96);
  CHECK(Entry(OpKind::kRelu6, 5, 4, 127) == 64);  // 63.5 ties up
  CHECK(Entry(OpKind::kReluN1To1, 6, 7, 100) == 127);
  CHECK(Entry(OpKind::kRelu, 4, 4, -5) == 0);
}

TEST_CASE("tables: leaky_relu 1/8 at equal lengths is the original OPU's (v + 4) >> 3") {
  const auto table = BuildTable(OpKind::kLeakyRelu, Alpha(0.125), 4, 4);
  for (int q = -128; q < 128; ++q) {
    const int expected = q > 0 ? q : (q + 4) >> 3;  // arithmetic shift: floor
    CHECK(table[static_cast<size_t>(q + 128)] == expected);
  }
}

TEST_CASE("tables: relu6 with f_in = f_out is the clamp [0, quantize(6, f)]") {
  for (int f : {2, 4, 6}) {
    const auto table = BuildTable(OpKind::kRelu6, {}, f, f);
    const int hi = std::min(127, 6 << f);
    for (int q = -128; q < 128; ++q)
      CHECK(table[static_cast<size_t>(q + 128)] == std::min(hi, std::max(0, q)));
  }
}

TEST_CASE("tables: an i16 input's knots fit the function in least squares") {
  // hard_swish from i16 at f 10 (knots h = 256 · 2^-10 = 1/4 apart) to i16 at
  // f 11. Where F = a·x² + b·x + c for several knots around, the fit lowers
  // each knot by a·h²·m, with m = −mean over l of (t² − t), t = l/256 =
  // 0.498046875 − 0.331382751 = 0.166664124: then the chord's error
  // a·h²·(t² − t + m) sums to zero over an interval (the normal equations
  // there). On [−3, 3] hard_swish is x²/6 + x/2: a·h²·m = 0.00173608.
  const std::vector<int32_t> swish =
      BuildTable(OpKind::kHardSwish, {}, DType::kI16, 10, DType::kI16, 11);
  REQUIRE(swish.size() == 257);
  CHECK(swish[132] == 1362);  // x = 1: (2/3 − 0.00173608) · 2048 = 1361.78 (sampled: 1365)
  CHECK(swish[128] == -4);    // x = 0: −3.56 rounds half up to −4 (sampled: 0)
  // Where F is linear between the knots the fit is F itself.
  CHECK(swish[168] == 20480);  // x = 10: 10 · 2048
  CHECK(swish[88] == 0);       // x = −10
  // leaky_relu's kink is knot 128: linear on every interval, so every knot
  // is F at the knot, x = (k − 128) · 256 / 1024, in i16 at f 10.
  const std::vector<int32_t> leaky =
      BuildTable(OpKind::kLeakyRelu, Alpha(0.125), DType::kI16, 10, DType::kI16, 10);
  for (int k = 0; k < 257; ++k) {
    const int q = (k - 128) * 256;
    CHECK(leaky[static_cast<size_t>(k)] == (q > 0 ? std::min(q, 32767) : q / 8));
  }
}

TEST_CASE("tables: E33's sigmoid knots, i16 at f 12 to u8 at f 8") {
  // σ'' is under 0.03 there: the fit lowers a knot by at most
  // 0.015 · (1/16)² · 0.167 · 256 = 0.003 of a step, so the knots are E33's
  // rhu(256 σ(x)): x = 3/16, 1/4, −1/4, −3/16.
  const std::vector<int32_t> t = BuildTable(OpKind::kSigmoid, {}, DType::kI16, 12, DType::kU8, 8);
  CHECK(t[131] == 140);  // 139.97
  CHECK(t[132] == 144);  // 143.92
  CHECK(t[124] == 112);  // 112.08
  CHECK(t[125] == 116);  // 116.04
}

TEST_CASE("tables: softmax exp table of E26") {
  const auto e = BuildSoftmaxExpTable(1.0, 4);
  CHECK(e[0] == 32768);
  CHECK(e[8] == 19875);  // 32768 · e^-0.5 = 19874.80
  CHECK(e[40] == 2690);  // 32768 · e^-2.5 = 2689.76
  CHECK(e[64] == 600);   // 32768 · e^-4 = 600.17
  CHECK(e[255] == 0);    // 32768 · e^-15.9375 = 0.0039
}

}  // namespace
}  // namespace opuc::quant
