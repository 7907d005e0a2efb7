//===- src/codegen/inner_product_group.h - What a group computes -*- C++ -*-===//
//
// The one kind of OPU group codegen compiles so far: an optional concat
// at memory read (input_blocks.h), an optional zero pad (folded into the
// loads), one inner product (conv2d, depthwise_conv2d, transpose_conv2d,
// fully_connected; or, in a group without one, an identity pass) with its
// output stage and fused clamp, then compare
// stages (relu, relu6, relu_n1_to_1, one prelu with a constant per-channel
// alpha, one lookup table), residual adds of i8, u8 or i16 values from DRAM
// (with channels a collected zero pad appends), adds, subs and muls of a
// per-channel constant, each
// reading the previous op, then an optional pool, and last an optional
// nearest 2x upsample (the store writes each pixel as a 2x2 block). Every
// value here is read from the quantized graph as numerics.md defines it.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SRC_CODEGEN_INNER_PRODUCT_GROUP_H
#define OPUC_SRC_CODEGEN_INNER_PRODUCT_GROUP_H

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "opuc/ir/graph.h"
#include "opuc/partition/hw_partition.h"
#include "opuc/status.h"

namespace opuc::codegen {

/// A compare stage: clamp(requant(q, shift), lo, hi).
struct ClampStep {
  int shift = 0;
  int64_t lo = 0, hi = 0;
};

/// The residual add (numerics.md §5): clamp(rhu((acc << acc_shift) +
/// (res << res_shift), out_shift), lo, hi), res read from DRAM. Or, with
/// `constant`, the adder or multiplier stage: add, sub (the constant
/// negated) or, with `multiply`, mul of a per-channel constant, which stays
/// in feature-map rows for the whole group (clamp(rhu((acc · c) <<
/// acc_shift, out_shift), lo, hi) for mul).
struct ResidualStep {
  TensorId tensor = kNoTensor;
  DType format = DType::kI8;  ///< i8, u8 or i16 (two planes: two rows per pixel on chip).
  int acc_shift = 0, res_shift = 0, out_shift = 0;
  int64_t lo = 0, hi = 0;
  int64_t channels = 0;           ///< Of `tensor`; the output's later channels add 0.
  std::vector<int32_t> constant;  ///< One value per output channel, else empty.
  bool multiply = false;
};

/// A stage after the output stage, in order: a compare stage (a clamp,
/// prelu or lookup table), or a residual add.
struct PostStep {
  enum Kind : uint8_t { kClamp, kPRelu, kTable, kResidual } kind = kClamp;
  ClampStep clamp;      ///< kClamp; kPRelu: the shift of q >= 0, lo, hi.
  int neg_shift = 0;    ///< kPRelu: the shift of q · alpha for q < 0.
  size_t residual = 0;  ///< kResidual: which of the group's residuals.
};

/// A pool of the value the other stages leave (numerics.md §5). Max: windows
/// of kh x kw every sy x sx pixels, the first pad_top x pad_left before
/// pixel (0, 0), then clamp(requant(m, clamp.shift), lo, hi) when `requant`
/// (the shift is not 0, or the range narrows). Average (avg_pool2d, mean):
/// the windows' sums, then rhu_div by their taps inside the map with
/// clamp's shift and range. Windows may overlap (spans.h says how tiles
/// share them); a global pool has one window over the whole map, gathered
/// tile by tile.
struct PoolStep {
  TensorId tensor = kNoTensor;  ///< The pooled value, stored to DRAM.
  bool average = false;
  bool global = false;
  int64_t kh = 1, kw = 1, sy = 1, sx = 1, pad_top = 0, pad_left = 0;
  int64_t out_h = 1, out_w = 1;
  bool requant = false;
  ClampStep clamp;
  DType format = DType::kI8;
};

/// One input of a concat at memory read, and its channels.
struct InputPiece {
  TensorId tensor = kNoTensor;
  int64_t channels = 0;
};

struct InnerProductGroup {
  int32_t group = -1;
  NodeId node = -1;  ///< The inner product.
  OpKind op = OpKind::kConv2D;
  std::string what;            ///< "node 3 'conv' (conv2d)", for messages.
  TensorId input = kNoTensor;  ///< Read from DRAM (before a folded pad), unless `pieces`.
  /// Concat at memory read: the concat's inputs, read side by side along
  /// the channels (input_blocks.h); `input` is then the concat's value,
  /// which is never in DRAM.
  std::vector<InputPiece> pieces;
  TensorId output = kNoTensor;  ///< The last op's before a pool.
  bool store_output = true;     ///< False when only a later stage's result leaves.

