// The harness around the RTL: the DRAM model's latency and bandwidth by hand,
// a load's cycles against them, and the errors a broken program gets (a
// hang naming each engine, tokens never taken, an opcode no instruction
// has, a config the RTL is not built for).
#include <doctest/doctest.h>

#include <array>
#include <cstdio>

#include "dram_model.h"
#include "estimate.h"
#include "opuc/isa/isa.h"
#include "opuc/opu/buffer_units.h"
#include "opuc/runtime/device.h"
#include "rtl.h"

namespace opuc::rtl {
namespace {

using namespace isa;

HwConfig Tiny() { return *HwConfigPreset("tiny"); }

TEST_CASE("the DRAM model: tiny moves one aligned 8-byte word a cycle, 16 cycles late") {
  // tiny: 0.8 GB/s at 100 MHz = 8 bytes a cycle, 64-bit words, latency 16.
  std::vector<uint8_t> image(1024);
  for (size_t i = 0; i < image.size(); ++i) image[i] = static_cast<uint8_t>(i);
  DramModel ram(Tiny(), image, 8);
  int64_t aligned = 0;
  for (int64_t now = 0; now < 100; ++now) {
    ram.Tick();
    if (ram.CanTransfer() && ram.Read(static_cast<uint64_t>(8 * (aligned % 100)), now).ok())
      ++aligned;
  }
  CHECK(aligned == 100);
  CHECK(ram.Response(15) == nullptr);  // the first read went out at cycle 0
  REQUIRE(ram.Response(16) != nullptr);
  CHECK(ram.Response(16)[3] == 3);

  // A beat across a word boundary touches two words: half the rate.
  DramModel unaligned(Tiny(), image, 8);
  int64_t reads = 0;
  for (int64_t now = 0; now < 100; ++now) {
    unaligned.Tick();
    if (unaligned.CanTransfer() && unaligned.Read(4, now).ok()) ++reads;
  }
  CHECK(reads == 50);
  CHECK(unaligned.stats().words == 100);

  const Status past = ram.Read(1020, 100);
  CHECK(past.message() == "the load engine reads DRAM bytes 1020 to 1027; the image has 1024");
  const uint8_t bytes[4] = {9, 8, 7, 6};
  REQUIRE(ram.Write(40, bytes, {true, false, true, false}).ok());
  CHECK(image[40] == 9);
  CHECK(image[41] == 41);
  CHECK(image[42] == 7);
  CHECK(ram.Write(1022, bytes, {true, true, true, false}).message() ==
        "the store engine writes DRAM byte 1024; the image has 1024");
}

template <typename Insn>
Word W(Insn insn) {
  return Encode(insn).value();
}

TEST_CASE("a load of 64 feature-map units takes the latency plus a beat a cycle") {
  LoadInsn load;
  load.buffer = 0;
  load.rows = 2;
  load.cols = 32;
  load.dram_stride = 512;
  std::vector<uint8_t> dram(1024, 1);
  RtlStats stats;
  const Status run = RunRtl(Tiny(), {W(load)}, dram, &stats);
  REQUIRE_MESSAGE(run.ok(), run.ToString());
  // The instruction's two beats from DRAM, answered 16 cycles later; then
  // 64 beats at one a cycle, the last answered 16 cycles after it left; a
  // few cycles more to decode, start and finish.
  CHECK(stats.cycles >= 2 + 16 + 64 + 16);
  CHECK(stats.cycles <= 2 + 16 + 64 + 16 + 10);
  CHECK(stats.engines[0].retired == 1);
  CHECK(stats.engines[0].last_retired == 0);
  CHECK(stats.counters.bytes_loaded == 512);
  // The request walker asks for the first beat the cycle after it took the
  // load; the writers take its frame word (queued a cycle after the walker
  // took it) the cycle after that, and wait for the beat from the next:
  // 16 cycles less the two between the ask and their start.
  CHECK(stats.engines[0].dram_cycles >= 14);
  CHECK(stats.dram.reads == 2 + 64);
}

// The cycles of one compact load on opu1024 (L = 64, Co = 16) of a row of
// `pixels` pixels of one granule, 16 bytes: four a beat.
int64_t CompactRowCycles(int64_t pixels, int64_t zeros_x) {
  LoadInsn load;
  load.buffer = 0;
  load.rows = 1;
  load.cols = pixels;
  load.granules = 1;
  load.zeros_x = zeros_x;
  load.dram_stride = 16 * pixels;
  std::vector<uint8_t> dram(static_cast<size_t>(16 * pixels), 1);
  RtlStats stats;
  const Status run = RunRtl(*HwConfigPreset("opu1024"), {W(load)}, dram, &stats);
  REQUIRE_MESSAGE(run.ok(), run.ToString());
  CHECK(stats.counters.bytes_loaded == 16 * pixels);
  return stats.cycles;
}

TEST_CASE("a compact load writes a pair of pixels a cycle into opu1024's two banks") {
  // 64 more pixels: 16 more beats, asked for one every 2 cycles (4
  // granules a beat, paced to 2 a cycle), and 32 more pairs written, a
  // pair a cycle: 32 more cycles. With a zero between the pixels (a
  // transposed conv's input) they go one at a time, the zeros in the
  // cycles between: 64 pixels and 64 zeros more, 128.
  CHECK(CompactRowCycles(128, 0) - CompactRowCycles(64, 0) == 32);
  CHECK(CompactRowCycles(128, 1) - CompactRowCycles(64, 1) == 128);
}

TEST_CASE("loads in flight: a chain of small loads waits out the DRAM latency about once") {
  // Eight loads of two feature-map beats each on tiny (latency 16, a beat a
  // cycle). One after another they would take at least 8 x (2 + 16) cycles
  // after the first instruction arrives; in flight (four at most) the
  // request walker asks for the next load's beats 2 cycles after the last
  // of the one before, and the fifth waits for the first to be written:
  // twice the latency, not eight times.
  std::vector<Word> words;
  for (int64_t k = 0; k < 8; ++k) {
    LoadInsn load;
    load.buffer = 0;
    load.rows = 1;
    load.cols = 2;
    load.dram_addr = 16 * k;
    load.sram_addr = 2 * k;
    words.push_back(W(load));
  }
  std::vector<uint8_t> dram(256, 1);
  RtlStats stats;
  const Status run = RunRtl(Tiny(), words, dram, &stats);
  REQUIRE_MESSAGE(run.ok(), run.ToString());
  // The 8 instructions' 16 beats, answered 16 cycles after the first; the
  // loads' 16 beats and 2 cycles between loads; two latencies; a few cycles
  // to decode, start and finish each of the two rounds.
  CHECK(stats.cycles <= 16 + 16 + 16 + 8 * 2 + 2 * 16 + 2 * 10);
  CHECK(stats.cycles < 16 + 8 * (2 + 16));
  CHECK(stats.engines[0].retired == 8);
  CHECK(stats.engines[0].last_retired == 7);
  CHECK(stats.counters.bytes_loaded == 8 * 16);
  CHECK(stats.dram.reads == 16 + 16);
}

// A Gemm over 64 pixels of one row into entries from `entry`, from zero.
GemmInsn RowGemm(int64_t entry) {
  GemmInsn gemm;
  gemm.acc_addr = entry;
  gemm.fm_pitch = 64;
  gemm.out_rows = 1;
  gemm.out_cols = 64;
  gemm.stride_y = gemm.stride_x = 1;
  gemm.init = 2;
  return gemm;
}

// Two tiles of 64 pixels, each a Gemm and an Output over its 64 entries, on
// zeros: the cycles tell whether the second Gemm ran beside the first
// Output (another accumulator bank) or after it (the same bank).
int64_t TwoTilesCycles(int64_t second_tile_entry) {
  std::vector<Word> words;
  for (int64_t entry : {int64_t{0}, second_tile_entry}) {
    GemmInsn gemm = RowGemm(entry);
    gemm.init = entry == 0 ? 2 : 0;
    OutputInsn output;
    output.acc_addr = entry;
    output.count = 64;
    output.hi = 127;
    words.push_back(W(gemm));
    words.push_back(W(output));
  }
  std::vector<uint8_t> dram(64);
  RtlStats stats;
  const Status run = RunRtl(Tiny(), words, dram, &stats);
  REQUIRE_MESSAGE(run.ok(), run.ToString());
  CHECK(stats.counters.gemm_issues == 128);
  CHECK(stats.counters.post_entries == 128);
  CHECK(stats.engines[1].retired == 4);
  return stats.cycles;
}

// The cycles of one depthwise Gemm of a 3x3 window (or 3 rows of 2 taps)
// at stride 2 over an output row of `cols` pixels, on opu1024 (whose
// window has line buffers), from the program's start to its end.
int64_t StridedWindowCycles(int64_t cols, int64_t window_w) {
  GemmInsn gemm;
  gemm.depthwise = true;
  gemm.window_h = 2;
  gemm.window_w = window_w;
  gemm.fm_pitch = 512;
  gemm.out_rows = 1;
  gemm.out_cols = cols;
  gemm.stride_y = gemm.stride_x = 2;
  gemm.init = 2;
  std::vector<uint8_t> dram(64);
  RtlStats stats;
  const Status run = RunRtl(*HwConfigPreset("opu1024"), {W(gemm)}, dram, &stats);
  REQUIRE_MESSAGE(run.ok(), run.ToString());
  CHECK(stats.counters.gemm_issues == cols);
  return stats.cycles;
}

TEST_CASE("the depthwise window reads a pair of pixels a cycle at stride 2, odd widths") {
  // A row of c outputs at stride 2 reads w = window_w + 1 + 2 (c - 1)
  // pixels from each of the window's 3 rows. 32 more outputs: 64 more
  // pixels a row, 3 x 64 / 2 = 96 more cycles as pairs (3 taps wide, an
  // odd width); 3 x 64 = 192 one at a time (2 taps wide, even).
  CHECK(StridedWindowCycles(64, 2) - StridedWindowCycles(32, 2) == 3 * 64 / 2);
  CHECK(StridedWindowCycles(64, 1) - StridedWindowCycles(32, 1) == 3 * 64);
}

// The cycles of one Store on opu1024 (L = 64, Co = 16) of a row of `pixels`
// pixels of 1 + extra_blocks blocks, `granules` x 16 bytes apart, the last
// block 8 lanes.
int64_t BlocksStoreCycles(int64_t pixels, int64_t extra_blocks, int64_t granules,
                          int64_t* estimated) {
  StoreInsn store;
  store.rows = 1;
  store.cols = pixels;
  store.acc_pitch = pixels;
  store.lanes = 8;
  store.extra_blocks = extra_blocks;
  store.granules = granules;
  store.dram_stride = 16 * granules * pixels;
  const HwConfig hw = *HwConfigPreset("opu1024");
  *estimated = StoreIssueCycles(store, BufferUnits(hw));
  std::vector<uint8_t> dram(static_cast<size_t>(store.dram_stride));
  RtlStats stats;
  const Status run = RunRtl(hw, {W(store)}, dram, &stats);
  REQUIRE_MESSAGE(run.ok(), run.ToString());
  CHECK(stats.counters.bytes_stored == pixels * (16 * extra_blocks + 8));
  return stats.cycles;
}

TEST_CASE("a store reads a pixel's blocks 0 and 1 in one cycle where both fall in one beat") {
  // Blocks 0 and 1 lie at one offset of the accumulator's two banks. Two
  // blocks in 32 bytes a pixel: every pixel's pair in its beat, one read a
  // pixel; 32 more pixels, 32 more cycles (16 more beats to write).
  int64_t est64 = 0, est32 = 0;
  CHECK(BlocksStoreCycles(64, 1, 2, &est64) - BlocksStoreCycles(32, 1, 2, &est32) == 32);
  CHECK(est64 == 64);
  CHECK(est32 == 32);
  // Three blocks in 48 bytes: the pixels start at bytes 0, 48, 32 and 16 of
  // a beat, then again. Blocks 0 and 1 fit a beat but from byte 48 (16 + 16
  // past it): 2 + 3 + 2 + 2 = 9 reads every four pixels, not 12.
  CHECK(BlocksStoreCycles(64, 2, 3, &est64) - BlocksStoreCycles(32, 2, 3, &est32) == 32 * 9 / 4);
  CHECK(est64 == 64 * 9 / 4);
  CHECK(est32 == 32 * 9 / 4);
}

// The cycles of one Store into the feature-map buffer (to_fm) on opu1024 of
// a row of `pixels` pixels of 1 + extra_blocks blocks from accumulator entry
// `entry`, a row each; `estimated` the estimator's, `writes` its port's.
int64_t FmStoreCycles(int64_t pixels, int64_t extra_blocks, int64_t entry, int64_t* estimated,
                      int64_t* writes) {
  StoreInsn store;
  store.to_fm = true;
  store.rows = 1;
  store.cols = pixels;
  store.acc_addr = entry;
  store.acc_pitch = pixels;
  store.lanes = 16;
  store.extra_blocks = extra_blocks;
  store.dram_addr = 64 * 100;  // row 100
  store.dram_stride = 64 * pixels;
  const HwConfig hw = *HwConfigPreset("opu1024");
  *estimated = StoreIssueCycles(store, BufferUnits(hw));
  *writes = StoreFmWrites(store, BufferUnits(hw));
  std::vector<uint8_t> dram(64);
  RtlStats stats;
  const Status run = RunRtl(hw, {W(store)}, dram, &stats);
  REQUIRE_MESSAGE(run.ok(), run.ToString());
  CHECK(stats.counters.bytes_stored == 0);  // none to DRAM
  return stats.cycles;
}

TEST_CASE("a store into the feature-map buffer takes two pixels a read from an even entry") {
  // Entries e and e + 1 (e even) are the even and odd block RAMs of a bank
  // at one row, and rows r and r + 1 of the feature-map buffer its two
  // banks: a pair of pixels is read together, block by block (blocks 0 and
  // 1, 2 and 3 in one read), and written in one cycle. 32 more pixels: 16
  // more pairs, 16 more reads of one or two blocks a pixel, 32 of three or
  // four; 16 more writes either way.
  for (const int64_t extra : {0, 1, 2, 3}) {
    CAPTURE(extra);
    int64_t est64 = 0, est32 = 0, writes64 = 0, writes32 = 0;
    const int64_t reads = extra < 2 ? 16 : 32;
    CHECK(FmStoreCycles(64, extra, 0, &est64, &writes64) -
              FmStoreCycles(32, extra, 0, &est32, &writes32) ==
          reads);
    CHECK(est64 == 2 * reads);
    CHECK(est32 == reads);
    CHECK(writes64 == 32);
    CHECK(writes32 == 16);
  }
  // From an odd entry the first pixel goes alone, then pairs: 1 + 16
  // writes for 33 pixels, the last of an even row alone: 1 + 16 + 1.
  int64_t est = 0, writes = 0;
  FmStoreCycles(33, 1, 1, &est, &writes);
  CHECK(writes == 17);
  CHECK(est == 17);
  FmStoreCycles(34, 1, 1, &est, &writes);
  CHECK(writes == 18);
  // Two pixels from entry 5,330 (bank 1's last pair: the pools' bank starts
  // at 5,333) are a pair, one read of both blocks; from 5,332 the second
  // entry is the pools' bank's, so each goes alone: the first in one twin
  // read, the second a read a block (no twin outside banks 0 and 1): two
  // cycles more, on the RTL and in the estimate.
  int64_t est_pair = 0, est_apart = 0;
  const int64_t paired = FmStoreCycles(2, 1, 5330, &est_pair, &writes);
  CHECK(writes == 1);
  const int64_t apart = FmStoreCycles(2, 1, 5332, &est_apart, &writes);
  CHECK(writes == 2);
  CHECK(apart - paired == 2);
  CHECK(est_apart - est_pair == 2);
}

// The cycles of one depthwise Gemm of a k x k kernel (3 or 5) at stride 1
// over an output row of `cols` pixels on opu1024, in pairs (a window k + 1
// wide) or one at a time.
int64_t PairsCycles(int64_t cols, bool pairs, int64_t k = 3) {
  GemmInsn gemm;
  gemm.depthwise = true;
  gemm.window_h = k - 1;
  gemm.window_w = pairs ? k : k - 1;
  gemm.fm_pitch = 512;
  gemm.out_rows = 1;
  gemm.out_cols = cols;
  gemm.stride_y = gemm.stride_x = 1;
  gemm.init = pairs ? GemmInsn::kPairsFromBias : GemmInsn::kFromBias;
  std::vector<uint8_t> dram(64);
  RtlStats stats;
  const Status run = RunRtl(*HwConfigPreset("opu1024"), {W(gemm)}, dram, &stats);
  REQUIRE_MESSAGE(run.ok(), run.ToString());
  CHECK(stats.counters.gemm_issues == (pairs ? cols / 2 : cols));
  return stats.cycles;
}

TEST_CASE("output pixels in pairs: the window reads a pair of pixels a cycle at stride 1") {
  // 32 more outputs at stride 1: 32 more pixels in each of the window's 3
  // rows, 3 x 32 = 96 more cycles one at a time, 3 x 32 / 2 = 48 in pairs.
  CHECK(PairsCycles(64, false) - PairsCycles(32, false) == 3 * 32);
  CHECK(PairsCycles(64, true) - PairsCycles(32, true) == 3 * 32 / 2);
  // A 5x5 kernel, its rows 6 lanes apart in pairs (packed rows): 5 x 32
  // one at a time, 5 x 32 / 2 in pairs.
  CHECK(PairsCycles(64, false, 5) - PairsCycles(32, false, 5) == 5 * 32);
  CHECK(PairsCycles(64, true, 5) - PairsCycles(32, true, 5) == 5 * 32 / 2);
}

// The cycles of `gemms` depthwise Gemms of a 3x3 kernel at stride 2 over
// an output row of `cols` pixels on opu1024, each of one channel block or,
// with `block_pairs`, of two (init PairsFromBias at stride_x 2); their
// entries in the accumulator's two banks by turns.
int64_t StrideTwoCycles(int64_t gemms, int64_t cols, bool block_pairs, GemmInsn* last) {
  std::vector<Word> words;
  for (int64_t g = 0; g < gemms; ++g) {
    GemmInsn gemm;
    gemm.depthwise = true;
    gemm.window_h = gemm.window_w = 2;
    gemm.fm_pitch = 512;
    gemm.out_rows = 1;
    gemm.out_cols = cols;
    gemm.stride_y = gemm.stride_x = 2;
    gemm.init = block_pairs ? GemmInsn::kPairsFromBias : GemmInsn::kFromBias;
    gemm.acc_addr = g % 2 == 0 ? 0 : 2730;
    words.push_back(W(gemm));
    *last = gemm;
  }
  std::vector<uint8_t> dram(64);
  RtlStats stats;
  const Status run = RunRtl(*HwConfigPreset("opu1024"), words, dram, &stats);
  REQUIRE_MESSAGE(run.ok(), run.ToString());
  CHECK(stats.counters.gemm_issues == gemms * cols);  // both blocks of a pixel one issue
  return stats.cycles;
}

TEST_CASE("block pairs: two channel blocks of a stride-2 window in the cycles of one") {
  // An output row of 16 pixels at stride 2 reads 33 input pixels a row, a
  // pair a cycle: 17; the window's 3 rows, the window's register and the
  // cycle before the next Gemm: 3 x 17 + 2 = 53 a Gemm, of one block or of
  // two. GemmBackToBackCycles (the estimator's and mapping_bound.h's) says
  // the same.
  const int64_t line = HwConfigPreset("opu1024")->ipa.depthwise_line;
  for (bool block_pairs : {false, true}) {
    CAPTURE(block_pairs);
    GemmInsn gemm;
    const int64_t four = StrideTwoCycles(4, 16, block_pairs, &gemm);
    CHECK(StrideTwoCycles(8, 16, block_pairs, &gemm) - four == 4 * 53);
    CHECK(GemmBackToBackCycles(gemm, line) == 53);
  }
}

// The cycles of `gemms` Gemms of `pixels` pixels each on opu1024, all
// adding to entries 0 to pixels - 1, from the program's start to its end.
int64_t BackToBackCycles(int64_t gemms, int64_t pixels) {
  std::vector<Word> words;
  for (int64_t g = 0; g < gemms; ++g) {
    GemmInsn gemm;
    gemm.fm_pitch = 64;
    gemm.out_rows = 1;
    gemm.out_cols = pixels;
    gemm.stride_y = gemm.stride_x = 1;
    gemm.init = g == 0 ? GemmInsn::kFromZero : GemmInsn::kAccumulate;
    words.push_back(W(gemm));
  }
  std::vector<uint8_t> dram(64);
  RtlStats stats;
  const Status run = RunRtl(*HwConfigPreset("opu1024"), words, dram, &stats);
  REQUIRE_MESSAGE(run.ok(), run.ToString());
  CHECK(stats.counters.gemm_issues == gemms * pixels);
  CHECK(stats.engines[1].retired == gemms);
  return stats.cycles;
}

TEST_CASE("Gemms back to back: the next issues its first pixel two cycles after the last") {
  // 16 pixels: the next Gemm's first pixel issues two cycles after the
  // one before's last, its pixels still in the array's pipeline: 17 a
  // Gemm (it was 23 while a Gemm started after the last write before).
  CHECK(BackToBackCycles(8, 16) - BackToBackCycles(4, 16) == 4 * 17);
  // One pixel into entry 0: two Gemms in flight at most, so a Gemm starts
  // only once the one two before is done, 7 cycles after the gap that
  // follows its pixel (the array's 5-stage pipeline, the done, the
  // retirement); and the second's read of entry 0 would meet the first's
  // write, so it issues a cycle later. Gemm k's pixel issues at 0, 3, 9,
  // 12, 18, ...: 9 cycles every two Gemms.
  CHECK(BackToBackCycles(8, 1) - BackToBackCycles(4, 1) == 2 * 9);
  // The estimator's rules give the same (Compute's first and end entries).
  const HwConfig hw = *HwConfigPreset("opu1024");
  for (int64_t pixels : {16, 1}) {
    int64_t totals[2] = {};
    for (int64_t gemms : {4, 8}) {
      codegen::CycleEstimate estimate(hw);
      estimate.BeginUnit();
      for (int64_t g = 0; g < gemms; ++g) estimate.Compute(pixels, 0, pixels);
      totals[gemms / 8] = estimate.Total();
    }
    CHECK(totals[1] - totals[0] == (pixels == 16 ? 4 * 17 : 2 * 9));
  }
}

// The cycles of `gemms` depthwise Gemms in pairs (a 3x3 kernel at stride 1,
// PairsFromBias) of `rows` output rows of `cols` pixels each on opu1024,
// their entries in the accumulator's two banks by turns, one after another.
int64_t WindowBackToBackCycles(int64_t gemms, int64_t rows, int64_t cols, isa::GemmInsn* last) {
  std::vector<Word> words;
  for (int64_t g = 0; g < gemms; ++g) {
    GemmInsn gemm;
    gemm.depthwise = true;
    gemm.window_h = 2;
    gemm.window_w = 3;
    gemm.fm_pitch = 512;
    gemm.out_rows = rows;
    gemm.out_cols = cols;
    gemm.stride_y = gemm.stride_x = 1;
    gemm.init = GemmInsn::kPairsFromBias;
    gemm.acc_addr = g % 2 == 0 ? 0 : 2730;
    words.push_back(W(gemm));
    *last = gemm;
  }
  std::vector<uint8_t> dram(64);
  RtlStats stats;
  const Status run = RunRtl(*HwConfigPreset("opu1024"), words, dram, &stats);
  REQUIRE_MESSAGE(run.ok(), run.ToString());
  CHECK(stats.counters.gemm_issues == gemms * rows * cols / 2);
  return stats.cycles;
}

TEST_CASE("depthwise Gemms back to back: the window's reads and a cycle") {
  // Rows of 16 output pixels in pairs read 18 input pixels a row, two a
  // cycle: 9; 1 output row reads the window's 3 rows, 3 output rows 5. A
  // Gemm holds the array for its reads, the window's register (a cycle)
  // and the cycle before the next Gemm's first read: 3 x 9 + 2 = 29, 5 x
  // 9 + 2 = 47, and with 32 pixels a row (17 reads) 3 x 17 + 2 = 53.
  // GemmBackToBackCycles (mapping_bound.h's gemm_cycles) says the same.
  const int64_t line = HwConfigPreset("opu1024")->ipa.depthwise_line;
  for (const auto& [rows, cols, cycles] :
       std::vector<std::array<int64_t, 3>>{{1, 16, 29}, {3, 16, 47}, {1, 32, 53}}) {
    isa::GemmInsn gemm;
    const int64_t four = WindowBackToBackCycles(4, rows, cols, &gemm);
    CHECK(WindowBackToBackCycles(8, rows, cols, &gemm) - four == 4 * cycles);
    CHECK(GemmBackToBackCycles(gemm, line) == cycles);
  }
  // A dense Gemm: its pixels and a cycle (the test above: 17 for 16).
  GemmInsn dense;
  dense.out_rows = 1;
  dense.out_cols = 16;
  CHECK(GemmBackToBackCycles(dense, line) == 17);
}

// An entry's cycles through a post stage (POST_STAGE_CYCLES, opu_shapes.svh):
// a pass pays them once a stage.
constexpr int64_t kPostStage = 4;

TEST_CASE("the post stages run beside the array, unless they share an accumulator bank") {
  // tiny's 341 entries: banks [0, 170), [170, 299), [299, 341).
  const OpuBufferUnits units = BufferUnits(Tiny());
  REQUIRE(units.acc_entries == 341);
  REQUIRE(units.AccBank1() == 170);
  REQUIRE(units.AccSumsBank() == 299);
  // An Output of 64 entries from an even one takes two a cycle (a dual
  // pass): 32 cycles. Another bank: Gemm 1, then Output 1 beside Gemm 2,
  // then Output 2: 64 + 64 + 32 cycles and a few per instruction (and the
  // first instruction's two beats from DRAM, 16 cycles late, before them).
  const int64_t beside = TwoTilesCycles(170);
  CHECK(beside >= 2 * 64 + 32);
  CHECK(beside < 2 * 64 + 32 + 48);
  // From an odd entry, Output 2 takes one a cycle: 64 more.
  const int64_t odd = TwoTilesCycles(171);
  CHECK(odd >= 3 * 64);
  CHECK(odd < 3 * 64 + 48);
  // The same bank, other entries: one bank's port serves one side at a time.
  const int64_t same_bank = TwoTilesCycles(64);
  CHECK(same_bank >= 2 * 64 + 2 * 32);
  CHECK(same_bank < 2 * 64 + 2 * 32 + 48 + 2 * kPostStage);
  // The same entries: Gemm 2 adds to what Output 1 writes, so it waits.
  const int64_t after = TwoTilesCycles(0);
  CHECK(after >= 2 * 64 + 2 * 32);
  CHECK(after < 2 * 64 + 2 * 32 + 48 + 2 * kPostStage);
}

// A Gemm over 64 pixels, then its Output and two Clamps, the last over
// `last_count` entries: the cycles tell whether the stages streamed through
// in one pass (the same entries) or took a pass each.
int64_t StagesCycles(int64_t last_count) {
  const GemmInsn gemm = RowGemm(0);
  OutputInsn output;
  output.count = 64;
  output.hi = 127;
  ClampInsn relu, narrow;
  relu.count = 64;
  relu.hi = 127;
  narrow.count = last_count;
  narrow.hi = 100;
  std::vector<uint8_t> dram(64);
  RtlStats stats;
  const Status run = RunRtl(Tiny(), {W(gemm), W(output), W(relu), W(narrow)}, dram, &stats);
  REQUIRE_MESSAGE(run.ok(), run.ToString());
  CHECK(stats.counters.post_entries == 128 + last_count);  // each stage counts its entries
  CHECK(stats.engines[1].retired == 4);
  return stats.cycles;
}

TEST_CASE("stages over the same entries stream through the post side in one pass") {
  const int64_t streamed = StagesCycles(64);  // the Gemm's pass, then one for the three stages
  CHECK(streamed >= 2 * 64);
  CHECK(streamed < 2 * 64 + 48 + 3 * kPostStage);
  const int64_t apart = StagesCycles(63);  // Output and relu together, the last on its own
  CHECK(apart >= 3 * 64 - 1);
  CHECK(apart < 3 * 64 + 48 + 3 * kPostStage);
}

// A Gemm over 64 pixels into entries from `entry`, then an Output and a
// Table over them: one pass (a chain of two) after the table's fill.
int64_t TableChainCycles(int64_t entry) {
  const GemmInsn gemm = RowGemm(entry);
  OutputInsn output;
  output.acc_addr = entry;
  output.count = 64;
  output.hi = 127;
  TableInsn table;
  table.acc_addr = entry;
  table.count = 64;
  std::vector<uint8_t> dram(64);
  RtlStats stats;
  const Status run = RunRtl(Tiny(), {W(gemm), W(output), W(table)}, dram, &stats);
  REQUIRE_MESSAGE(run.ok(), run.ToString());
  CHECK(stats.counters.post_entries == 128);
  return stats.cycles;
}

TEST_CASE("an Output and a Table over pairs of entries take two entries a cycle") {
  // From an even entry the chain is a dual chain: 64 entries in 32 cycles,
  // where from an odd one they take 64; all else is the same.
  CHECK(TableChainCycles(1) - TableChainCycles(0) == 32);
}

// A Gemm over 64 pixels into entries from `entry`, then a Store of them
// to DRAM as a compact map (4 bytes a pixel, tiny's Co): two pixels a beat.
int64_t CompactStoreCycles(int64_t entry) {
  GemmInsn gemm = RowGemm(entry);
  StoreInsn store;
  store.acc_addr = entry;
  store.acc_pitch = 64;
  store.rows = 1;
  store.cols = 64;
  store.lanes = 4;
  store.granules = 1;
  store.dram_stride = 256;
  store.deps.pop_prev = true;
  gemm.deps.push_next = true;
  std::vector<uint8_t> dram(256);
  RtlStats stats;
  const Status run = RunRtl(Tiny(), {W(gemm), W(store)}, dram, &stats);
  REQUIRE_MESSAGE(run.ok(), run.ToString());
  CHECK(stats.counters.bytes_stored == 64 * 4);
  return stats.cycles;
}

TEST_CASE("a Store of one-block pixels to DRAM reads two a cycle where they share a beat") {
  // From an even entry each pixel pair is one read (a DRAM pair): 32 reads
  // for 64 pixels, where from an odd entry each pixel is one: 32 more.
  CHECK(CompactStoreCycles(1) - CompactStoreCycles(0) == 32);
}

TEST_CASE("a token that never comes is a hang that names each engine's last instruction") {
  LoadInsn load;
  load.rows = load.cols = 1;
  GemmInsn gemm;
  gemm.out_rows = gemm.out_cols = 1;
  gemm.deps.pop_prev = true;  // no load pushes it
  std::vector<uint8_t> dram(64);
  const Status run = RunRtl(Tiny(), {W(load), W(gemm)}, dram);
  const std::string& message = run.message();
  CHECK(message.rfind("the RTL made no progress for 2097152 cycles (cycle ", 0) == 0);
  CHECK(message.find("): load retired 1, the last instruction 0; compute retired 0 (none yet); "
                     "store retired 0 (none yet)") != std::string::npos);
}

TEST_CASE("tokens given and never taken, opcodes no instruction has, configs not built") {
  LoadInsn load;
  load.rows = load.cols = 1;
  load.deps.push_next = true;
  std::vector<uint8_t> dram(64);
  CHECK(RunRtl(Tiny(), {W(load)}, dram).message() ==
        "the program ends with dependency tokens given and never taken");
  Word bad = W(load);
  bad.lo = (bad.lo & ~uint64_t{15}) | 15;  // opcode 15
  CHECK(RunRtl(Tiny(), {bad}, dram).message() == "the RTL met an opcode no instruction has");
  HwConfig other = Tiny();
  other.dram.latency_cycles = 20;
  CHECK(RunRtl(other, {W(load)}, dram).message() ==
        "the RTL is built for the presets tiny and opu1024; hw 'tiny' is not one of them field for "
        "field");
  HwConfig taps = Tiny();  // the ipa's limits and what a group may store are codegen's business
  taps.store.max_outputs = 2;
  taps.store.taps = ModuleBit(HwModule::kComparator);
  taps.ipa.max_dilation = 2;
  load.deps.push_next = false;
  CHECK(RunRtl(taps, {W(load)}, dram).ok());
}

TEST_CASE("a trace: an FST file per run, named per step, refused where it cannot be written") {
  CHECK(StepTracePath("run.fst", 3) == "run.step3.fst");
  CHECK(StepTracePath("out.d/run", 2) == "out.d/run.step2.fst");
  LoadInsn load;
  load.rows = load.cols = 4;
  load.dram_stride = 32;
  std::vector<uint8_t> dram(256, 7);
  const std::string path = "rtl_harness_test_trace.fst";
  RtlOptions options;
  options.trace_path = path;
  REQUIRE(RunRtl(Tiny(), {W(load)}, dram, nullptr, options).ok());
  std::FILE* f = std::fopen(path.c_str(), "rb");
  REQUIRE(f != nullptr);
  const int first = std::fgetc(f);  // FST's header block has type 0
  std::fseek(f, 0, SEEK_END);
  const long size = std::ftell(f);
  std::fclose(f);
  std::remove(path.c_str());
  CHECK(first == 0);
  CHECK(size > 1000);
  options.trace_path = "no/such/dir/run.fst";
  CHECK(RunRtl(Tiny(), {W(load)}, dram, nullptr, options).message() ==
        "no/such/dir/run.fst: cannot write the trace");
  DeviceOptions device;
  device.trace_path = "run.fst";
  CHECK(MakeDevice("fsim", device).status().message() ==
        "--trace: device 'fsim' has no signals to trace (rtl has)");
}

}  // namespace
}  // namespace opuc::rtl
