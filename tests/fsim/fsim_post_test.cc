// The functional simulator's stages after the array (output stage, compare,
// prelu, residual add, tables) on hand-built streams for `tiny`, each
// result worked out by hand or taken from a numerics.md example.
#include "fsim_bench.h"

namespace opuc::fsim_test {
namespace {

TEST_CASE("the output stage with M != 1 (numerics.md E11)") {
  Bench b = BiasesThrough({1000, -1000, 0, 0}, 23170, 22);
  b.Add(With(Output(1, -128, 127), kPushNext));
  b.Add(With(Store(1, 1, 1, 256, 8), kPopPrev));
  REQUIRE(b.Run().ok());
  CHECK(b.Signed(256, 2) == std::vector<int>{6, -6});  // ±5.524 -> ±6
}

TEST_CASE("the compare stage: relu from i16 at f = 8 to u8 at f = 4 (numerics.md E37)") {
  Bench b = BiasesThrough({-300, 1000, 30000, 8}, 1, 0);
  b.Add(Output(1, -32768, 32767));
  ClampInsn relu;
  relu.count = 1;
  relu.shift = 4;
  relu.lo = 0;
  relu.hi = 255;
  b.Add(With(relu, kPushNext));
  b.Add(With(Store(1, 1, 1, 256, 8), kPopPrev));
  REQUIRE(b.Run().ok());
  CHECK(std::vector<int>(b.dram.begin() + 256, b.dram.begin() + 260) ==
        std::vector<int>{0, 63, 255, 1});  // 62.5 -> 63; 0.5 -> 1
}

TEST_CASE("the compare stage's prelu: per-lane alpha from byte 7 of the param row") {
  // numerics.md's i16 example, -1000 · 32, with both shifts 2 larger so
  // that the result is an i8: -32000 / 2^9 = -62.5 -> -62; 1000 / 2^2 = 250,
  // saturated to 127; -7 · -128 = 896 / 2^9 = 1.75 -> 2; 0 takes the q >= 0 path.
  Bench b = BiasesThrough({-1000, 1000, -7, 0}, 1, 0);
  const int alphas[] = {32, 32, -128, 5};
  for (int lane = 0; lane < 4; ++lane)
    b.dram[static_cast<size_t>(128 + lane * 8 + 7)] = static_cast<uint8_t>(alphas[lane]);
  b.Add(Output(1, -32768, 32767));
  PReluInsn prelu;
  prelu.count = 1;
  prelu.pos_shift = 2;
  prelu.neg_shift = 9;
  prelu.lo = -128;
  prelu.hi = 127;
  b.Add(With(prelu, kPushNext));
  b.Add(With(Store(1, 1, 1, 256, 8), kPopPrev));
  REQUIRE(b.Run().ok());
  CHECK(b.Signed(256, 4) == std::vector<int>{-62, 127, 2, 0});
}

// Lane j's bias in accumulator entries 0 .. pixels - 1: zero pixels
// through the array (zero weights), the output stage passing the sums on
// unchanged. `rows` (a residual's or a constant's) load with the pixels.
void BiasesInEntries(Bench& b, std::initializer_list<int32_t> biases, int64_t pixels,
                     const LoadInsn& rows) {
  int lane = 0;
  for (int32_t bias : biases) b.Param(128, lane++, bias, 1, 0);
  b.Add(Load(0, 0, 0, 1, pixels, pixels * 8));
  b.Add(rows);
  b.Add(Load(1, 0, 64, 1, 1, 32));
  b.Add(With(Load(2, 0, 128, 1, 1, 32), kPushNext));
  b.Add(With(Gemm(0, 1, 1, pixels, 1), kPopPrev));
  b.Add(Output(pixels, -32768, 32767));
}

// Biases through the array into the accumulator, then a residual add of the
// bytes 2..5 of feature-map row 1 (loaded from DRAM 300) at F = 6: the
// accumulator at f = 6, the residual at f = 4, the output at f = 5.
Bench ResidualOf(std::initializer_list<int32_t> biases, std::initializer_list<int> residual,
                 int64_t format, int64_t lo, int64_t hi, int64_t res_lanes = 4) {
  Bench b;
  b.Bytes(298, residual);
  BiasesInEntries(b, biases, 1, Load(0, 1, 296, 1, 1, 8));  // row 1 = DRAM bytes 296..303
  ResAddInsn add;
  add.count = 1;
  add.res_addr = 1;
  add.res_lane = 2;
  add.res_format = format;
  add.res_lanes = res_lanes;
  add.acc_shift = 0;
  add.res_shift = 2;
  add.out_shift = 1;
  add.lo = lo;
  add.hi = hi;
  b.Add(With(add, kPushNext));
  b.Add(With(Store(1, 1, 1, 256, 8), kPopPrev));
  return b;
}

TEST_CASE(
    "the residual add: numerics.md E14, saturation, signed and unsigned bytes, lanes padded") {
  // 100 + (-37 << 2) = -48 -> -24; 101 - 148 = -47 -> -23 (a tie, up);
  // 0 + 120·4 = 480 -> 240, saturated to 127; -50 + 5·4 = -30 -> -15.
  Bench i8 = ResidualOf({100, 101, 0, -50}, {-37, -37, 120, 5}, 0, -128, 127);
  REQUIRE(i8.Run().ok());
  CHECK(i8.Signed(256, 4) == std::vector<int>{-24, -23, 127, -15});
  // With res_lanes 2, lanes 2 and 3 add 0 (a channel-padded residual): 0 and
  // -50 / 2 = -25, whatever the bytes there.
  Bench padded = ResidualOf({100, 101, 0, -50}, {-37, -37, 120, 5}, 0, -128, 127, 2);
  REQUIRE(padded.Run().ok());
  CHECK(padded.Signed(256, 4) == std::vector<int>{-24, -23, 0, -25});
  // The byte 200 is -56 signed (-56·4 / 2 = -112) and 200 unsigned (400,
  // saturated to a u8's 255); 0 stays 0 either way.
  Bench s = ResidualOf({0, 0, 0, 0}, {200, 0, 0, 0}, 0, -128, 127);
  REQUIRE(s.Run().ok());
  CHECK(s.Signed(256, 2) == std::vector<int>{-112, 0});
  Bench u = ResidualOf({0, 0, 0, 0}, {200, 0, 0, 0}, 1, 0, 255);
  OpuCounters counters;
  REQUIRE(u.Run(&counters).ok());
  CHECK(u.dram[256] == 255);
  CHECK(counters.post_entries == 2);  // Output, then ResAdd, on one entry
}

// Two entries, each lane's bias (f = 6), then a ResAdd that reads one
// feature-map row for both: a per-channel constant (f = 4) in row 10
// (and, for an i16, its low bytes in row 11).
Bench ChannelConstant(std::initializer_list<int32_t> biases, int64_t format, bool multiply,
                      int64_t out_shift, int64_t lo, int64_t hi, int64_t res_shift = -1) {
  Bench b;
  b.Bytes(300, {-37, 5, 120, -2});  // i8; an i16's high bytes
  b.Bytes(308, {199, 2});           // an i16's low bytes: -37·256 + 199, 5·256 + 2
  BiasesInEntries(b, biases, 2, Load(0, 10, 300, 1, 2, 16));
  ResAddInsn add;
  add.count = 2;
  add.res_addr = 10;
  add.res_format = format;
  add.res_lanes = 4;
  add.broadcast = 1;
  add.multiply = multiply;
  add.res_shift = res_shift >= 0 ? res_shift : multiply ? 0 : 2;
  add.out_shift = out_shift;
  add.lo = lo;
  add.hi = hi;
  b.Add(With(add, kPushNext));
  b.Add(With(Store(1, 2, 2, 256, 16), kPopPrev));
  return b;
}

TEST_CASE("a per-channel constant: one row for every entry, added or multiplied") {
  // Add (numerics.md E14's shifts): (100 - 148) / 2 = -24; (-7 + 20) / 2 =
  // 6.5 -> 7; (50 + 480) / 2 = 265 -> 127; (3 - 8) / 2 = -2.5 -> -2. The
  // second entry reads the same row, not row 11.
  Bench add = ChannelConstant({100, -7, 50, 3}, 0, false, 1, -128, 127);
  REQUIRE(add.Run().ok());
  CHECK(add.Signed(256, 4) == std::vector<int>{-24, 7, 127, -2});
  CHECK(add.Signed(264, 4) == std::vector<int>{-24, 7, 127, -2});
  // Multiply, f 6 + 4 to 4: 100·-37 / 64 = -57.8 -> -58; -35 / 64 -> -1;
  // 6000 / 64 = 93.75 -> 94; -6 / 64 -> 0.
  Bench mul = ChannelConstant({100, -7, 50, 3}, 0, true, 6, -128, 127);
  REQUIRE(mul.Run().ok());
  CHECK(mul.Signed(256, 4) == std::vector<int>{-58, -1, 94, 0});
  CHECK(mul.Signed(264, 4) == std::vector<int>{-58, -1, 94, 0});
  // An i16 constant, its low bytes in the next row: -9273 and 1282. 2·-9273
  // / 4 = -4636.5 -> -4636; 3·1282 / 4 = 961.5 -> 962; lanes 2, 3: 0·(120·256)
  // and 0·(-2·256). The low bytes of the stored i16s: -4636 = 0xEDE4, 962 = 0x03C2.
  Bench wide = ChannelConstant({2, 3, 0, 0}, 2, true, 2, -32768, 32767);
  REQUIRE(wide.Run().ok());
  CHECK(wide.dram[256] == 0xE4);
  CHECK(wide.dram[257] == 0xC2);
  CHECK(wide.dram[264] == 0xE4);
  // A product shifts by acc_shift; res_shift with multiply is an error.
  Bench bad = ChannelConstant({1, 1, 1, 1}, 0, true, 0, -128, 127, 1);
  CHECK(bad.Run().message() ==
        "instruction 6 (ResAdd): res_shift is 1 with multiply; a product shifts by a");
}

TEST_CASE("an i16 residual: high bytes in the tile's rows, low bytes count rows on") {
  Bench b;
  // Residual pixels (lanes 0, 1): (-12345, 30000) and (258, -1), as planes:
  // high bytes of both pixels (DRAM 300, 308), then low bytes (316, 324).
  b.Bytes(300, {-49, 117});
  b.Bytes(308, {1, -1});
  b.Bytes(316, {199, 48});
  b.Bytes(324, {2, 255});
  // Lane 0's bias 1000; rows 10, 11 high, 12, 13 low.
  BiasesInEntries(b, {1000, 0, 0, 0}, 2, Load(0, 10, 300, 1, 4, 32));
  ResAddInsn add;
  add.count = 2;
  add.res_addr = 10;
  add.res_format = 2;
  add.res_lanes = 2;
  add.out_shift = 2;
  add.lo = -32768;
  add.hi = 32767;
  b.Add(With(add, kPushNext));
  StoreInsn low = Store(1, 2, 2, 256, 16);
  StoreInsn high = Store(1, 2, 2, 512, 16);
  high.high_byte = 1;
  b.Add(With(low, kPopPrev));
  b.Add(high);
  OpuCounters counters;
  REQUIRE(b.Run(&counters).ok());
  // (1000 - 12345) / 4 = -2836.25 -> -2836; 30000 / 4 = 7500;
  // (1000 + 258) / 4 = 314.5 -> 315 (a tie, up); -1 / 4 -> 0; lanes 2, 3 add 0.
  std::vector<int> got;
  for (int pixel = 0; pixel < 2; ++pixel)
    for (int j = 0; j < 4; ++j)
      got.push_back(static_cast<int16_t>(b.dram[static_cast<size_t>(256 + pixel * 8 + j)] |
                                         b.dram[static_cast<size_t>(512 + pixel * 8 + j)] << 8));
  CHECK(got == std::vector<int>{-2836, 7500, 0, 0, 315, 0, 0, 0});
  CHECK(counters.post_entries == 4);  // Output and ResAdd, two entries each
}

// A 3x3 tile of known entries: feature-map pixel p (lanes 0 to 2 below)
// through an identity weight matrix and zero biases, so entry p = pixel p.
// Biases through the output stage into one entry, then the Table stage with
// `table` (i16 entries from DRAM 400, in feature-map rows 100 on).
Bench TableThrough(std::initializer_list<int32_t> biases, int64_t lo, int64_t hi,
                   const std::vector<int>& table, int64_t in_format) {
  Bench b;
  int lane = 0;
  for (int32_t bias : biases) b.Param(128, lane++, bias, 1, 0);
  for (size_t k = 0; k < table.size(); ++k) {
    b.dram[400 + 2 * k] = static_cast<uint8_t>(table[k] & 0xff);
    b.dram[401 + 2 * k] = static_cast<uint8_t>((table[k] >> 8) & 0xff);
  }
  b.Add(Load(0, 0, 0, 1, 1, 8));
  b.Add(Load(1, 0, 64, 1, 1, 32));
  b.Add(Load(0, 100, 400, 1, 65, 520));
  b.Add(With(Load(2, 0, 128, 1, 1, 32), kPushNext));
  b.Add(With(Gemm(0, 1, 1, 1, 1), kPopPrev));
  b.Add(Output(1, lo, hi));
  TableInsn t;
  t.count = 1;
  t.table_addr = 100;
  t.in_format = in_format;
  b.Add(With(t, kPushNext));
  return b;
}

TEST_CASE("the compare stage's tables: i8 and u8 index, i16 interpolates (numerics.md E33)") {
  std::vector<int> reversed;  // T[i] = 127 - i: an index off by one shows
  for (int i = 0; i < 256; ++i) reversed.push_back(127 - i);
  Bench i8 = TableThrough({-128, 127, 5, -1}, -128, 127, reversed, 0);
  i8.Add(With(Store(1, 1, 1, 256, 8), kPopPrev));
  REQUIRE(i8.Run().ok());
  CHECK(i8.Signed(256, 4) == std::vector<int>{127, -128, -6, 0});  // T[q + 128]
  Bench u8 = TableThrough({0, 255, 5, 200}, 0, 255, reversed, 1);
  u8.Add(With(Store(1, 1, 1, 256, 8), kPopPrev));
  REQUIRE(u8.Run().ok());
  CHECK(u8.Signed(256, 4) == std::vector<int>{127, -128, 122, -73});  // T[q]
  // Knots K[k] = 10k: 1000 -> 1310 + rhu(10 * 232 / 256) = 1319; 32767 ->
  // 2560; -32768 -> K[0] = 0; -1 (high -1, low 255) -> 1270 + rhu(9.96) = 1280.
  std::vector<int> knots;
  for (int k = 0; k <= 256; ++k) knots.push_back(10 * k);
  Bench i16 = TableThrough({1000, 32767, -32768, -1}, -32768, 32767, knots, 2);
  StoreInsn low = Store(1, 1, 1, 256, 8), high = Store(1, 1, 1, 264, 8);
  high.high_byte = 1;
  i16.Add(With(low, kPopPrev));
  i16.Add(high);
  REQUIRE(i16.Run().ok());
  std::vector<int> got;
  for (int j = 0; j < 4; ++j)
    got.push_back(i16.dram[static_cast<size_t>(256 + j)] | i16.dram[static_cast<size_t>(264 + j)]
                                                               << 8);
  CHECK(got == std::vector<int>{1319, 2560, 0, 1280});
}

TEST_CASE("a table after an output over pairs of entries looks each entry up (a dual chain)") {
  // Four entries from entry 0, pixel p's lane j = 10p + j - 20 through
  // identity weights; the Output and the Table over them are, on the RTL,
  // one pass of two entries a cycle (opu_post.sv's dual chain): the odd
  // entries through the third stage and the second table. T[i] = 127 - i
  // at q + 128: every entry becomes -1 - q.
  Bench b;
  for (int p = 0; p < 4; ++p)
    for (int j = 0; j < 4; ++j) b.Bytes(p * 8 + j, {10 * p + j - 20});
  for (int j = 0; j < 4; ++j) b.Bytes(64 + j * 8 + j, {1});
  for (int j = 0; j < 4; ++j) b.Param(128, j, 0, 1, 0);
  for (int k = 0; k < 256; ++k) b.Bytes(400 + 2 * k, {(127 - k) & 0xff, (127 - k) >> 8 & 0xff});
  b.Add(Load(0, 0, 0, 1, 4, 32));
  b.Add(Load(0, 100, 400, 1, 65, 520));
  b.Add(Load(1, 0, 64, 1, 1, 32));
  b.Add(With(Load(2, 0, 128, 1, 1, 32), kPushNext));
  b.Add(With(Gemm(0, 1, 1, 4, 1), kPopPrev));
  b.Add(Output(4, -128, 127));
  TableInsn t;
  t.count = 4;
  t.table_addr = 100;
  b.Add(With(t, kPushNext));
  b.Add(With(Store(1, 4, 4, 256, 32), kPopPrev));
  OpuCounters counters;
  REQUIRE(b.Run(&counters).ok());
  for (int p = 0; p < 4; ++p)
    CHECK(b.Signed(256 + p * 8, 4) ==
          std::vector<int>{19 - 10 * p, 18 - 10 * p, 17 - 10 * p, 16 - 10 * p});
  CHECK(counters.post_entries == 8);  // Output and Table, four entries each
}

TEST_CASE("a table stage refuses a value its input format has no entry for") {
  std::vector<int> zeros(256, 0);
  Bench b = TableThrough({300, 0, 0, 0}, -32768, 32767, zeros, 0);
  CHECK(b.Run().message() ==
        "instruction 6 (Table): entry 0 lane 0 holds 300, outside the i8 the table reads");
}

}  // namespace
}  // namespace opuc::fsim_test