  // The window, in the coordinates of `input` (a folded pad included). A
  // transposed convolution is a stride-1 one over its zero-inserted input:
  // there in_h, in_w count that map, whose pixel (y·gap_y, x·gap_x) is the
  // input's (y, x) and the rest zero (Load.zeros_y/x), and the kernel is
  // turned by 180 degrees.
  int64_t in_h = 1, in_w = 1, in_c = 1, gap_y = 1, gap_x = 1;
  int64_t out_h = 1, out_w = 1, out_c = 1;
  int64_t kh = 1, kw = 1, sy = 1, sx = 1, dy = 1, dx = 1;
  int64_t pad_top = 0, pad_left = 0;  ///< Zero rows/columns before the input.
  /// A transposed convolution run as phases (phases.h): its stride along
  /// each axis, the output pixels each pixel of the window's grid makes; 1
  /// otherwise.
  int64_t phases_y = 1, phases_x = 1;
  int64_t Phases() const { return phases_y * phases_x; }
  /// A group run with packed rows or packed pixels (packed_rows.h): the
  /// original kernel width, input channels and left padding, the input
  /// pixels a packed input pixel holds, the output pixels a packed output
  /// pixel holds (Co for packed rows; 1 for packed pixels, where output
  /// block k is each packed input pixel's pixel k) and the original output
  /// channels.
  struct PackedRows {
    int64_t kw = 1, in_c = 1, pad_left = 0, in_pack = 1, out_pack = 1, out_c = 1;
  };
  std::optional<PackedRows> packed;
  bool RowsPacked() const { return packed && packed->out_pack > 1; }
  bool PixelsPacked() const { return packed && packed->out_pack == 1; }
  /// A first layer folded with pixel pairs (input_fold.h): output block k
  /// holds channels Co/2·k on of two output pixels, rows Co/2 apart. The
  /// conv's own kernel, channels, stride along x and output width. Or a
  /// depthwise product run as pairs over a doubled map (doubled_maps.h),
  /// whose weights are its own.
  struct PixelPairs {
    int64_t kh = 1, kw = 1, in_c = 1, out_c = 1, sx = 1, out_w = 1, half = 1;
  };
  std::optional<PixelPairs> pairs;
  bool depthwise = false;
  /// No inner product: a depthwise pass with weight 1 (`node` is the first op).
  bool identity = false;
  /// A depthwise product (or the identity pass) run as a dense one, its
  /// weights zero off the diagonal: a concat's input blocks do not line up.
  bool diagonal = false;
  int64_t multiplier = 1;  ///< Depthwise: output channel o reads input o / multiplier.
  /// Depthwise: kernel rows one Gemm takes with its taps as the reduction
  /// axis (depthwise_window.h); 0 on the diagonal mapping, a tap a Gemm.
  int64_t window_rows = 0;

