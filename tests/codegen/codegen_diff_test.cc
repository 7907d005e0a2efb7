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
#include <variant>

#include "codegen_case.h"
#include "opuc/opu/buffer_units.h"

namespace opuc::codegen_test {
namespace {

// A preset that also allows dilation 2 (ipa.max_dilation; the RTL does
// not depend on it).
HwConfig Dilating(const char* preset) {
  HwConfig hw = *HwConfigPreset(preset);
  hw.ipa.max_dilation = 2;
  return hw;
}

// How many runs folded the input, laid out compact pixels on and off the
// granule, ran chains of loads in flight, post stages in slices, four
// accumulator regions (with a windowed pool's pooled entries too), resident
// weights, whole-pixel stores (of a pooled tile too), units three and four
// deep, tapered tiles and windows four deep (with a residual kept per
// window, and with nothing loaded after a window) and store groups four
// deep: a draw that reaches none of them proves nothing of them.
struct LayoutDraws {
  int folded = 0, on_granule = 0, off_granule = 0, load_chains = 0, after_framed_load = 0,
      sliced = 0, quartered = 0, quartered_pool = 0, resident = 0, store_blocks = 0, three_deep = 0,
      four_deep = 0, tapered = 0, fm_quarters = 0, fm_quarters_residual = 0, window_alone = 0,
      store_groups_deep = 0, pooled_store_blocks = 0;
  void Add(const CaseRun& ran, const Case& c) {
    store_groups_deep += ran.store_groups_deep;
    tapered += ran.tapered;
    fm_quarters += ran.fm_quarters;
    fm_quarters_residual += ran.fm_quarters && c.residual;
    window_alone += ran.fm_quarters && ran.resident && !c.residual;
    quartered_pool += ran.quartered_pool;
    three_deep += ran.slots == 3;
    four_deep += ran.slots == 4;
    store_blocks += ran.store_blocks;
    pooled_store_blocks += ran.store_blocks && c.pool;  // the pooled tile's Stores too
    sliced += ran.sliced;
    resident += ran.resident;
    quartered += ran.quartered;
    folded += ran.folded;
    on_granule += ran.compact_on_granule;
    off_granule += ran.compact_off_granule;
    load_chains += ran.load_chains;
    after_framed_load += ran.after_framed_load;
  }
  void Check() const {
    CHECK(folded > 0);
    CHECK(on_granule > 0);
    CHECK(off_granule > 0);
    CHECK(load_chains > 0);
    CHECK(after_framed_load > 0);
    CHECK(sliced > 0);
    CHECK(quartered > 0);
    CHECK(quartered_pool > 0);
    CHECK(resident > 0);
    CHECK(store_blocks > 0);
    CHECK(three_deep > 0);
    CHECK(four_deep > 0);
    CHECK(tapered > 0);
    CHECK(fm_quarters > 0);
    CHECK(fm_quarters_residual > 0);
    CHECK(window_alone > 0);
    CHECK(store_groups_deep > 0);
  }
};

TEST_CASE("codegen + fsim equal the integer reference on random groups, tiny") {
  const HwConfig hw = Dilating("tiny");
  std::mt19937 rng(20261126);
  // The draw must reach every kind of group, or a passing run proves less.
  int identity = 0, second_residual = 0, average = 0, global = 0, mean = 0, upsample = 0,
      concat = 0, i16_residual = 0, overlapping = 0, padded = 0, transposed = 0, channel_add = 0,
      channel_sub = 0, channel_mul = 0, dilated = 0;
  LayoutDraws layouts;
  for (int i = 0; i < 150; ++i) {
    Case c = RandomCase(rng, false, hw.ipa.max_kernel, false);
    c.fold = i % 2 == 1;     // not drawn: the draws stay those of the cases before folding
    c.compact = i % 3 != 2;  // L-byte pixels in a third
    c.post_slices = i % 4;   // the search's choice, or 1, 2 or 3 slices
    c.acc_regions = i % 5 == 1 ? 4 : i % 5 == 2 ? 2 : 0;  // else the search's
    c.store_blocks = i % 3 == 1 ? 2 : 0;                  // else the search's
    c.unit_slots = i % 7 == 3 ? 2 : 4;                    // else the most that fit
    c.tapered_tiles = i % 6 == 4 ? 2 : 0;                 // else the search's
    c.fm_slots = i % 4 == 3 ? 4 : 0;                      // else the search's
    c.store_depth = i % 5 == 4 ? 4 : 0;                   // else the search's
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
    layouts.Add(RunCase(c, hw, rng), c);
  }
  layouts.Check();
  CHECK(layouts.pooled_store_blocks > 0);  // opu1024's: tests/sim/rtl_pooled_stores_test.cc
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
  LayoutDraws layouts;
  int whole_i16 = 0, two_passes_i16 = 0;  // i16 inputs read whole, and in two passes
  int dense_pairs = 0;                    // 1x1 products two output pixels an issue
  for (int i = 0; i < 80; ++i) {
    Case c = RandomCase(rng, true, hw.ipa.max_kernel, true);
    c.fold = i % 2 == 1;
    c.compact = i % 3 != 2;
    c.post_slices = i % 4;
    c.acc_regions = i % 5 == 1 ? 4 : i % 5 == 2 ? 2 : 0;
    c.store_blocks = i % 3 == 1 ? 2 : 0;
    c.unit_slots = i % 7 == 3 ? 2 : i % 7 == 5 ? 3 : 4;
    c.tapered_tiles = i % 6 == 4 ? 2 : 0;
    c.fm_slots = i % 4 == 3 ? 4 : 0;
    c.store_depth = i % 5 == 4 ? 4 : 0;
    c.whole_i16 = i % 8 != 6;
    const CaseRun ran = RunCase(c, hw, rng);
    layouts.Add(ran, c);
    whole_i16 += ran.whole_i16;
    two_passes_i16 += c.in == DType::kI16 && !ran.whole_i16;
    for (const isa::Word& word : ran.words)
      if (Expected<isa::Instruction> insn = isa::Decode(word); insn.ok())
        if (const auto* gemm = std::get_if<isa::GemmInsn>(&*insn);
            gemm && !gemm->depthwise && gemm->init == isa::GemmInsn::kPairsFromBias) {
          ++dense_pairs;
          break;
        }
  }
  layouts.Check();
  CHECK(whole_i16 > 0);
  CHECK(two_passes_i16 > 0);
  MESSAGE(dense_pairs, " of 80 groups take pointwise pairs");
  CHECK(dense_pairs > 0);
}

// Whether `words` hold a Gemm of the array's depthwise mode, one that
// takes fewer kernel rows than its group's kernel (several a tile), one
// that takes the rows above its tile from its line slot (carry), a window
// load that skips those rows (it writes from the first row such a Gemm
// reads), a Gemm in pairs over a tile a column wider than its Store
// writes (an odd width in pairs: docs/codegen.md), and one of two channel
// blocks at stride 2 (block pairs).
struct Windows {
  bool any = false, partial = false, carried = false, i16_whole = false, skipped = false;
  bool widened = false, block_pairs = false;
};
Windows DepthwiseWindows(const std::vector<isa::Word>& words, int64_t k) {
  Windows w;
  std::vector<int64_t> loaded_from;  // the feature-map loads' first rows
  std::vector<int64_t> paired_cols;  // the out_cols of depthwise Gemms in pairs
  for (const isa::Word& word : words) {
    Expected<isa::Instruction> insn = isa::Decode(word);
    REQUIRE(insn.ok());
    if (const auto* load = std::get_if<isa::LoadInsn>(&*insn);
        load && load->buffer == isa::LoadInsn::kFeatureMap)
      loaded_from.push_back(load->sram_addr);
    if (const auto* store = std::get_if<isa::StoreInsn>(&*insn))
      w.widened = w.widened || (store->cols % 2 == 1 && store->acc_pitch == store->cols + 1 &&
                                std::find(paired_cols.begin(), paired_cols.end(),
                                          store->acc_pitch) != paired_cols.end());
    const auto* gemm = std::get_if<isa::GemmInsn>(&*insn);
    if (!gemm || !gemm->depthwise) continue;
    w.skipped = w.skipped || (gemm->carry && gemm->fm_addr > 0 &&
                              std::find(loaded_from.begin(), loaded_from.end(), gemm->fm_addr) !=
                                  loaded_from.end());
    w.any = true;
    if (gemm->init == isa::GemmInsn::kPairsFromBias) paired_cols.push_back(gemm->out_cols);
    w.partial = w.partial || gemm->window_h + 1 < k;
    w.carried = w.carried || gemm->carry;
    w.i16_whole = w.i16_whole || gemm->operand == isa::GemmInsn::kI16;
    w.block_pairs = w.block_pairs || BlockPairs(*gemm);
  }
  return w;
}

TEST_CASE("codegen + fsim equal the integer reference on the array's depthwise mode") {
  // Depthwise convs of 3x3 and 5x5 (strides 1 and 2, multipliers 1 and 2,
  // i8, u8 and i16 in, channels on and off the lanes, then what random
  // groups hold) with their taps as the reduction axis: on opu1024 a Gemm
  // per tile; with two kernel rows a Gemm, and on tiny (8 lanes: 2 rows
  // of 3, 1 of 5), several a tile that accumulate. A quarter of Co/2
  // channels at stride 1, which on opu1024 take two output pixels an
  // entry over their doubled input. Six more of 17 to 64 channels at
  // stride 2 on opu1024, whose Gemms take two channel blocks (block pairs)
  // where their Stores take a pixel's blocks.
  HwConfig opu = Dilating("opu1024"), opu_rows = opu, tiny = Dilating("tiny");
  opu.ipa.depthwise_window = 8;
  opu_rows.ipa.depthwise_window = 2;
  tiny.ipa.depthwise = true;
  tiny.ipa.depthwise_window = 8;
  const HwConfig* configs[] = {&opu, &opu_rows, &tiny};
  std::mt19937 rng(47), pairs_rng(4702);
  int windowed = 0, partial = 0, strided = 0, doubled = 0, wide = 0, i16 = 0, u8 = 0, after = 0;
  int carried = 0, carried_strided = 0, carried_i16 = 0, paired = 0, paired_5x5 = 0;
  int tapered_carried = 0, tapered_paired = 0, quarters_carried = 0, skipped = 0, widened = 0;
  int block_pairs = 0, block_pairs_carried = 0;
  // i16 windows read whole (3x3: high bytes on taps 0-2, low on 4-6), with
  // their rows carried, at stride 2, and in two passes (5x5, or tiny).
  int i16_whole = 0, i16_whole_carried = 0, i16_whole_strided = 0, i16_two_passes = 0;
  for (int i = 0; i < 66; ++i) {
    const HwConfig& hw = *configs[i < 60 ? i % 3 : 0];
    Case c = RandomCase(i < 60 ? rng : pairs_rng, true, hw.ipa.max_kernel, &hw != &tiny, true);
    if (i % 4 == 0) {  // Co/2 channels at stride 1: two output pixels an entry (doubled maps)
      c.ci = c.co = hw.array.output_channels / 2;
      c.multiplier = c.stride = 1;
      c.pieces.clear();  // and the output stored as it is, its compare stage kept
      c.residual = c.residual2 = c.channel = c.pool = c.upsample = false;
      c.res_channels = 0;
      c.in = i % 8 == 0 ? DType::kU8 : DType::kI8;
    }
    if (i >= 60) {  // opu1024: two channel blocks of a 3x3 window at stride 2 a Gemm
      c.ci = c.co = 17 + static_cast<int64_t>(pairs_rng() % 48);
      c.k = 3;
      c.stride = 2;
      c.multiplier = 1;
      c.h = 6 + static_cast<int64_t>(pairs_rng() % 10);
      c.w = 6 + static_cast<int64_t>(pairs_rng() % 20);
      c.pieces.clear();  // the output stored as it is (its Stores take a pixel's blocks)
      c.pool = c.upsample = false;
      c.in = i % 2 == 0 ? DType::kU8 : DType::kI8;
    }
    c.tapered_tiles = i % 3 == 0 ? 2 : 0;  // the first tile shorter, the rows above it carried
    c.fm_slots = i % 5 == 1 ? 4 : 0;       // windows four deep
    const CaseRun ran = RunCase(c, hw, rng);
    paired += ran.paired;
    tapered_paired += ran.paired && ran.tapered;
    paired_5x5 += ran.paired && c.k == 5;
    const Windows w = DepthwiseWindows(ran.words, c.k);
    // A concat whose pieces do not line up with the blocks runs dense.
    windowed += w.any || !c.pieces.empty();
    partial += w.partial;
    carried += w.carried;
    skipped += w.skipped;
    widened += w.widened;
    block_pairs += w.block_pairs;
    block_pairs_carried += w.block_pairs && w.carried;
    tapered_carried += w.carried && ran.tapered;
    quarters_carried += w.carried && ran.fm_quarters;
    carried_strided += w.carried && c.stride == 2;
    carried_i16 += w.carried && c.in == DType::kI16;
    i16_whole += w.i16_whole;
    i16_whole_carried += w.i16_whole && w.carried;
    i16_whole_strided += w.i16_whole && c.stride == 2;
    i16_two_passes += w.any && c.in == DType::kI16 && !w.i16_whole;
    strided += c.stride == 2;
    doubled += c.multiplier == 2;
    wide += c.ci > hw.array.input_channels;
    i16 += c.in == DType::kI16;
    u8 += c.in == DType::kU8;
    after += c.residual || c.after || c.pool || c.upsample;
  }
  CHECK(windowed == 66);
  CHECK(paired > 0);
  CHECK(paired_5x5 > 0);
  CHECK(partial > 0);
  CHECK(carried > 0);
  CHECK(skipped > 0);
  MESSAGE(widened, " of 60 groups take pairs over odd tiles a column wider");
  CHECK(widened > 0);
  MESSAGE(block_pairs, " of 66 groups take two channel blocks a Gemm (", block_pairs_carried,
          " carried)");
  CHECK(block_pairs > 0);
  CHECK(block_pairs_carried > 0);
  CHECK(tapered_carried > 0);
  CHECK(tapered_paired > 0);
  CHECK(quarters_carried > 0);
  CHECK(carried_strided > 0);
  CHECK(carried_i16 > 0);
  CHECK(i16_whole > 0);
  CHECK(i16_whole_carried > 0);
  CHECK(i16_whole_strided > 0);
  CHECK(i16_two_passes > 0);
  CHECK(strided > 0);
  CHECK(doubled > 0);
  CHECK(wide > 0);
  CHECK(i16 > 0);
  CHECK(u8 > 0);
  CHECK(after > 0);
}

// The depthwise Gemms of `words` whose input rows fit the window's line
// buffers of `line` columns (opu_gemm.sv), those of them that read a pair
// of pixels a cycle (stride 2, an odd window width), and those that do not fit.
struct LineGemms {
  int fit = 0, pairs = 0, wide = 0;
  void Count(const std::vector<isa::Word>& words, int64_t line) {
    for (const isa::Word& word : words) {
      Expected<isa::Instruction> insn = isa::Decode(word);
      REQUIRE(insn.ok());
      const auto* gemm = std::get_if<isa::GemmInsn>(&*insn);
      if (!gemm || !gemm->depthwise) continue;
      const int64_t pixels = gemm->window_w + 1 + (gemm->out_cols - 1) * gemm->stride_x;
      ++(pixels <= line ? fit : wide);
      pairs += pixels <= line && gemm->stride_x == 2 && gemm->window_w % 2 == 0;
    }
  }
};

TEST_CASE("the depthwise window's line buffers: rows that fit them, rows wider, strides 1 and 2") {
  // opu1024's window reads each pixel once where an input row fits its line
  // buffers (512 columns), a pair a cycle at stride 2, else a column's rows
  // a cycle each; all on the RTL, equal to the reference. 3x3 and 5x5,
  // strides 1 and 2, i8 and i16, multiplier 2 with 8 channels a lane group.
  const HwConfig opu = *HwConfigPreset("opu1024");
  std::mt19937 rng(4701);
  Case c;
  c.op = OpKind::kDepthwiseConv2D;
  c.ci = c.co = 24;
  LineGemms gemms;
  for (int64_t w : {9, 600}) {
    for (int64_t k : {3, 5}) {
      for (int64_t stride : {1, 2}) {
        c.h = w == 600 ? 3 : 7;  // one tile of 600 columns (the accumulator's half: 2,730 entries)
        c.w = w;
        c.k = k;
        c.stride = stride;
        c.in = stride == 2 && k == 3 ? DType::kI16 : DType::kI8;
        c.multiplier = (k == 5) == (stride == 1) ? 2 : 1;
        c.co = c.ci * c.multiplier;
        gemms.Count(RunCase(c, opu, rng).words, opu.ipa.depthwise_line);
      }
    }
  }
  CHECK(gemms.fit > 0);
  CHECK(gemms.pairs > 0);
  CHECK(gemms.wide > 0);
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
