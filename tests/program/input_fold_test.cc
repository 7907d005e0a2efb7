// The folded input layout (opuc/program/input_fold.h) by hand: which input
// element each lane of a folded pixel holds, the zeros of the padding, the
// i16 planes and a u8 above 127, reading back (a pixel no window reads
// comes back 0), and the checks of a fold read from a program. Compact,
// packed and doubled pixels' bytes by hand too.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>
#include <numeric>

#include "opuc/program/activation_layout.h"

namespace opuc {
namespace {

/// A [1, h, w, c] layout of L = 8 lanes at address 64.
ActivationLayout Lanes8Layout(int64_t h, int64_t w, int64_t c, DType format) {
  ActivationLayout l;
  l.address = 64;
  l.height = h;
  l.width = w;
  l.channels = c;
  l.lanes = 8;
  l.format = format;
  return l;
}

InputFold SquareFold(int64_t k, int64_t stride, int64_t pad, int64_t out) {
  InputFold f;
  f.kernel_h = f.kernel_w = k;
  f.stride_h = f.stride_w = stride;
  f.pad_top = f.pad_left = pad;
  f.out_h = f.out_w = out;
  return f;
}

/// value(y, x, c) = 10·y + 3·x + c: every element of a 3x3x2 map differs.
HostTensor RampMap(DType format, int64_t h, int64_t w, int64_t c) {
  HostTensor t = HostTensor::Zeros(format, {1, h, w, c}).value();
  for (int64_t y = 0; y < h; ++y)
    for (int64_t x = 0; x < w; ++x)
      for (int64_t k = 0; k < c; ++k) {
        const int64_t i = (y * w + x) * c + k, v = 10 * y + 3 * x + k;
        if (format == DType::kI16)
          t.data<int16_t>()[i] = static_cast<int16_t>(v * 300 - 4000);  // both bytes matter
        else if (format == DType::kU8)
          t.data<uint8_t>()[i] = static_cast<uint8_t>(v + 200);
        else
          t.data<int8_t>()[i] = static_cast<int8_t>(v);
      }
  return t;
}

TEST_CASE("input fold: a VALID 2x2 window's taps x channels fill one pixel's lanes") {
  ActivationLayout l = Lanes8Layout(3, 3, 2, DType::kI8);
  REQUIRE(FoldLayout(l, SquareFold(2, 1, 0, 2)).ok());
  CHECK(l.height == 2);
  CHECK(l.width == 2);
  CHECK(l.channels == 8);  // 4 taps x 2 channels: one block of 8 lanes
  CHECK(l.bytes() == 2 * 2 * 8);
  CHECK(l.elements() == 18);
  std::vector<uint8_t> dram(64 + 32, 0xEE);
  REQUIRE(WriteActivation(l, RampMap(DType::kI8, 3, 3, 2), dram).ok());
  // Folded pixel (1, 0): taps (1,0) (1,1) (2,0) (2,1), each channels 0, 1.
  const std::vector<uint8_t> pixel_1_0(dram.begin() + 64 + 16, dram.begin() + 64 + 24);
  CHECK(pixel_1_0 == std::vector<uint8_t>{10, 11, 13, 14, 20, 21, 23, 24});
  // Folded pixel (0, 1): taps (0,1) (0,2) (1,1) (1,2).
  const std::vector<uint8_t> pixel_0_1(dram.begin() + 64 + 8, dram.begin() + 64 + 16);
  CHECK(pixel_0_1 == std::vector<uint8_t>{3, 4, 6, 7, 13, 14, 16, 17});
  CHECK(dram[63] == 0xEE);  // nothing outside the region
}

TEST_CASE("input fold: SAME padding and a stride of 2 write 0 for taps outside the input") {
  // 3x3x1, 3x3 kernel every 2, one row and column of padding: 2x2 pixels of
  // 9 taps, two blocks of 8 lanes (the second holds tap 8 and 7 zero lanes).
  ActivationLayout l = Lanes8Layout(3, 3, 1, DType::kI8);
  REQUIRE(FoldLayout(l, SquareFold(3, 2, 1, 2)).ok());
  CHECK(l.channels == 9);
  CHECK(l.blocks() == 2);
  std::vector<uint8_t> dram(static_cast<size_t>(64 + l.bytes()), 0xEE);
  REQUIRE(WriteActivation(l, RampMap(DType::kI8, 3, 3, 1), dram).ok());
  // Pixel (0, 0): rows -1..1, columns -1..1 -> 0 0 0 / 0 v(0,0) v(0,1) / 0 v(1,0) v(1,1).
  const std::vector<uint8_t> first(dram.begin() + 64, dram.begin() + 72);
  CHECK(first == std::vector<uint8_t>{0, 0, 0, 0, 0, 3, 0, 10});
  CHECK(dram[static_cast<size_t>(l.PixelAddress(0, 1, 0, 0))] == 13);  // tap 8: v(1, 1)
  // Pixel (1, 1): rows 1..3, columns 1..3; tap 8 is (3, 3), outside.
  CHECK(dram[static_cast<size_t>(l.PixelAddress(0, 0, 1, 1))] == 13);      // tap 0: v(1, 1)
  CHECK(dram[static_cast<size_t>(l.PixelAddress(0, 0, 1, 1) + 4)] == 26);  // tap 4: v(2, 2)
  CHECK(dram[static_cast<size_t>(l.PixelAddress(0, 1, 1, 1))] == 0);       // tap 8: (3, 3)
}

/// A VALID 2x2 fold every 2 columns of an h x w x 1 ramp (L = 8) with pixel
/// pairs, out_h x out_w output pixels: its layout, and the DRAM bytes of
/// folded pixel `pixel` (8 lanes: 2 rows x 4 columns of taps).
struct PairFold {
  ActivationLayout layout;
  std::vector<uint8_t> pixel;
};
PairFold FoldPairs(int64_t h, int64_t w, int64_t out_h, int64_t out_w, int64_t pixel) {
  PairFold p{Lanes8Layout(h, w, 1, DType::kI8), {}};
  InputFold f = SquareFold(2, 2, 0, out_h);
  f.out_w = out_w;
  f.pixels = 2;
  REQUIRE(FoldLayout(p.layout, f).ok());
  std::vector<uint8_t> dram(static_cast<size_t>(64 + p.layout.bytes()), 0xEE);
  REQUIRE(WriteActivation(p.layout, RampMap(DType::kI8, h, w, 1), dram).ok());
  const auto first = static_cast<std::ptrdiff_t>(64 + 8 * pixel);
  p.pixel.assign(dram.begin() + first, dram.begin() + first + 8);
  return p;
}

TEST_CASE("input fold: pixel pairs hold two output pixels' windows, a last pair of one") {
  // 3x5x1, a 2x2 kernel every 2 columns (stride 2, VALID): output pixels
  // (y, 0) and (y, 1) read columns 0-1 and 2-3; a pair's window spans
  // kernel_w + stride_w = 4 columns, 2 x 4 = 8 taps: one block of 8 lanes.
  // Folded pixel (1, 0): rows 2..3 (row 3 outside: 0), columns 0..3.
  const PairFold two = FoldPairs(3, 5, 2, 2, 1);
  CHECK(two.layout.height == 2);
  CHECK(two.layout.width == 1);
  CHECK(two.layout.channels == 8);
  CHECK(two.pixel == std::vector<uint8_t>{20, 23, 26, 29, 0, 0, 0, 0});
  // Odd output width 3 (VALID, 7 columns): the last folded pixel's second
  // window starts at column 6 and reads columns 6 and 7, one inside and
  // one outside.
  const PairFold odd = FoldPairs(2, 7, 1, 3, 1);
  CHECK(odd.layout.width == 2);
  CHECK(odd.pixel == std::vector<uint8_t>{12, 15, 18, 0, 22, 25, 28, 0});
  InputFold f = SquareFold(2, 2, 0, 2);
  f.pixels = 3;
  ActivationLayout again = Lanes8Layout(3, 5, 1, DType::kI8);
  CHECK(FoldLayout(again, f).message() == "fold.pixels is 3; expected 1 to 2");
}

TEST_CASE("input fold: i16 planes and u8 values, read back, and a pixel no window reads is 0") {
  for (DType format : {DType::kI16, DType::kU8, DType::kI8}) {
    CAPTURE(DTypeName(format));
    // 4x4x2, 2x2 kernel every 3 (VALID): one output pixel reads rows and
    // columns 0-1; the rest of the map is never read.
    ActivationLayout l = Lanes8Layout(4, 4, 2, format);
    REQUIRE(FoldLayout(l, SquareFold(2, 3, 0, 1)).ok());
    std::vector<uint8_t> dram(static_cast<size_t>(64 + l.bytes()), 0);
    const HostTensor in = RampMap(format, 4, 4, 2);
    REQUIRE(WriteActivation(l, in, dram).ok());
    if (format == DType::kI16) {        // element (0, 1, 1) = 4·300 − 4000 = −2800 = 0xF510
      CHECK(dram[64 + 3] == 0xF5);      // high byte plane, lane 3
      CHECK(dram[64 + 8 + 3] == 0x10);  // low byte plane
    }
    if (format == DType::kU8) CHECK(dram[64 + 7] == 214);  // element (1, 1, 1) = 14 + 200
    Expected<HostTensor> back = ReadActivation(l, {1, 4, 4, 2}, dram);
    REQUIRE(back.ok());
    for (int64_t i = 0; i < 32; ++i) {
      const int64_t y = i / 8, x = i / 2 % 4;
      CAPTURE(i);
      const bool read = y < 2 && x < 2;
      if (format == DType::kI16)
        CHECK(back->data<int16_t>()[i] == (read ? in.data<int16_t>()[i] : 0));
      else if (format == DType::kU8)
        CHECK(back->data<uint8_t>()[i] == (read ? in.data<uint8_t>()[i] : 0));
      else
        CHECK(back->data<int8_t>()[i] == (read ? in.data<int8_t>()[i] : 0));
    }
  }
}

TEST_CASE("input fold: a fold read from a program is checked, naming the field") {
  const auto error = [](InputFold f) {
    ActivationLayout l = Lanes8Layout(8, 8, 3, DType::kI8);
    const Status s = FoldLayout(l, f);
    return s.ok() ? std::string("(fine)") : s.message();
  };
  CHECK(error(SquareFold(3, 1, 1, 8)) == "(fine)");
  InputFold f = SquareFold(3, 1, 1, 6);
  f.out_h = 8;
  CHECK(error(f) == "(fine)");
  f.stride_h = 0;
  CHECK(error(f) == "fold.stride_h is 0; expected 1 to 64");
  CHECK(error(SquareFold(0, 1, 0, 4)) == "fold.kernel_h is 0; expected 1 to 64");
  CHECK(error(SquareFold(3, 1, 3, 4)) == "fold.pad_top is 3; expected 0 to 2");
  CHECK(error(SquareFold(3, 1, 1, 10)) == "fold.out_h is 10; expected 1 to 9");
  // Every 2 rows from row -1: the 5th window starts at row 7, a 6th at 9.
  f = SquareFold(3, 2, 1, 5);
  CHECK(error(f) == "(fine)");
  f.out_h = 6;
  CHECK(error(f) == "fold.out_h is 6: its last window starts at 9, past the input's 8 pixels");
  f.out_h = 0;
  CHECK(error(f) == "fold.out_h is 0; expected 1 to 9");
  f = SquareFold(64, 1, 0, 1);
  f.kernel_w = 64;
  CHECK(error(f) == "(fine)");  // 4096 taps x 3
}

// 10 channels on L = 8 lanes in granules of 4 bytes: block 0's pixels take
// 8 bytes, block 1's (2 channels) 4; each i16 plane is (8 + 4) x 2 = 24
// bytes, the high bytes' first.
TEST_CASE("compact pixels: the last block's pixels take whole granules, by hand") {
  ActivationLayout l = Lanes8Layout(1, 2, 10, DType::kI16);
  CompactPixels(l, 4);
  CHECK(l.granule == 4);
  CHECK(l.PixelBytes(0) == 8);
  CHECK(l.PixelBytes(1) == 4);
  CHECK(l.Granules(1) == 1);
  CHECK(l.bytes() == 48);
  const HostTensor value = RampMap(DType::kI16, 1, 2, 10);
  std::vector<uint8_t> dram(64 + 48 + 8, 0xEE);
  REQUIRE(WriteActivation(l, value, dram).ok());
  for (int64_t x = 0; x < 2; ++x)
    for (int64_t k = 0; k < 10; ++k) {
      CAPTURE(x);
      CAPTURE(k);
      const int64_t v = (3 * x + k) * 300 - 4000;
      const int64_t at = k < 8 ? 64 + x * 8 + k : 64 + 16 + x * 4 + (k - 8);
      CHECK(dram[static_cast<size_t>(at)] == static_cast<uint8_t>((v >> 8) & 255));  // high
      CHECK(dram[static_cast<size_t>(at + 24)] == static_cast<uint8_t>(v & 255));    // low
    }
  CHECK(dram[64 + 16 + 2] == 0xEE);  // lanes 2 and 3 of block 1: not channels
  CHECK(dram[64 + 16 + 3] == 0xEE);
  CHECK(dram[64 + 48] == 0xEE);  // nothing past the region
  Expected<HostTensor> back = ReadActivation(l, {1, 1, 2, 10}, dram);
  REQUIRE(back.ok());
  CHECK(std::equal(back->data<int16_t>(), back->data<int16_t>() + 20, value.data<int16_t>()));
}

TEST_CASE("compact pixels: only where they save bytes and fit three granules") {
  ActivationLayout full = Lanes8Layout(2, 2, 7, DType::kI8);  // 7 channels: 8 bytes anyway
  CompactPixels(full, 4);
  CHECK(full.granule == 0);
  ActivationLayout wide = Lanes8Layout(2, 2, 40, DType::kI8);
  wide.lanes = 64;
  CompactPixels(wide, 16);  // 40 channels: 48 bytes, 3 granules
  CHECK(wide.PixelBytes(0) == 48);
  CHECK(wide.bytes() == 2 * 2 * 48);
  ActivationLayout fine = Lanes8Layout(2, 2, 40, DType::kI8);
  fine.lanes = 64;
  CompactPixels(fine, 8);  // 5 granules of 8: more than a Load moves
  CHECK(fine.granule == 0);
  CHECK(fine.PixelBytes(0) == 64);
}

TEST_CASE("doubled maps: each pixel's channels again in its granule's upper half, by hand") {
  // 2 x 3 pixels of 2 i8 channels, L = 8, granule 4: pixel (y, x) is the
  // 4 bytes from 4 (3 y + x), channel c in bytes c and 2 + c.
  ActivationLayout l = Lanes8Layout(2, 3, 2, DType::kI8);
  l.tensor = 7;
  CompactPixels(l, 4);
  REQUIRE(DoubleLayout(l).ok());
  CHECK(l.bytes() == 24);
  const HostTensor value = RampMap(DType::kI8, 2, 3, 2);
  std::vector<uint8_t> dram(64 + 24 + 8, 0xEE);
  REQUIRE(WriteActivation(l, value, dram).ok());
  for (int64_t y = 0; y < 2; ++y)
    for (int64_t x = 0; x < 3; ++x) {
      CAPTURE(y);
      CAPTURE(x);
      const size_t at = static_cast<size_t>(64 + 4 * (3 * y + x));
      const auto v = static_cast<uint8_t>(10 * y + 3 * x);
      CHECK(std::vector<uint8_t>(dram.begin() + static_cast<std::ptrdiff_t>(at),
                                 dram.begin() + static_cast<std::ptrdiff_t>(at) + 4) ==
            std::vector<uint8_t>{v, static_cast<uint8_t>(v + 1), v, static_cast<uint8_t>(v + 1)});
    }
  CHECK(dram[64 + 24] == 0xEE);  // nothing past the region
  Expected<HostTensor> back = ReadActivation(l, {1, 2, 3, 2}, dram);
  REQUIRE(back.ok());
  CHECK(std::equal(back->data<int8_t>(), back->data<int8_t>() + 12, value.data<int8_t>()));
  // Refused, naming the tensor: a second time, three channels in a granule
  // of 4, L-byte pixels, an i16 map.
  CHECK(DoubleLayout(l).message().find("tensor 7 (2x3x2) cannot store its channels twice") == 0);
  ActivationLayout three = Lanes8Layout(2, 3, 3, DType::kI8);
  CompactPixels(three, 4);
  CHECK_FALSE(DoubleLayout(three).ok());
  ActivationLayout lbyte = Lanes8Layout(2, 3, 2, DType::kI8);
  CHECK_FALSE(DoubleLayout(lbyte).ok());
  ActivationLayout wide = Lanes8Layout(2, 3, 2, DType::kI16);
  CompactPixels(wide, 4);
  CHECK_FALSE(DoubleLayout(wide).ok());
}

TEST_CASE("packed rows: a map of one channel, 4 pixels a pixel, is its bytes a pixel each") {
  // 2 x 8 pixels of one u8 channel, L = 8, granule 4: packed 4 pixels a
  // pixel of 4 channels (one granule), so pixel (y, x) is byte 8 y + x.
  ActivationLayout l = Lanes8Layout(2, 8, 1, DType::kU8);
  CompactPixels(l, 4);
  REQUIRE(PackLayout(l, 4).ok());
  CHECK(l.width == 2);
  CHECK(l.channels == 4);
  CHECK(l.PixelBytes(0) == 4);
  CHECK(l.bytes() == 16);
  const HostTensor value = RampMap(DType::kU8, 2, 8, 1);
  std::vector<uint8_t> dram(64 + 16 + 8, 0xEE);
  REQUIRE(WriteActivation(l, value, dram).ok());
  for (int64_t y = 0; y < 2; ++y)
    for (int64_t x = 0; x < 8; ++x) {
      CAPTURE(y);
      CAPTURE(x);
      CHECK(dram[static_cast<size_t>(64 + 8 * y + x)] == 10 * y + 3 * x + 200);
    }
  CHECK(dram[64 + 16] == 0xEE);  // nothing past the region
  Expected<HostTensor> back = ReadActivation(l, {1, 2, 8, 1}, dram);
  REQUIRE(back.ok());
  CHECK(std::equal(back->data<uint8_t>(), back->data<uint8_t>() + 16, value.data<uint8_t>()));
  SUBCASE("refused: several channels, a width not a multiple, a pack past L") {
    ActivationLayout two = Lanes8Layout(2, 8, 2, DType::kU8);
    CHECK(PackLayout(two, 4).message().find("that takes one channel") != std::string::npos);
    ActivationLayout odd = Lanes8Layout(2, 6, 1, DType::kU8);
    CHECK_FALSE(PackLayout(odd, 4).ok());
    ActivationLayout wide = Lanes8Layout(2, 16, 1, DType::kU8);
    CHECK_FALSE(PackLayout(wide, 16).ok());
  }
}

}  // namespace
}  // namespace opuc