  DType in_format = DType::kI8;
  DType out_format = DType::kI8;  ///< Of `output`.
  /// An i16 input read whole (ReadsI16Whole): its planes row by row on chip
  /// (a pixel's high row, then its low) and each Gemm's operand I16, one
  /// array pass instead of two (docs/codegen.md, "An i16 in one pass"); a
  /// depthwise window's weight rows then hold each tap's weight twice, at
  /// lane 8 ky + kx for the high bytes and 4 further for the low.
  bool i16_whole = false;
  /// Depthwise output pixels in pairs (UsesWindowPairs): each window weight
  /// row holds every tap twice, pixel 2i's at lane 8 ky + kx and 2i + 1's at
  /// L / 2 + 8 ky + kx + 1, so a Gemm over an even row from an even entry
  /// takes two output pixels a cycle (Gemm.init PairsFromBias), and one
  /// that cannot still reads the first half alone (the window's rows past
  /// the kernel's take zero taps).
  bool window_pairs = false;
  /// Window pairs over tiles of even widths only (EvenColumnsFit): a tile
  /// of an odd count of columns computes one more (in the padding past the
  /// map, or the next tile's first), which no stage stores, so that all its
  /// Gemms take pairs and its post passes are dual (docs/codegen.md, "Odd
  /// widths in pairs").
  bool even_columns = false;
  /// Block pairs (UsesBlockPairs): a stride-2 depthwise tile's output
  /// blocks 2k and 2k + 1 in one Gemm, the tree's halves (Gemm.init
  /// PairsFromBias at stride_x 2): block 2k's weight row holds block 2k +
  /// 1's taps L / 2 on, a bias-pair row holds both blocks' biases, and
  /// where a store group keeps the two blocks at one offset of the two
  /// banks (Tiling::FirstOfPair) one Gemm writes both; block 2k + 1's unit
  /// then has no Gemm of its own (docs/codegen.md, "Block pairs").
  bool block_pairs = false;
  /// Pointwise output pixels in pairs (dense_pairs.h): each weight row holds
  /// its lanes below L / 2 again L / 2 on, and every Gemm takes two pixels
  /// an issue (Gemm.init PairsFromBias).
  bool dense_pairs = false;
  /// A chained pair's second group (chained_pairs.h): its input is on chip,
  /// where the first group left it; its tiles load no window.
  bool input_on_chip = false;

  /// weight(o, ky, kx, i): conv2d [O, kh, kw, I]; depthwise [1, kh, kw, O]
  /// (i unused); fully_connected [O, I] (ky = kx = 0); transpose_conv2d
  /// [O, kh, kw, I] read at (kh - 1 - ky, kw - 1 - kx).
  const int8_t* weights = nullptr;
  Shape weight_shape;
  /// Weights a rewrite made (doubled_maps.h), which `weights` then points
  /// into; shared by the group's copies.
  std::shared_ptr<const std::vector<int8_t>> weight_copy;
  int8_t Weight(int64_t o, int64_t ky, int64_t kx, int64_t i) const;

  std::vector<int32_t> bias;    ///< Per output channel (0 when absent).
  std::vector<int32_t> shift;   ///< S[o] = f_in + f_w[o] - f_out.
  int64_t lo = -128, hi = 127;  ///< The output stage's range: format and fused clamp.
  std::vector<PostStep> post;
  std::vector<ResidualStep> residuals;  ///< In the order of their adds.
  std::vector<int8_t> alpha;            ///< A prelu's slope per output channel, else empty.
  /// A lookup table's entries (numerics.md §6: 256, or 257 knots for an i16
  /// input), in its output's format, and the format of the values it reads.
  std::vector<int16_t> table;
  DType table_input = DType::kI8;
  std::optional<PoolStep> pool;
  bool store_pool = true;  ///< With a pool: its result leaves (else only the upsample's).
  /// With an upsample: the doubled map of the last value, which leaves.
  TensorId upsampled = kNoTensor;

  /// The range of `output`: the last post step's, else the output stage's.
  std::pair<int64_t, int64_t> OutputRange() const;
};

/// Reads group `group` of `partition`; Unsupported naming the node and its
/// stage for anything codegen does not compile yet.
Expected<InnerProductGroup> DescribeGroup(const Graph& graph, const HwPartition& partition,
                                          const HwGroup& group);

}  // namespace opuc::codegen

#endif  // OPUC_SRC_CODEGEN_INNER_PRODUCT_GROUP_H
