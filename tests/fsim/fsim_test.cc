// The functional simulator's load engine, array and tokens on hand-built
// streams for `tiny` (L = 8 lanes, Co = 4 output lanes), each result worked
// out by hand (or a numerics.md example), and every illegal thing a program
// can do. The stages after the array: fsim_post_test.cc; the order a program
// may rely on when they run beside it: fsim_order_test.cc.
#include "fsim_bench.h"

namespace opuc::fsim_test {
namespace {

TEST_CASE("a 1x1 convolution of two pixels, bias and per-lane shifts") {
  Bench b;
  b.Bytes(0, {1, 2, 3, 0, 0, 0, 0, 0, -4, 5, -6});  // two pixels, channels 0..2
  b.Bytes(64, {1, 0,  0, 0, 0, 0, 0, 0,             // W[0] = [1, 0, 0]
               1, 1,  1, 0, 0, 0, 0, 0,             // W[1] = [1, 1, 1]
               2, -1, 0, 0, 0, 0, 0, 0,             // W[2] = [2, -1, 0]
               0, 0,  -3});                         // W[3] = [0, 0, -3]
  b.Param(128, 0, 10, 1, 0);
  b.Param(128, 1, 0, 1, 0);
  b.Param(128, 2, -5, 1, 1);
  b.Param(128, 3, 100, 1, 2);
  b.Add(Load(0, 0, 0, 1, 2, 16));
  b.Add(Load(1, 0, 64, 1, 1, 32));
  b.Add(With(Load(2, 0, 128, 1, 1, 32), kPushNext));
  b.Add(With(Gemm(0, 2, 1, 2, 1), kPopPrev));
  b.Add(With(Output(2, -128, 127), kPushNext));
  b.Add(With(Store(1, 2, 2, 256, 16), kPopPrev));
  OpuCounters counters;
  REQUIRE(b.Run(&counters).ok());
  // pixel 0: 1+10 = 11; 6; (2-2-5)/2 = -2.5 -> -2; (-9+100)/4 = 22.75 -> 23
  // pixel 1: -4+10 = 6; -5; (-8-5-5)/2 = -9; (18+100)/4 = 29.5 -> 30
  CHECK(b.Signed(256, 12) == std::vector<int>{11, 6, -2, 23, 0, 0, 0, 0, 6, -5, -9, 30});
  CHECK(counters.instructions == std::array<int64_t, 3>{3, 2, 1});
  CHECK(counters.bytes_loaded == 16 + 32 + 32);
  CHECK(counters.bytes_stored == 8);
  CHECK(counters.gemm_issues == 2);
}

// Compact pixels on tiny (granules of Co = 4 bytes, L = 8 lanes): a 2x3
// map of 4-byte pixels from a byte that is not a beat's first, rows 16
// bytes apart, loaded into rows of 8 lanes (the last 4 zero: weight 100 on
// them would show), passed through W = identity and stored packed again,
// 4 bytes a pixel, by a 3-lane store that leaves each pixel's 4th byte.
TEST_CASE("compact pixels: the load spreads them over the lanes, the store packs them") {
  Bench b;
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c < 3; ++c)
      for (int i = 0; i < 4; ++i)
        b.dram[static_cast<size_t>(4 + r * 16 + c * 4 + i)] =
            static_cast<uint8_t>(i < 3 ? 10 * r + 3 * c + i + 1 : -(3 * r + c + 1));
  for (int j = 0; j < 4; ++j) {
    b.dram[static_cast<size_t>(128 + j * 8 + j)] = 1;        // W[j][j] = 1
    b.dram[static_cast<size_t>(128 + j * 8 + 4 + j)] = 100;  // W[j][4 + j]: lanes past the pixel
  }
  for (int j = 0; j < 4; ++j) b.Param(192, j, 0, 1, 0);
  for (int q = 0; q < 6 * 4 + 1; ++q) b.dram[static_cast<size_t>(256 + q)] = 0x55;
  LoadInsn fm = Load(0, 0, 4, 2, 3, 16);
  fm.granules = 1;
  b.Add(fm);
  b.Add(Load(1, 0, 128, 1, 1, 32));
  b.Add(With(Load(2, 0, 192, 1, 1, 32), kPushNext));
  b.Add(With(Gemm(0, 3, 2, 3, 1), kPopPrev));
  b.Add(With(Output(6, -128, 127), kPushNext));
  StoreInsn packed = Store(2, 3, 3, 256, 12);
  packed.granules = 1;
  packed.lanes = 3;
  b.Add(With(packed, kPopPrev));
  OpuCounters counters;
  REQUIRE(b.Run(&counters).ok());
  for (int p = 0; p < 6; ++p) {
    CAPTURE(p);
    const int r = p / 3, c = p % 3;
    CHECK(b.Signed(256 + p * 4, 4) ==
          std::vector<int>{10 * r + 3 * c + 1, 10 * r + 3 * c + 2, 10 * r + 3 * c + 3, 0x55});
  }
  CHECK(b.dram[256 + 24] == 0x55);                  // nothing past the map
  CHECK(counters.bytes_loaded == 6 * 4 + 32 + 32);  // a compact pixel is 4 bytes in DRAM
  CHECK(counters.bytes_stored == 6 * 3);
}

TEST_CASE("compact pixels: a granules field the layout cannot hold is refused") {
  Bench b;
  LoadInsn fm = Load(0, 0, 0, 1, 1, 8);
  fm.granules = 3;  // 12 bytes: more than L = 8
  b.Add(fm);
  CHECK(b.Run().message().find("granules is 3") != std::string::npos);
  Bench w;
  LoadInsn weights = Load(1, 0, 0, 1, 1, 32);
  weights.granules = 1;
  w.Add(weights);
  CHECK(w.Run().message().find("only the feature map takes compact pixels") != std::string::npos);
}

// 3x3 input 1..9 in lane 0, all-ones 3x3 kernel on output lane 0, the zero
// border written by the load: each output is a neighbourhood sum.
std::vector<int> BoxSums(int stride, int out) {
  Bench b;
  for (int i = 0; i < 9; ++i) b.dram[static_cast<size_t>(i * 8)] = static_cast<uint8_t>(i + 1);
  b.Bytes(128, {1});
  b.Param(192, 0, 0, 1, 0);
  LoadInsn fm = Load(0, 0, 0, 3, 3, 24);
  fm.pad_top = fm.pad_bottom = fm.pad_left = fm.pad_right = 1;
  b.Add(fm);
  b.Add(Load(1, 0, 128, 1, 1, 32));
  b.Add(With(Load(2, 0, 192, 1, 1, 32), kPushNext));
  for (int t = 0; t < 9; ++t) {
    GemmInsn g = Gemm((t / 3) * 5 + t % 3, 5, out, out, t == 0 ? 2 : 0);
    g.stride_y = g.stride_x = stride;
    b.Add(With(g, t == 0 ? kPopPrev : Deps{}));
  }
  b.Add(With(Output(out * out, -128, 127), kPushNext));
  b.Add(With(Store(out, out, out, 512, out * 8), kPopPrev));
  REQUIRE(b.Run().ok());
  std::vector<int> sums;
  for (int i = 0; i < out * out; ++i) sums.push_back(b.Signed(512 + i * 8, 1)[0]);
  return sums;
}

TEST_CASE("a 3x3 convolution over a zero border, stride 1 and 2") {
  CHECK(BoxSums(1, 3) == std::vector<int>{12, 21, 16, 27, 45, 33, 24, 39, 28});
  CHECK(BoxSums(2, 2) == std::vector<int>{12, 16, 24, 28});
}

TEST_CASE("a load that writes a zero row and unit between those it reads") {
  // The 2x2 input [1 2 | 3 4] read with zeros_y = zeros_x = 1 and a border
  // of 1: the 5x5 region [0 0 0 0 0 | 0 1 0 2 0 | 0 0 0 0 0 | 0 3 0 4 0 |
  // 0 0 0 0 0]. Its 3x3 box sums are a transposed convolution's (stride 2,
  // all-ones kernel): 1 3 2 | 4 10 6 | 3 7 4.
  Bench b;
  for (int i = 0; i < 4; ++i) b.dram[static_cast<size_t>(i * 8)] = static_cast<uint8_t>(i + 1);
  b.Bytes(128, {1});
  b.Param(192, 0, 0, 1, 0);
  for (int i = 0; i < 25; ++i) b.Bytes(256 + i * 8, {99});  // what a bad load would leave
  LoadInsn fm = Load(0, 0, 0, 2, 2, 16);
  fm.pad_top = fm.pad_bottom = fm.pad_left = fm.pad_right = 1;
  fm.zeros_y = fm.zeros_x = 1;
  CHECK(LoadedUnits(fm) == 25);      // what a program's buffer use counts: 5 x 5
  b.Add(Load(0, 0, 256, 5, 5, 40));  // the region holds 99s first
  b.Add(fm);
  b.Add(Load(1, 0, 128, 1, 1, 32));
  b.Add(With(Load(2, 0, 192, 1, 1, 32), kPushNext));
  for (int t = 0; t < 9; ++t)
    b.Add(With(Gemm((t / 3) * 5 + t % 3, 5, 3, 3, t == 0 ? 2 : 0), t == 0 ? kPopPrev : Deps{}));
  b.Add(With(Output(9, -128, 127), kPushNext));
  b.Add(With(Store(3, 3, 3, 512, 24), kPopPrev));
  OpuCounters counters;
  REQUIRE(b.Run(&counters).ok());
  std::vector<int> sums;
  for (int i = 0; i < 9; ++i) sums.push_back(b.Signed(512 + i * 8, 1)[0]);
  CHECK(sums == std::vector<int>{1, 3, 2, 4, 10, 6, 3, 7, 4});
  CHECK(counters.bytes_loaded == 25 * 8 + 4 * 8 + 32 + 32);
  LoadInsn weights = Load(1, 0, 128, 1, 1, 32);
  weights.zeros_x = 1;
  Bench bad;
  bad.Add(weights);
  CHECK(bad.Run().message() ==
        "instruction 0 (Load): zeros_y 0 and zeros_x 1 with buffer 1: only the feature map takes "
        "zeros between");
}

TEST_CASE("a diagonal load spreads an L-byte unit over a weight row: row j keeps lanes j, j + Co") {
  // tiny: L = 8, Co = 4. Two beats: [10 20 30 40 1 2 3 -6] and all ones, so
  // W0[j] has w[j] on lane j and w[j + 4] on lane j + 4, zero elsewhere
  // (over a row of 99s loaded first), and W1[j] ones on lanes j and j + 4.
  // A pixel p gives out j = p[j]·w[j] + p[j+4]·w[j+4] + p[j] + p[j+4]:
  // pixel [1..8]: 10+5+6 = 21, 40+12+8 = 60, 90+21+10 = 121, 160-48+12 = 124.
  Bench b;
  b.Bytes(0, {1, 2, 3, 4, 5, 6, 7, 8, -1, -2, -3, -4, -5, -6, -7, -8});
  b.Bytes(64, {10, 20, 30, 40, 1, 2, 3, -6, 1, 1, 1, 1, 1, 1, 1, 1});
  for (int i = 0; i < 64; ++i) b.dram[static_cast<size_t>(384 + i)] = 99;
  for (int j = 0; j < 4; ++j) b.Param(128, j, 0, 1, 0);
  b.Add(Load(0, 0, 0, 1, 2, 16));
  b.Add(Load(1, 0, 384, 1, 2, 64));  // the 99s a row not spread would keep
  LoadInsn diagonal = Load(1, 0, 64, 1, 2, 16);
  diagonal.diagonal = 1;
  b.Add(diagonal);
  b.Add(With(Load(2, 0, 128, 1, 1, 32), kPushNext));
  b.Add(With(Gemm(0, 2, 1, 2, 2), kPopPrev));
  GemmInsn ones = Gemm(0, 2, 1, 2, 0);
  ones.wgt_addr = 1;
  b.Add(ones);
  b.Add(With(Output(2, -128, 127), kPushNext));
  b.Add(With(Store(1, 2, 2, 256, 16), kPopPrev));
  OpuCounters counters;
  REQUIRE(b.Run(&counters).ok());
  CHECK(b.Signed(256, 12) == std::vector<int>{21, 60, 121, 124, 0, 0, 0, 0, -21, -60, -121, -124});
  CHECK(counters.bytes_loaded == 16 + 64 + 16 + 32);  // a diagonal unit is L bytes in DRAM

  for (int64_t buffer : {0, 2}) {
    LoadInsn wrong = Load(buffer, 0, 0, 1, 1, 8);
    wrong.diagonal = 1;
    Bench bad;
    bad.Add(wrong);
    CHECK(bad.Run().message() ==
          "instruction 0 (Load): diagonal with buffer " + std::to_string(buffer) +
              ", 8 lanes and 4 outputs: only weights load diagonally, where the outputs divide "
              "the lanes");
  }
}

TEST_CASE("the upsample stage: a 2x2 tile stored as the 4x4 doubled map") {
  Bench b;
  // Pixel p = (y, x) of the tile holds 10 + p in lane 0 and -(10 + p) in lane 1.
  for (int p = 0; p < 4; ++p) b.Bytes(p * 8, {10 + p, -(10 + p)});
  b.Bytes(64, {1, 0, 0, 0, 0, 0, 0, 0, 0, 1});  // W[0] = [1, 0], W[1] = [0, 1]
  for (int j = 0; j < 4; ++j) b.Param(128, j, 0, 1, 0);
  // Lane 2 of every doubled pixel, which a 2-lane store leaves alone.
  for (int q = 0; q < 16; ++q) b.Bytes(512 + q * 8 + 2, {0x55});
  b.Add(Load(0, 0, 0, 1, 4, 32));
  b.Add(Load(1, 0, 64, 1, 1, 32));
  b.Add(With(Load(2, 0, 128, 1, 1, 32), kPushNext));
  b.Add(With(Gemm(0, 2, 2, 2, 1), kPopPrev));
  b.Add(With(Output(4, -128, 127), kPushNext));
  StoreInsn up = Store(2, 2, 2, 512, 4 * 8);  // rows of the doubled map: 4 pixels
  up.lanes = 2;
  up.upsample = 1;
  b.Add(With(up, kPopPrev));
  OpuCounters counters;
  REQUIRE(b.Run(&counters).ok());
  for (int y = 0; y < 4; ++y) {
    for (int x = 0; x < 4; ++x) {
      CAPTURE(y);
      CAPTURE(x);
      const int source = 10 + (y / 2) * 2 + x / 2;
      CHECK(b.Signed(512 + (y * 4 + x) * 8, 3) == std::vector<int>{source, -source, 0x55});
    }
  }
  CHECK(b.dram[512 + 16 * 8] == 0);  // nothing past the map
  CHECK(counters.bytes_stored == 16 * 2);
}

TEST_CASE("a pair store: an entry's two halves to two pixels, from a half granule") {
  Bench b;
  // Pixel p holds 10 + p, 20 + p, 30 + p, 40 + p in lanes 0-3; the weights
  // are the identity, so entry k holds pixel k's lanes.
  for (int p = 0; p < 3; ++p) b.Bytes(p * 8, {10 + p, 20 + p, 30 + p, 40 + p});
  for (int j = 0; j < 4; ++j) b.Bytes(64 + j * 8 + j, {1});
  for (int j = 0; j < 4; ++j) b.Param(128, j, 0, 1, 0);
  for (int q = 0; q < 5 * 4; ++q) b.Bytes(512 + q, {0x55});  // 5 compact pixels of 4 bytes
  b.Add(Load(0, 0, 0, 1, 3, 24));
  b.Add(Load(1, 0, 64, 1, 1, 32));
  b.Add(With(Load(2, 0, 128, 1, 1, 32), kPushNext));
  b.Add(With(Gemm(0, 3, 1, 3, 1), kPopPrev));
  b.Add(With(Output(3, -128, 127), kPushNext));
  // Channels 2-3 of 5 pixels: entry k's lanes 0-1 go to pixel 2k, lanes
  // 2-3 to pixel 2k + 1; the last entry makes pixel 4 alone.
  StoreInsn pair = Store(1, 5, 3, 512 + 2, 5 * 4);
  pair.lanes = 2;
  pair.pair = 1;
  pair.granules = 1;
  b.Add(With(pair, kPopPrev));
  // The same as pixels of L = 8 bytes, a beat each: the RTL reads each
  // entry twice, once a pixel, where above a pair shares a beat.
  StoreInsn wide = pair;
  wide.granules = 0;
  wide.dram_addr = 640 + 2;
  wide.dram_stride = 5 * 8;
  b.Add(wide);
  OpuCounters counters;
  REQUIRE(b.Run(&counters).ok());
  for (int q = 0; q < 5; ++q) {
    CAPTURE(q);
    const int k = q / 2, first = q % 2 == 0 ? 10 : 30;
    CHECK(b.Signed(512 + 4 * q, 4) == std::vector<int>{0x55, 0x55, first + k, first + 10 + k});
    CHECK(b.Signed(640 + 8 * q, 4) == std::vector<int>{0, 0, first + k, first + 10 + k});
  }
  CHECK(b.dram[512 + 20] == 0);  // nothing past the fifth pixel
  CHECK(counters.bytes_stored == 2 * 5 * 2);

  pair.lanes = 3;  // more than Co / 2
  Bench bad;
  bad.Add(pair);
  CHECK(bad.Run().message() ==
        "instruction 0 (Store): pair with lanes 3: a pair stores at most Co/2 = 2 lanes a pixel "
        "of an even Co, without upsample");
}

TEST_CASE("an i16 input in two passes into an i16 output (numerics.md E31, E32)") {
  Bench b;
  b.Bytes(0, {-49, 117});  // high bytes of -12345, 30000
  b.Bytes(8, {199, 48});   // low bytes
  b.Bytes(64, {3, -7});    // W[0] = [3, -7]
  for (int j = 0; j < 4; ++j) b.Param(128, j, 0, 1, 4);
  b.Add(Load(0, 0, 0, 1, 2, 16));  // row 0: high plane, row 1: low plane
  b.Add(Load(1, 0, 64, 1, 1, 32));
  b.Add(With(Load(2, 0, 128, 1, 1, 32), kPushNext));
  GemmInsn low = Gemm(1, 1, 1, 1, 1);
  low.operand = GemmInsn::kU8;
  b.Add(With(low, kPopPrev));
  GemmInsn high = Gemm(0, 1, 1, 1, 0);
  high.operand = GemmInsn::kHigh;
  b.Add(high);
  b.Add(With(Output(1, -32768, 32767), kPushNext));
  StoreInsn lo_plane = Store(1, 1, 1, 256, 8);
  b.Add(With(lo_plane, kPopPrev));
  StoreInsn hi_plane = Store(1, 1, 1, 264, 8);
  hi_plane.high_byte = 1;
  b.Add(hi_plane);
  REQUIRE(b.Run().ok());
  // acc = -247035; (-247035 + 8) >> 4 = -15440 = 0xC3B0
  CHECK(b.dram[256] == 0xB0);
  CHECK(b.dram[264] == 0xC3);
}

TEST_CASE("an i16 input in one pass over interleaved planes, the frame's zeros spread too") {
  // On opu1024 (a unit: 64 bytes; a weight row 16 x 64; a param row 16 x
  // 8), whose feature-map buffer has two banks: pixels (-12345, 30000) and
  // (1000, -2), high planes at 0, low at 128.
  Bench b;
  b.hw = *HwConfigPreset("opu1024");
  b.dram.assign(16384, 0);
  b.Bytes(0, {-49, 117});
  b.Bytes(64, {3, -1});
  b.Bytes(128, {199, 48});
  b.Bytes(192, {232, 254});
  b.Bytes(1024, {3, -7});  // W[0] = [3, -7]
  for (int j = 0; j < 16; ++j) b.Param(2048, j, 0, 1, 4);
  // A zero pixel before the two: the high plane in rows 0, 2, 4, the low in 1, 3, 5.
  for (int plane : {0, 1}) {
    LoadInsn l = Load(0, plane, 128 * plane, 1, 2, 128);
    l.pad_left = 1;
    l.interleave = 1;
    b.Add(l);
  }
  b.Add(Load(1, 0, 1024, 1, 1, 1024));
  b.Add(With(Load(2, 0, 2048, 1, 1, 128), kPushNext));
  GemmInsn whole = Gemm(0, 6, 1, 3, 1);  // stride_x 1: a pixel, two rows
  whole.operand = GemmInsn::kI16;
  b.Add(With(whole, kPopPrev));
  b.Add(With(Output(3, -32768, 32767), kPushNext));
  b.Add(With(Store(1, 3, 3, 4096, 192), kPopPrev));
  StoreInsn hi_plane = Store(1, 3, 3, 8192, 192);
  hi_plane.high_byte = 1;
  b.Add(hi_plane);
  REQUIRE(b.Run().ok());
  // -12345 * 3 + 30000 * -7 = -247035, (-247035 + 8) >> 4 = -15440 = 0xC3B0;
  // 1000 * 3 + -2 * -7 = 3014, (3014 + 8) >> 4 = 188; the zero pixel 0.
  CHECK(b.dram[4096] == 0);
  CHECK(b.dram[8192] == 0);
  CHECK(b.dram[4160] == 0xB0);
  CHECK(b.dram[8256] == 0xC3);
  CHECK(b.dram[4224] == 188);
  CHECK(b.dram[8320] == 0);
  // tiny's feature-map buffer has one bank: no second row to read.
  Bench one_bank;
  one_bank.Add(whole);
  CHECK(one_bank.Run().message() ==
        "instruction 0 (Gemm): operand is 3 (an i16 in one pass): the feature-map buffer has one "
        "bank, so a read returns no second row");
}

TEST_CASE("the unsigned operand mode reads 200 where the signed one reads -56") {
  for (int mode : {0, 1}) {
    Bench b;
    b.Bytes(0, {200});
    b.Bytes(64, {1});
    b.Param(128, 0, 0, 1, 0);
    b.Add(Load(0, 0, 0, 1, 1, 8));
    b.Add(Load(1, 0, 64, 1, 1, 32));
    b.Add(With(Load(2, 0, 128, 1, 1, 32), kPushNext));
    GemmInsn g = Gemm(0, 1, 1, 1, 1);
    g.operand = mode ? GemmInsn::kU8 : GemmInsn::kI8;
    b.Add(With(g, kPopPrev));
    b.Add(With(Output(1, 0, 255), kPushNext));  // u8 output
    b.Add(With(Store(1, 1, 1, 256, 8), kPopPrev));
    REQUIRE(b.Run().ok());
    CHECK(b.dram[256] == (mode ? 200 : 0));
  }
}

TEST_CASE("without a token the load engine would overwrite what compute has not read") {
  // Two units share feature-map row 0: pixel value 1, then 2. With the
  // compute -> load token the second load waits for the first gemm (1 + 2);
  // without it the result depends on which engine is faster (the
  // simulator's order gave 2 + 2), so the program is refused, both
  // instructions named.
  for (bool token : {true, false}) {
    Bench b;
    b.Bytes(0, {1});
    b.Bytes(8, {2});
    b.Bytes(64, {1});
    b.Param(128, 0, 0, 1, 0);
    b.Add(Load(1, 0, 64, 1, 1, 32));
    b.Add(Load(2, 0, 128, 1, 1, 32));
    b.Add(With(Load(0, 0, 0, 1, 1, 8), kPushNext));
    b.Add(With(Load(0, 0, 8, 1, 1, 8), token ? Deps{false, true, false, true} : kPushNext));
    b.Add(With(Gemm(0, 1, 1, 1, 1), token ? Deps{true, false, true, false} : kPopPrev));
    b.Add(With(Gemm(0, 1, 1, 1, 0), kPopPrev));
    b.Add(With(Output(1, -128, 127), kPushNext));
    b.Add(With(Store(1, 1, 1, 256, 8), kPopPrev));
    if (!token) {
      CHECK(b.Run().message() ==
            "instruction 4 (Gemm) reads feature-map row 0, which instruction 3 (Load) writes, "
            "with no token ordering the two: the result would depend on which engine runs first");
      continue;
    }
    REQUIRE(b.Run().ok());
    CHECK(b.dram[256] == 3);
  }
}

TEST_CASE("illegal programs stop with the instruction, its name and the field") {
  SUBCASE("a buffer address past the end") {
    Bench b;
    b.Add(Load(0, 1020, 0, 1, 8, 64));  // tiny: 2 x 4096 / 8 = 1024 feature-map rows
    CHECK(b.Run().message() ==
          "instruction 0 (Load): sram_addr reaches feature-map row 1027; there are 1024");
  }
  SUBCASE("DRAM past the end") {
    Bench b;
    b.Add(Load(1, 0, 1000, 1, 1, 32));
    CHECK(b.Run().message() ==
          "instruction 0 (Load): dram_addr reaches DRAM byte 1031; there are 1024");
  }
  SUBCASE("a gemm reading outside the feature map") {
    Bench b;
    b.Add(Gemm(1000, 100, 2, 2, 2));
    CHECK(b.Run().message() ==
          "instruction 0 (Gemm): fm_addr reaches feature-map row 1101; there are 1024");
  }
  SUBCASE("too many store lanes") {
    Bench b;
    StoreInsn s = Store(1, 1, 1, 0, 8);
    s.lanes = 5;
    b.Add(s);
    CHECK(b.Run().message() == "instruction 0 (Store): lanes is 5; it is 1 to 4");
  }
  SUBCASE("a token never given") {
    Bench b;
    b.Add(Load(0, 0, 0, 1, 1, 8));
    b.Add(With(Gemm(0, 1, 1, 1, 2), kPopPrev));
    CHECK(b.Run().message() ==
          "deadlock: compute waits at instruction 1 (Gemm) for a token from load");
  }
  SUBCASE("a token never taken") {
    Bench b;
    b.Add(With(Load(0, 0, 0, 1, 1, 8), kPushNext));
    CHECK(b.Run().message() == "the program ends with 1 token(s) from load to compute never taken");
  }
  SUBCASE("the load engine has no previous engine") {
    Bench b;
    b.Add(With(Load(0, 0, 0, 1, 1, 8), kPopPrev));
    CHECK(b.Run().message() ==
          "instruction 0 (Load): the load engine has no previous engine (pop_prev, push_prev)");
  }
  SUBCASE("an undecodable word") {
    Bench b;
    b.program.push_back(Word{});
    CHECK(b.Run().message() == "instruction 0: opcode 0 is not an instruction");
  }
  SUBCASE("a depthwise lane or a residual lane between half granules") {
    // tiny: Co = 4, so lanes step by 2.
    Bench b;
    GemmInsn g = Gemm(0, 1, 1, 1, 2);
    g.depthwise = true;
    g.lane = 1;
    b.Add(g);
    CHECK(b.Run().message() ==
          "instruction 0 (Gemm): lane is 1; it is a multiple of Co / 2 = 2 (the array's rows take "
          "their channels half a granule at a time)");
    Bench r;
    ResAddInsn add;
    add.count = 1;
    add.res_lane = 3;
    add.res_lanes = 2;
    r.Add(add);
    CHECK(r.Run().message() ==
          "instruction 0 (ResAdd): res_lane is 3; it is a multiple of Co / 2 = 2 (the post stages "
          "take the residual half a granule at a time)");
  }
  SUBCASE("dense output pixels in pairs over one pixel, and on tiny's one bank") {
    Bench b;
    b.Add(Gemm(0, 1, 1, 1, 3));
    CHECK(b.Run().message() ==
          "instruction 0 (Gemm): init is 3 (output pixels in pairs): out_cols 1 and acc_addr 0 "
          "must be even");
    Bench two;
    two.Add(Gemm(0, 2, 1, 2, 3));
    CHECK(two.Run().message() ==
          "instruction 0 (Gemm): init is 3 (output pixels in pairs): the feature-map buffer has "
          "one bank, so a read returns no second row");
  }
}

}  // namespace
}  // namespace opuc::fsim_test
