// One random differential case of codegen_diff_test.cc: a quantized
// inner-product group (with an optional residual add, compare stage and
// pool) built as a graph, run on the integer reference and, compiled, on
// the functional simulator; every output must agree bit for bit.
#ifndef OPUC_TESTS_CODEGEN_CASE_H
#define OPUC_TESTS_CODEGEN_CASE_H

#include <random>
#include <string>
#include <vector>

#include "opuc/ir/graph.h"
#include "opuc/isa/isa.h"
#include "opuc/opu/hw_config.h"

namespace opuc::codegen_test {

struct Case {
  OpKind op = OpKind::kConv2D;
  // No inner product (the group starts with the stages below; `op` unused),
  // after `pad` zero rows and columns on each side of the input.
  bool identity = false;
  int64_t pad = 0;
  int64_t h = 4, w = 4, ci = 3, co = 2, k = 1, stride = 1, multiplier = 1, dilation = 1;
  // Concat at memory read: the input is a concat of inputs of these
  // channels (summing to ci) along the channels; empty: one input.
  std::vector<int64_t> pieces;
  bool same = true;
  DType in = DType::kI8, out = DType::kI8, after_format = DType::kI8;
  const char* fused = "none";
  const char* after = nullptr;  // a separate relu / relu6 / relu_n1_to_1 / prelu
  int f_in = 4, f_out = 3, f_after = 3;
  // add, sub or mul of a constant with one value per channel (or, with
  // `channel_scalar`, one for all) right after the inner product.
  bool channel = false, channel_scalar = false;
  OpKind channel_op = OpKind::kAdd;
  DType channel_constant = DType::kI8, channel_format = DType::kI8;
  int f_constant = 3, f_channel = 3;
  // A residual add of a second input after the inner product (before `after`).
  bool residual = false;
  DType res_format = DType::kI8, sum_format = DType::kI8;
  int f_res = 3, f_sum = 3;
  int64_t res_channels = 0;  // > 0: fewer than the output's, a zero pad appends the rest
  // A second residual add after `after` (BlazePose's add, relu6, add).
  bool residual2 = false;
  DType res2_format = DType::kI8, sum2_format = DType::kI8;
  int f_res2 = 3, f_sum2 = 3;
  // A pool last (max_pool2d or avg_pool2d of kernel <= stride; with
  // `pool_global` one window over the whole map, or a mean over H and W),
  // with the value before it stored too when `keep_tap`.
  bool pool = false, pool_same = true, keep_tap = false;
  OpKind pool_op = OpKind::kMaxPool2D;
  bool pool_global = false, keep_dims = true;
  int64_t pool_k = 2, pool_s = 2;
  DType pool_format = DType::kI8;
  int f_pool = 3;
  // A nearest 2x upsample last (of the pooled value with a pool); with
  // `keep_tap` the value before it leaves the group too (and the value
  // before a pool does not).
  bool upsample = false;
  DType up_format = DType::kI8;
  int f_up = 3;
  // Let codegen fold the input's taps into lanes where it pays (the host
  // writes x folded: PlanOptions::fold_inputs).
  bool fold = false;
  // Lay activations out with compact pixels (PlanOptions::compact_pixels).
  bool compact = true;
  // PlanOptions::post_slices: 0 lets the tiling search choose.
  int64_t post_slices = 0;
  // PlanOptions::acc_regions: 0 lets the tiling search choose; 4 where the
  // tiles fit a quarter of the accumulator.
  int64_t acc_regions = 0;
  // PlanOptions::store_blocks: 0 lets the tiling search choose; 2 where
  // the output allows.
  int64_t store_blocks = 0;
  // PlanOptions::unit_slots: how deep units may rotate (2: double buffering).
  int64_t unit_slots = 4;
  // PlanOptions::tapered_tiles: 0 lets the tiling search choose; 2 where
  // the tiles allow.
  int64_t tapered_tiles = 0;
  // PlanOptions::fm_slots: 0 lets the tiling search choose; 4 where the
  // windows fit a quarter of the feature-map buffer.
  int64_t fm_slots = 0;
  // PlanOptions::store_depth: 0 lets the tiling search choose; 4 where the
  // tiles fit.
  int64_t store_depth = 0;
  // PlanOptions::whole_i16: an i16 input read whole where the buffer allows.
  bool whole_i16 = true;
};

std::string Describe(const Case& c);

/// A random case (codegen_random_case.cc). `taps`: the HwConfig stores
/// comparator and residual adder results mid-group (store.taps), so a
/// pool's input may leave the group too. `depthwise_only`: a depthwise
/// conv of 3x3 or 5x5, up to 70 channels.
Case RandomCase(std::mt19937& rng, bool depthwise_ok, int64_t max_kernel, bool taps,
                bool depthwise_only = false);

/// The inner product's output shape: SAME gives ceil(n / stride) pixels,
/// VALID (n - k) / stride + 1.
Shape ConvOutShape(const Case& c, int64_t out_c);

/// What a case compiled to: the group's instruction words, whether codegen
/// folded the input into lanes, and how many of its activations have
/// compact pixels whose last block's channels fill whole granules, and how
/// many whose do not.
struct CaseRun {
  std::vector<isa::Word> words;
  bool folded = false;
  int compact_on_granule = 0, compact_off_granule = 0;
  /// Loads in flight (docs/rtl.md): runs of 3 or more loads one after
  /// another in the program, and loads right after one that writes a zero
  /// frame or compact pixels (whose responses may wait for that one).
  int load_chains = 0, after_framed_load = 0;
  /// Whether the step runs its post stages and store in slices.
  bool sliced = false;
  /// Whether its pairs take four accumulator regions in turn, and with a
  /// windowed pool's pooled entries in them.
  bool quartered = false, quartered_pool = false;
  /// Whether its weights stay resident, loaded once by the first unit.
  bool resident = false;
  /// How deep its units rotate (Tiling::slots).
  int64_t slots = 2;
  /// Whether its Stores write several blocks of a pixel (whole-pixel stores).
  bool store_blocks = false;
  /// Whether it runs a transposed convolution as phases.
  bool phased = false;
  /// Whether it runs with packed rows.
  bool packed = false;
  /// Whether it reads its input with packed pixels.
  bool pixels_packed = false;
  /// Whether its depthwise product takes two output pixels an entry over
  /// a doubled input (doubled_maps.h).
  bool paired = false;
  /// Whether its first tile is shorter than the rest (tapered tiles).
  bool tapered = false;
  /// Whether its input windows take four feature-map slots in turn.
  bool fm_quarters = false;
  /// Whether its whole-pixel stores hold four store groups at once.
  bool store_groups_deep = false;
  bool whole_i16 = false;  // an i16 input read whole, a Gemm of operand I16
};

/// Builds the case's graph, runs the reference and the compiled group, and
/// CHECKs that they agree.
CaseRun RunCase(const Case& c, const HwConfig& hw, std::mt19937& rng);

}  // namespace opuc::codegen_test

#endif  // OPUC_TESTS_CODEGEN_CASE_H
