// The primitives of docs/numerics.md §0, §1, §3 (src/support/fixed_point.h):
// E1-E6, E11, E24, E27, E28 with the page's integers, plus the edges of
// each function (ties, saturation, extreme shifts, non-finite values).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>

#include "opuc/numerics/fixed_point.h"

namespace opuc {
namespace {

constexpr int64_t kI64Max = std::numeric_limits<int64_t>::max();
constexpr int64_t kI64Min = std::numeric_limits<int64_t>::min();

TEST_CASE("E1: shr_rhu and requant with s = 7") {
  CHECK(ShrRhu(1234, 7) == 10);  // 1298 >> 7
  CHECK(ShrRhu(192, 7) == 2);    // 1.5 -> 2
  CHECK(ShrRhu(-192, 7) == -1);  // -1.5 -> -1 (tie up)
  CHECK(ShrRhu(64, 7) == 1);     // 0.5 -> 1
  CHECK(ShrRhu(-64, 7) == 0);    // -0.5 -> 0
  CHECK(ShrRhu(20000, 7) == 156);
  CHECK(ShrRhu(-20000, 7) == -156);  // floor of -155.75
  CHECK(Requant(1234, 7) == 10);
  CHECK(Requant(192, 7) == 2);
  CHECK(Requant(-192, 7) == -1);
  CHECK(Requant(64, 7) == 1);
  CHECK(Requant(-64, 7) == 0);
  CHECK(Requant(20000, 7) == 127);
  CHECK(Requant(-20000, 7) == -128);
}

TEST_CASE("E2: requant with s = -2, and the clamp shortcut") {
  CHECK(Requant(25, -2) == 100);
  CHECK(Requant(40, -2) == 127);    // 160
  CHECK(Requant(-33, -2) == -128);  // -132
  CHECK(Requant(0, -2) == 0);
  CHECK(Requant(1000000, -2) == 127);  // clamps to 256, 1024 -> 127
  CHECK(ShrRhu(25, -2) == 100);
}

TEST_CASE("E3: rhu_div") {
  CHECK(RhuDiv(97, 9) == 11);   // floordiv(203, 18), 10.78
  CHECK(RhuDiv(-14, 4) == -3);  // floordiv(-24, 8), -3.5 ties up
  CHECK(RhuDiv(23, 4) == 6);    // floordiv(50, 8), 5.75
  CHECK(RhuDiv(1, 2) == 1);     // +0.5 -> 1
  CHECK(RhuDiv(-1, 2) == 0);    // -0.5 -> 0
}

TEST_CASE("floordiv floors negative numerators") {
  CHECK(FloorDiv(7, 2) == 3);
  CHECK(FloorDiv(-7, 2) == -4);  // C's / gives -3
  CHECK(FloorDiv(-8, 2) == -4);
  CHECK(FloorDiv(0, 5) == 0);
  CHECK(FloorDiv(kI64Min, 1) == kI64Min);
}

TEST_CASE("E4: quantize [0.5, -1.0, 0.3, 1.2] at f = 7") {
  CHECK(QuantizeToInt8(0.5, 7) == 64);
  CHECK(QuantizeToInt8(-1.0, 7) == -128);
  CHECK(QuantizeToInt8(0.3, 7) == 38);   // 38.4
  CHECK(QuantizeToInt8(1.2, 7) == 127);  // 153.6 -> 154 -> saturated
}

TEST_CASE("E5: ties round half up at f = 8") {
  CHECK(QuantizeToInt8(0.009765625, 8) == 3);    // 2.5
  CHECK(QuantizeToInt8(-0.009765625, 8) == -2);  // -2.5 (away from zero would be -3)
  CHECK(QuantizeToInt8(-0.001953125, 8) == 0);   // -0.5
}

TEST_CASE("E6: a bias rounds half up, 4.0 at f = 12 + 17 does not fit int32") {
  CHECK(Rhu(0.146484375 * 512) == 75);  // 75.0 exactly
  const int64_t big = Rhu(std::ldexp(4.0, 12 + 17));
  CHECK(big == (int64_t{1} << 31));  // 2^31 > 2^31 - 1: the quantizer reports an error
  CHECK(big > std::numeric_limits<int32_t>::max());
}

TEST_CASE("rhu is not floor(v + 0.5), NaN and huge values are safe") {
  CHECK(Rhu(0.49999999999999994) == 0);  // 0.5 - 2^-54; floor(v + 0.5) would give 1
  CHECK(Rhu(2.5) == 3);
  CHECK(Rhu(-2.5) == -2);
  CHECK(Rhu(-0.5) == 0);
  CHECK(Rhu(-0.50000000000000011) == -1);  // just below -0.5
  CHECK(Rhu(std::nan("")) == 0);
  CHECK(Rhu(1e300) == (int64_t{1} << 62));
  CHECK(Rhu(-1e300) == -(int64_t{1} << 62));
  CHECK(Rhu(std::numeric_limits<double>::infinity()) == (int64_t{1} << 62));
}

TEST_CASE("E24: graph inputs at f = 7, and the non-finite values") {
  CHECK(QuantizeToInt8(static_cast<double>(0.7f), 7) == 90);  // 0.699999988 * 128 = 89.6
  CHECK(QuantizeToInt8(-0.50390625, 7) == -64);               // -64.5 ties up
  CHECK(QuantizeToInt8(1.0, 7) == 127);                       // 128 saturates
  CHECK(QuantizeToInt8(-1.0, 7) == -128);
  CHECK(QuantizeToInt8(std::numeric_limits<double>::infinity(), 7) == 127);
  CHECK(QuantizeToInt8(-std::numeric_limits<double>::infinity(), 7) == -128);
  CHECK(QuantizeToInt8(std::nan(""), 7) == 0);
}

TEST_CASE("quantize at f = -8 and f = 15") {
  CHECK(QuantizeToInt8(32512.0, -8) == 127);             // 32512 / 256 = 127
  CHECK(QuantizeToInt8(-32768.0, -8) == -128);           // -128
  CHECK(QuantizeToInt8(-32640.0, -8) == -127);           // -127.5 ties up to -127
  CHECK(QuantizeToInt8(0.003875732421875, 15) == 127);   // 127 * 2^-15
  CHECK(QuantizeToInt8(std::ldexp(1.0, -16), 15) == 1);  // 0.5 -> 1
}

TEST_CASE("E11: the output stage with M = 23170, S = 22") {
  // v = 23 170 000; (v + 2^21) >> 22 = 25 267 152 >> 22 = 6 (5.524 -> 6).
  CHECK(OutputStage(1000, 23170, 22) == 6);
  CHECK(OutputStage(-1000, 23170, 22) ==
        -6);                             // (-23 170 000 + 2 097 152) >> 22 = floor(-5.02) = -6
  CHECK(OutputStage(1234, 1, 7) == 10);  // E9 with M = 1
}

TEST_CASE("output stage: S = 0, S = -31, S = 46") {
  CHECK(OutputStage(-77, 1, 0) == -77);
  CHECK(OutputStage(1, 1, -31) == 127);  // 2^31
  CHECK(OutputStage(-1, 1, -31) == -128);
  CHECK(OutputStage(0, 1, -31) == 0);
  // S = 46 with the largest acc and M: (2^31 - 1) * 32767 = 70 366 596 661 249
  // = 2^46 - 2^31 - 2^15 + 1... i.e. 2^46 * 0.99998; it rounds to 1.
  CHECK(OutputStage(2147483647, 32767, 46) == 1);
  // 2^45 exactly is a tie (0.5 -> 1); one less rounds to 0.
  CHECK(OutputStage(int64_t{1} << 30, 32768, 46) == 1);
  CHECK(OutputStage((int64_t{1} << 30) - 1, 32768, 46) == 0);
  CHECK(OutputStage(-(int64_t{1} << 30), 32768, 46) == 0);  // -0.5 -> 0
}

TEST_CASE("shifts at the int64 limits never overflow") {
  CHECK(ShrRhu(kI64Max, 1) == (int64_t{1} << 62));  // (2^63 - 1) / 2 rounds up to 2^62
  CHECK(ShrRhu(kI64Min, 1) == -(int64_t{1} << 62));
  CHECK(ShrRhu(kI64Max, 62) == 2);              // 1.99999... -> 2
  CHECK(ShrRhu(int64_t{1} << 62, 63) == 1);     // 0.5 -> 1
  CHECK(ShrRhu(-(int64_t{1} << 62), 63) == 0);  // -0.5 -> 0
  CHECK(ShrRhu(kI64Min, 63) == -1);
  CHECK(ShrRhu(kI64Min, 64) == 0);  // -0.5 -> 0
  CHECK(ShrRhu(kI64Max, 100) == 0);
  CHECK(ShrRhu(1, -62) == (int64_t{1} << 62));
  CHECK(ShrRhu(2, -62) == kI64Max);  // saturates instead of overflowing
  CHECK(ShrRhu(-2, -63) == kI64Min);
  CHECK(Requant(kI64Max, -40) == 127);
  CHECK(Requant(kI64Min, -40) == -128);
  CHECK(Requant(kI64Min, 0) == -128);
  CHECK(OutputStage(kI64Max, 32767, 0) == 127);
  CHECK(OutputStage(kI64Min, 2, 0) == -128);
}

TEST_CASE("E27: opuc's exact accumulator gives 50 where 26-bit clipping gave 0") {
  // Two passes 819 200 and -614 400 at fraction f_in + f_w = 12, f_out = 0.
  CHECK(OutputStage(819200 + -614400, 1, 12) == 50);  // (204 800 + 2048) >> 12
}

TEST_CASE("E28: opuc rounds once, 0.5 -> 1 where per-pass floors gave 0") {
  // Passes -1 and 131 073 at 2^-18, f_out = 0: exact 131 072 * 2^-18 = 0.5.
  CHECK(OutputStage(-1 + 131073, 1, 18) == 1);
}

TEST_CASE("sat_int8") {
  CHECK(SatInt8(127) == 127);
  CHECK(SatInt8(128) == 127);
  CHECK(SatInt8(-128) == -128);
  CHECK(SatInt8(-129) == -128);
  CHECK(SatInt8(kI64Max) == 127);
  CHECK(SatInt8(kI64Min) == -128);
}

}  // namespace
}  // namespace opuc
