// RandomCase: one random group of codegen_diff_test.cc, drawn so that it
// forms one OPU group the partitioner makes and codegen compiles: the
// stages in the order the datapath runs them, formats and fraction
// lengths the quantizer could give, windows that fit `tiny`.
#include <algorithm>
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

}  // namespace

Case RandomCase(std::mt19937& rng, bool depthwise_ok, int64_t max_kernel, bool taps,
                bool depthwise_only) {
  auto pick = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  Case c;
  const int64_t kind = depthwise_only ? 6 : pick(0, depthwise_ok ? 6 : 5);
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
  if (depthwise_only) {  // the windows of the array's depthwise mode, on and off the lanes
    c.k = pick(0, 1) == 1 ? 5 : 3;
    if (pick(0, 3) == 0) c.ci = pick(21, 70);
  }
  c.stride = pick(1, 2);
  // Dilated taps (the test's HwConfigs allow 2), on kernels small enough
  // that a pixel's window fits tiny.
  const bool dilatable = c.op == OpKind::kConv2D || c.op == OpKind::kDepthwiseConv2D;
  if (!depthwise_only && dilatable && c.k > 1 && c.k <= 3 && pick(0, 2) == 0) c.dilation = 2;
  const int64_t reach = (c.k - 1) * c.dilation + 1;
  c.same = pick(0, 1) == 1 || c.h < reach || c.w < reach;
  c.multiplier = pick(1, 2);
  c.in = Format(rng);
  c.out = Format(rng);
  if (!depthwise_only && pick(0, 5) == 0) {  // a group without an inner product
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

}  // namespace opuc::codegen_test
