// Differential tests: random quantized inner-product groups (conv,
// depthwise, transposed conv, fully connected or none; shapes, kernels,
// strides, channel counts on and off the array's width, i8, u8 and i16
// inputs and outputs, with and without an add, sub or mul of a per-channel
// constant, a residual add of i8, u8 or i16, a compare stage (clamps,
// prelu, lookup tables), a pool: max or average, windowed (overlapping,
// padded) or global, or a mean, and a nearest 2x upsample; the input read
// as a concat of pieces at memory read or not), compiled for
// `tiny` and `opu1024` and run on the functional simulator, must equal the
// integer reference executor bit for bit.
#include <doctest/doctest.h>

#include <algorithm>
#include <tuple>
#include <utility>

#include "codegen_case.h"

namespace opuc::codegen_test {
namespace {

DType Format(std::mt19937& rng) {
  const DType formats[] = {DType::kI8, DType::kU8, DType::kI16};
  return formats[std::uniform_int_distribution<int>(0, 2)(rng)];
}

// The format and fraction length of the value the stages so far leave.
std::pair<DType, int> LastValue(const Case& c) {
  if (c.pool) return {c.pool_format, c.f_pool};
  if (c.residual2) return {c.sum2_format, c.f_sum2};
  if (c.after) return {c.after_format, c.f_after};
  if (c.residual) return {c.sum_format, c.f_sum};
  if (c.identity) return {c.in, c.f_in};
  return {c.out, c.f_out};
}

// `taps`: the HwConfig stores comparator and residual adder results
// mid-group (store.taps), so a pool's input may leave the group too.
Case RandomCase(std::mt19937& rng, bool depthwise_ok, int64_t max_kernel, bool taps) {
  auto pick = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  Case c;
  const int64_t kind = pick(0, depthwise_ok ? 6 : 5);
  c.op = kind == 6   ? OpKind::kDepthwiseConv2D
         : kind == 5 ? OpKind::kFullyConnected
         : kind == 4 ? OpKind::kTransposeConv2D
                     : OpKind::kConv2D;
  c.h = pick(1, 20);
  c.w = pick(1, 20);
  c.ci = pick(1, 20);
  c.co = pick(1, 20);
  const int64_t kernels[] = {1, 2, 3, 5, 7};
  c.k = std::min(kernels[pick(0, 4)], max_kernel);
  c.stride = pick(1, 2);
  // Dilated taps (the test's HwConfigs allow 2), on kernels small enough
  // that a pixel's window fits tiny.
  const bool dilatable = c.op == OpKind::kConv2D || c.op == OpKind::kDepthwiseConv2D;
  if (dilatable && c.k > 1 && c.k <= 3 && pick(0, 2) == 0) c.dilation = 2;
  const int64_t reach = (c.k - 1) * c.dilation + 1;
  c.same = pick(0, 1) == 1 || c.h < reach || c.w < reach;
  c.multiplier = pick(1, 2);
  c.in = Format(rng);
  c.out = Format(rng);
  if (pick(0, 5) == 0) {  // a group without an inner product
    c.identity = true;
    c.op = OpKind::kConv2D;  // (unused; not fully connected, so pools may follow)
  }
  const char* acts[] = {"none", "relu", "relu6", "relu_n1_to_1", "prelu", "table"};
  // The partitioner takes inner products without a fused activation
  // (CanonicalizeActivation makes it a node): one compare stage may follow.
  c.f_in = static_cast<int>(pick(0, c.in == DType::kI16 ? 12 : 7));
  c.f_out = static_cast<int>(pick(-2, c.out == DType::kI16 ? 14 : 7));
  if (pick(0, 3) == 0) {  // the adder or multiplier stage: a per-channel constant
    const OpKind ops[] = {OpKind::kAdd, OpKind::kSub, OpKind::kMul};
    c.channel = true;
    c.channel_op = ops[pick(0, 2)];
    c.channel_scalar = pick(0, 3) == 0;
    c.channel_constant = Format(rng);
    c.channel_format = Format(rng);
    c.f_constant = static_cast<int>(pick(-2, 7));
    c.f_channel = static_cast<int>(pick(-2, c.channel_format == DType::kI16 ? 14 : 7));
  }
  if (pick(0, 2) == 0) {
    c.residual = true;
    c.res_format = Format(rng);
    c.sum_format = Format(rng);
    c.f_res = static_cast<int>(pick(-2, c.res_format == DType::kI16 ? 14 : 7));
    c.f_sum = static_cast<int>(pick(-2, c.sum_format == DType::kI16 ? 14 : 7));
    const int64_t out_c = c.identity                         ? c.ci
                          : c.op == OpKind::kDepthwiseConv2D ? c.ci * c.multiplier
                                                             : c.co;
    if (c.op != OpKind::kFullyConnected && out_c > 1 && pick(0, 1) == 1)
      c.res_channels = pick(1, out_c - 1);  // BlazeFace's channel-padded residual
  }
  if (pick(0, 2) == 0) {
    c.after = acts[pick(1, 5)];
    if (c.residual && pick(0, 1) == 1) {  // add, compare, add
      c.residual2 = true;
      c.res2_format = Format(rng);
      c.sum2_format = Format(rng);
      c.f_res2 = static_cast<int>(pick(-2, c.res2_format == DType::kI16 ? 14 : 7));
      c.f_sum2 = static_cast<int>(pick(-2, c.sum2_format == DType::kI16 ? 14 : 7));
    }
    c.after_format = Format(rng);
    c.f_after = static_cast<int>(pick(-2, c.after_format == DType::kI16 ? 14 : 7));
  }
  if (c.op != OpKind::kFullyConnected && pick(0, 2) == 0) {
    // Windows that overlap (k > s) or leave pixels out (k < s); a SAME
    // pool with k >= 3 starts in padding.
    const Shape out = ConvOutShape(c, 1);
    c.pool_s = pick(1, 3);
    c.pool_k = pick(1, c.k >= 5 ? 3 : 4);  // a 7x7 kernel's window of 4x4 pixels does not fit tiny
    const bool fits = out[1] >= c.pool_k && out[2] >= c.pool_k;
    c.pool_same = pick(0, 1) == 1 || !fits;
    c.pool = true;
    c.pool_op = pick(0, 1) == 1 ? OpKind::kAvgPool2D : OpKind::kMaxPool2D;
    if (pick(0, 3) == 0) {  // one window over the whole map: a global pool, or a mean
      c.pool = c.pool_global = true;
      if (c.pool_op == OpKind::kAvgPool2D && pick(0, 1) == 1) c.pool_op = OpKind::kMean;
      c.keep_dims = pick(0, 1) == 1;
    }
    c.keep_tap = taps && (c.after || c.residual) && pick(0, 1) == 1;
    c.pool_format = Format(rng);
    c.f_pool = static_cast<int>(pick(-2, c.pool_format == DType::kI16 ? 14 : 7));
  }
  // Concat at memory read: the input in two or three pieces along the
  // channels, some of whole blocks of 8 (tiny's L), most not.
  if (c.op != OpKind::kFullyConnected && c.op != OpKind::kTransposeConv2D && c.ci >= 2 &&
      pick(0, 3) == 0) {
    int64_t left = c.ci;
    while (left > 0 && c.pieces.size() < 2) {
      const int64_t n = left >= 9 && pick(0, 2) == 0 ? 8 : pick(1, left);
      c.pieces.push_back(n);
      left -= n;
    }
    if (left > 0) c.pieces.push_back(left);
  }
  // An upsample of an NHWC map, last. It mostly keeps its input's format
  // (as the quantizer does); without a pool or a tap it may requantize.
  // What the array or the output stage makes is not a tap (store.taps).
  const bool nhwc =
      c.op != OpKind::kFullyConnected && !(c.pool && c.pool_op == OpKind::kMean && !c.keep_dims);
  if (nhwc && pick(0, 2) == 0) {
    c.upsample = true;
    c.keep_tap = taps && (c.after || c.residual || c.pool) && pick(0, 1) == 1;
    std::tie(c.up_format, c.f_up) = LastValue(c);
    if (!c.pool && !c.keep_tap && pick(0, 3) == 0) {
      c.up_format = Format(rng);
      c.f_up = static_cast<int>(pick(-2, c.up_format == DType::kI16 ? 14 : 7));
    }
  }
  // A pad stage feeds only an inner product or a pool: without the one, a
  // pad comes before a pool (as hand_landmark_lite's max pool group).
  if (c.identity && !c.channel && !c.residual && !c.after && c.pool && c.pool_op != OpKind::kMean)
    c.pad = pick(0, 3);
  if (c.identity && !c.channel && !c.residual && !c.after && !c.pool && !c.upsample)
    c.after = "relu";
  return c;
}

// A preset that also allows dilation 2 (ipa.max_dilation; the RTL does
// not depend on it).
HwConfig Dilating(const char* preset) {
  HwConfig hw = *HwConfigPreset(preset);
  hw.ipa.max_dilation = 2;
  return hw;
}

TEST_CASE("codegen + fsim equal the integer reference on random groups, tiny") {
  const HwConfig hw = Dilating("tiny");
  std::mt19937 rng(20261126);
  // The draw must reach every kind of group, or a passing run proves less.
  int identity = 0, second_residual = 0, average = 0, global = 0, mean = 0, upsample = 0,
      concat = 0, i16_residual = 0, overlapping = 0, padded = 0, transposed = 0, channel_add = 0,
      channel_sub = 0, channel_mul = 0, dilated = 0;
  for (int i = 0; i < 150; ++i) {
    const Case c = RandomCase(rng, false, hw.ipa.max_kernel, false);
    upsample += c.upsample;
    concat += !c.pieces.empty();
    i16_residual += c.residual && c.res_format == DType::kI16;
    identity += c.identity;
    second_residual += c.residual2;
    average += c.pool && c.pool_op == OpKind::kAvgPool2D && !c.pool_global;
    global += c.pool && c.pool_global;
    mean += c.pool && c.pool_op == OpKind::kMean;
    const bool windowed = c.pool && !c.pool_global && c.pool_op != OpKind::kMean;
    overlapping += windowed && c.pool_k > c.pool_s;
    padded += windowed && c.pool_same && c.pool_k >= 3;
    transposed += !c.identity && c.op == OpKind::kTransposeConv2D && c.stride > 1;
    channel_add += c.channel && c.channel_op == OpKind::kAdd;
    dilated += !c.identity && c.dilation > 1;
    channel_sub += c.channel && c.channel_op == OpKind::kSub;
    channel_mul += c.channel && c.channel_op == OpKind::kMul;
    RunCase(c, hw, rng);
  }
  CHECK(identity > 0);
  CHECK(second_residual > 0);
  CHECK(average > 0);
  CHECK(global > 0);
  CHECK(mean > 0);
  CHECK(upsample > 0);
  CHECK(concat > 0);
  CHECK(i16_residual > 0);
  CHECK(overlapping > 0);
  CHECK(padded > 0);
  CHECK(transposed > 0);
  CHECK(channel_add > 0);
  CHECK(channel_sub > 0);
  CHECK(channel_mul > 0);
  CHECK(dilated > 0);
}

TEST_CASE("codegen + fsim equal the integer reference on random groups, opu1024") {
  const HwConfig hw = Dilating("opu1024");
  std::mt19937 rng(7);
  for (int i = 0; i < 80; ++i) RunCase(RandomCase(rng, true, hw.ipa.max_kernel, true), hw, rng);
}

TEST_CASE(
    "wide channels: several input and output blocks, weight chunks, many tiles, pools, a padded "
    "residual") {
  const HwConfig tiny = *HwConfigPreset("tiny");
  std::mt19937 rng(3);
  Case c;
  c.h = c.w = 23;
  c.ci = 37;  // 5 blocks of 8
  c.co = 13;  // 4 blocks of 4
  c.k = 7;    // 49 taps x 5 blocks = 245 weight rows: two chunks of 128
  c.in = DType::kI16;
  c.out = DType::kU8;
  c.after = "relu6";
  c.after_format = DType::kU8;
  RunCase(c, tiny, rng);
  c.k = 3;
  c.pool = true;  // 2x2 SAME windows over an odd 23x23: the last row and column alone
  c.pool_format = DType::kU8;
  RunCase(c, tiny, rng);
  // 3x3 windows every 2 that start in padding: tiles share a row or column
  // of windows, and the average's edges count 4 or 6 taps, not 9; with
  // the pool's input stored too, each tile stores what the next does not.
  c.pool_k = 3;
  c.pool_op = OpKind::kAvgPool2D;
  RunCase(c, tiny, rng);
  c.pool_op = OpKind::kMaxPool2D;
  c.keep_tap = true;
  HwConfig tiny_taps = tiny;  // tiny stores no value mid-group; this one stores the relu6's
  tiny_taps.store.max_outputs = 2;
  tiny_taps.store.taps = ModuleBit(HwModule::kComparator);
  RunCase(c, tiny_taps, rng);
  c.pool_k = 2;
  c.keep_tap = false;
  // A transposed convolution over the zero-inserted input: 23x23 -> 46x46
  // (SAME, stride 2, 3x3, cropped by 0 before), and VALID 7x7 -> 51x51.
  Case up = c;
  up.op = OpKind::kTransposeConv2D;
  up.pool = false;
  up.stride = 2;
  RunCase(up, tiny, rng);
  up.same = false;
  up.k = 7;
  up.in = DType::kI8;
  RunCase(up, tiny, rng);
  // No inner product: an i16 map, padded by 1, then the pool (an identity
  // pass through the array brings it into the accumulator).
  Case pool_only;
  pool_only.identity = true;
  pool_only.h = pool_only.w = 23;
  pool_only.ci = 13;
  pool_only.in = pool_only.pool_format = DType::kI16;
  pool_only.f_in = pool_only.f_pool = 9;
  pool_only.pad = 1;
  pool_only.pool = true;
  RunCase(pool_only, tiny, rng);
  // One window over the whole map, gathered tile by tile in an entry per
  // output block: the conv's global average, and a mean at a finer
  // fraction length without an inner product.
  c.pool_op = OpKind::kAvgPool2D;
  c.pool_global = true;
  RunCase(c, tiny, rng);
  Case mean = pool_only;
  mean.pad = 0;
  mean.in = DType::kI8;
  mean.f_in = 4;
  mean.pool_op = OpKind::kMean;
  mean.pool_global = true;
  mean.f_pool = 11;
  RunCase(mean, tiny, rng);
  c.pool_global = false;
  const HwConfig opu = *HwConfigPreset("opu1024");
  c.ci = 130;
  c.co = 70;
  c.k = 3;
  c.h = c.w = 40;
  c.in = DType::kU8;
  c.out = DType::kI16;
  c.after = nullptr;
  c.pool = false;
  RunCase(c, opu, rng);
  // A residual of 40 channels padded to 70: output blocks of 16 read 16, 16,
  // 8, then no residual lanes at all (no load).
  c.residual = true;
  c.res_channels = 40;
  c.sum_format = DType::kI8;
  RunCase(c, opu, rng);
  // Concat at memory read before a depthwise conv: pieces of whole blocks
  // (64 + 30: it stays depthwise), and not (30 + 64: dense, diagonal).
  Case dw;
  dw.op = OpKind::kDepthwiseConv2D;
  dw.h = dw.w = 12;
  dw.k = 3;
  dw.ci = 94;
  dw.pieces = {64, 30};
  RunCase(dw, opu, rng);
  dw.pieces = {30, 64};
  RunCase(dw, opu, rng);
  // A group that is only the concat (its value leaves): the identity pass
  // over 20 + 20 + 5 channels, dense, as three input blocks.
  Case cat;
  cat.identity = true;
  cat.h = cat.w = 9;
  cat.ci = 45;
  cat.pieces = {20, 20, 5};
  cat.in = DType::kU8;
  RunCase(cat, opu, rng);
}

}  // namespace
}  // namespace opuc::codegen_test
