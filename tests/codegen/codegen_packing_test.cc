// Differential tests of the layers codegen rewrites before tiling
// (docs/codegen.md): transposed convolutions as phases, one-channel heads
// with packed rows and small-channel layers with packed pixels, each drawn
// at random around its conditions, compiled for `tiny` and `opu1024` and
// run on the functional simulator (and the RTL, in opuc_rtl_instruction_tests),
// must equal the integer reference executor bit for bit.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>

#include "codegen_case.h"

namespace opuc::codegen_test {
namespace {

// Packed rows and packed pixels take maps of bytes: every i16 value of `c`
// made i8, its fraction length within i8's (i16 maps stay as they are).
void KeepBytes(Case& c) {
  const auto narrow = [](DType& format, int& f) {
    if (format == DType::kI16) format = DType::kI8;
    f = std::min(f, 7);
  };
  narrow(c.in, c.f_in);
  narrow(c.out, c.f_out);
  narrow(c.after_format, c.f_after);
  narrow(c.channel_format, c.f_channel);
  narrow(c.res_format, c.f_res);
  narrow(c.sum_format, c.f_sum);
  narrow(c.res2_format, c.f_res2);
  narrow(c.sum2_format, c.f_sum2);
}

TEST_CASE("codegen + fsim equal the integer reference on transposed convolutions as phases") {
  // Kernel = stride (2x2/2, 3x3/3), SAME and VALID, then the entrywise
  // stages random groups hold: each tap a 1x1 Gemm into a sub-tile of its
  // own, stored to every s-th pixel (compact maps of one granule in one
  // Store a sub-tile, the rest a Store a row). Out channels past Co take
  // several output blocks.
  HwConfig opu = *HwConfigPreset("opu1024");
  opu.ipa.max_stride = 3;  // the phases are 1x1 Gemms: any stride the loads reach
  const HwConfig configs[] = {opu, *HwConfigPreset("tiny")};
  std::mt19937 rng(49);
  int phased = 0, threes = 0, compact = 0, l_byte = 0, blocks = 0, after = 0;
  for (int i = 0; i < 24; ++i) {
    const HwConfig& hw = configs[i % 2];
    Case c = RandomCase(rng, false, hw.ipa.max_kernel, false);
    c.op = OpKind::kTransposeConv2D;
    c.identity = false;
    c.k = c.stride = i % 3 == 2 && hw.ipa.max_stride >= 3 ? 3 : 2;
    c.dilation = 1;
    c.residual = c.residual2 = c.pool = c.pool_global = c.upsample = c.keep_tap = false;
    c.pieces.clear();
    c.compact = i % 4 != 3;
    const CaseRun ran = RunCase(c, hw, rng);
    phased += ran.phased;
    threes += ran.phased && c.k == 3;
    compact += ran.phased && c.compact;
    l_byte += ran.phased && !c.compact;
    blocks += ran.phased && c.co > hw.array.output_channels;
    after += ran.phased && (c.after || c.channel);
  }
  CHECK(phased == 24);
  CHECK(threes > 0);
  CHECK(compact > 0);
  CHECK(l_byte > 0);
  CHECK(blocks > 0);
  CHECK(after > 0);
}

TEST_CASE("codegen + fsim equal the integer reference on convolutions with packed rows") {
  // A conv2d to one channel from at most Co (SAME, stride 1, kernels 1, 3
  // and 5, widths of 1 and 2 times Co), or a 2x2/2 transposed one as
  // phases, then the compare or table stages random groups hold: its rows'
  // pixels packed L / Co a lane block and Co an output pixel, the output
  // laid out a byte a pixel (PackLayout).
  const HwConfig configs[] = {*HwConfigPreset("opu1024"), *HwConfigPreset("tiny")};
  std::mt19937 rng(50);
  int packed = 0, fives = 0, transposed = 0, after = 0, u8 = 0;
  for (int i = 0; i < 32; ++i) {
    const HwConfig& hw = configs[i % 2];
    const int64_t co = hw.array.output_channels;
    Case c = RandomCase(rng, false, hw.ipa.max_kernel, false);
    const bool phases = i % 4 >= 2;
    c.op = phases ? OpKind::kTransposeConv2D : OpKind::kConv2D;
    c.identity = false;
    c.co = 1;
    c.ci = 1 + static_cast<int64_t>(rng() % static_cast<uint32_t>(co));
    c.w = co * (1 + i % 2);
    c.k = std::min<int64_t>(hw.ipa.max_kernel, i % 3 == 0 ? 1 : i % 3 == 1 ? 3 : 5);
    if (phases) c.k = 2;
    c.stride = phases ? 2 : 1;
    c.dilation = 1;
    c.same = true;
    c.residual = c.residual2 = c.channel = c.pool = c.pool_global = c.upsample = false;
    c.keep_tap = false;
    c.pieces.clear();
    c.compact = true;
    KeepBytes(c);
    const CaseRun ran = RunCase(c, hw, rng);
    packed += ran.packed;
    fives += ran.packed && c.k == 5;
    transposed += ran.packed && ran.phased;
    after += ran.packed && c.after;
    u8 += ran.packed && (c.in == DType::kU8 || c.out == DType::kU8);
  }
  CHECK(packed == 32);
  CHECK(fives > 0);
  CHECK(transposed > 0);
  CHECK(after > 0);
  CHECK(u8 > 0);
}

TEST_CASE("codegen + fsim equal the integer reference on convolutions with packed pixels") {
  // 1x1 convs (or identity passes: groups with no inner product) of at
  // most Co channels to 2 to Co on 32x32 maps, with or
  // without residuals and per-channel constants of at most Co channels,
  // then what random groups hold: the input and residuals read L / Co
  // pixels a unit, output block k each packed pixel's pixel k.
  const HwConfig configs[] = {*HwConfigPreset("opu1024"), *HwConfigPreset("tiny")};
  std::mt19937 rng(51);
  int packed = 0, identity = 0, residual = 0, constant = 0, after = 0;
  for (int i = 0; i < 24; ++i) {
    const HwConfig& hw = configs[i % 2];
    const int64_t co = hw.array.output_channels;
    Case c = RandomCase(rng, false, hw.ipa.max_kernel, false);
    c.op = OpKind::kConv2D;
    c.identity = i % 4 == 3;
    c.pad = 0;
    c.ci = 1 + static_cast<int64_t>(rng() % static_cast<uint32_t>(co));
    c.co = 2 + static_cast<int64_t>(rng() % static_cast<uint32_t>(co - 1));  // 1: packed rows
    if (c.identity) {  // an identity pass adds a residual map (selfie segmentation's adds)
      c.ci = c.co;
      c.residual = true;
    }
    c.h = c.w = 32;
    c.k = c.stride = c.dilation = 1;
    c.same = true;
    c.pool = c.pool_global = c.upsample = c.keep_tap = false;
    c.pieces.clear();
    c.compact = true;
    if (c.res_channels >= c.co) c.res_channels = 0;
    KeepBytes(c);
    const CaseRun ran = RunCase(c, hw, rng);
    packed += ran.pixels_packed;
    identity += ran.pixels_packed && c.identity;
    residual += ran.pixels_packed && c.residual;
    constant += ran.pixels_packed && c.channel;
    after += ran.pixels_packed && c.after;
  }
  CHECK(packed == 24);
  CHECK(identity > 0);
  CHECK(residual > 0);
  CHECK(constant > 0);
  CHECK(after > 0);
}

}  // namespace
}  // namespace opuc::codegen_test
