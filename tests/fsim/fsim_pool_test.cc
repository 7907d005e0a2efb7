// The functional simulator's pool stage (max and sum, within a tile and
// gathered over tiles) and its Average, on hand-built streams for `tiny`,
// each result worked out by hand.
#include "fsim_bench.h"

namespace opuc::fsim_test {
namespace {

// An n x n tile (n at most 4) of three lanes in accumulator entries from
// `entry`: lane 0, its negation, lane 2 (the output stage passes the loaded
// bytes through: weight 1, M 1, S 0).
Bench PassedThrough(int64_t n, const int* lane0, const int* lane2, int64_t entry = 0) {
  Bench b;
  for (int p = 0; p < n * n; ++p) b.Bytes(p * 8, {lane0[p], -lane0[p], lane2[p]});
  for (int j = 0; j < 4; ++j) {
    b.dram[static_cast<size_t>(128 + j * 8 + j)] = 1;
    b.Param(192, j, 0, 1, 0);
  }
  b.Add(Load(0, 0, 0, 1, n * n, 8 * n * n));
  b.Add(Load(1, 0, 128, 1, 1, 32));
  b.Add(With(Load(2, 0, 192, 1, 1, 32), kPushNext));
  GemmInsn gemm = Gemm(0, n, n, n, 1);
  gemm.acc_addr = entry;
  b.Add(With(gemm, kPopPrev));
  OutputInsn output = Output(n * n, -128, 127);
  output.acc_addr = entry;
  b.Add(output);
  return b;
}

// A 3x3 tile in entries 0..8.
Bench PoolSource() {
  const int lane0[] = {5, -3, 9, 7, 12, -1, -8, 4, 2};
  const int lane2[] = {-7, -3, 0, -12, -9, 0, 0, 0, 0};
  return PassedThrough(3, lane0, lane2);
}

PoolInsn Pool2x2(int64_t out_rows, int64_t out_cols, int64_t dst) {
  PoolInsn pool;
  pool.src_rows = pool.src_cols = 3;
  pool.dst_addr = dst;
  pool.out_rows = out_rows;
  pool.out_cols = out_cols;
  pool.size_y = pool.size_x = pool.stride_y = pool.stride_x = 2;
  return pool;
}

TEST_CASE("the pool stage: 2x2 windows, stride 2, cut at a 3x3 tile's edge, then requant") {
  // Windows: pixels {0, 1, 3, 4}, {2, 5}, {6, 7}, {8}. Lane 0: maxes 12, 9,
  // 4, 2; lane 1 (negated): 3, 1, 8, -2; lane 2: numerics.md E18's window
  // [-7, -3, -12] (and -9): -3, then 0s. The Clamp halves (f_out = f_in - 1,
  // ties up): 12 -> 6, 9 -> 5 (4.5), 3 -> 2 (1.5), 1 -> 1, -2 -> -1, -3 -> -1.
  Bench b = PoolSource();
  b.Add(Pool2x2(2, 2, 9));
  ClampInsn requant;
  requant.acc_addr = 9;
  requant.count = 4;
  requant.shift = 1;
  requant.lo = -128;
  requant.hi = 127;
  b.Add(With(requant, kPushNext));
  StoreInsn store = Store(2, 2, 2, 256, 16);
  store.acc_addr = 9;
  b.Add(With(store, kPopPrev));
  OpuCounters counters;
  REQUIRE(b.Run(&counters).ok());
  CHECK(b.Signed(256, 4) == std::vector<int>{6, 2, -1, 0});
  CHECK(b.Signed(264, 4) == std::vector<int>{5, 1, 0, 0});
  CHECK(b.Signed(272, 4) == std::vector<int>{2, 4, 0, 0});
  CHECK(b.Signed(280, 4) == std::vector<int>{1, -1, 0, 0});
  CHECK(counters.post_entries == 9 + 9 + 4);  // Output, the pool's taps, Clamp
}

// 3x3 windows, stride 2, one row and column of padding before (a SAME 3x3/2
// pool of the 3x3 tile): window (oy, ox) covers rows and columns
// {2 oy - 1 .. 2 oy + 1} inside the tile, 2x2 taps each. The tile by rows:
// lane 0 [5 -3 9 | 7 12 -1 | -8 4 2], lane 1 its negation, lane 2
// [-7 -3 0 | -12 -9 0 | 0 0 0].
PoolInsn Pool3x3Padded(bool sum) {
  PoolInsn pool = Pool2x2(2, 2, 9);
  pool.size_y = pool.size_x = 3;
  pool.pad_y = pool.pad_x = 1;
  pool.sum = sum;
  return pool;
}

TEST_CASE("the pool stage: overlapping 3x3 windows, stride 2, that start in padding") {
  // Maxes. Lane 0: {5 -3 7 12}, {-3 9 12 -1}, {7 12 -8 4}, {12 -1 4 2}: 12
  // each; lane 1: 3, 3, 8, 1; lane 2: {-7 -3 -12 -9} -3, then 0s.
  Bench b = PoolSource();
  b.Add(With(Pool3x3Padded(false), kPushNext));
  StoreInsn store = Store(2, 2, 2, 256, 16);
  store.acc_addr = 9;
  b.Add(With(store, kPopPrev));
  OpuCounters counters;
  REQUIRE(b.Run(&counters).ok());
  CHECK(b.Signed(256, 4) == std::vector<int>{12, 3, -3, 0});
  CHECK(b.Signed(264, 4) == std::vector<int>{12, 3, 0, 0});
  CHECK(b.Signed(272, 4) == std::vector<int>{12, 8, 0, 0});
  CHECK(b.Signed(280, 4) == std::vector<int>{12, 1, 0, 0});
  CHECK(counters.post_entries == 9 + 4 * 4);  // Output, the pool's taps
}

TEST_CASE("the pool stage sums windows that start in padding, Average divides by their taps") {
  // Sums of the windows above, 4 taps each. Lane 0: 21, 17, 15, 17 -> 5
  // (5.25), 4 (4.25), 4 (3.75), 4; lane 1: -5, -4, -4 (-3.75), -4; lane 2:
  // -31, -12, -21, -9 -> -8 (-7.75), -3, -5 (-5.25), -2 (-2.25).
  Bench b = PoolSource();
  b.Add(Pool3x3Padded(true));
  AverageInsn avg;
  avg.acc_addr = 9;
  avg.rows = avg.cols = avg.pitch = 2;
  avg.count = 4;
  avg.lo = -128;
  avg.hi = 127;
  b.Add(With(avg, kPushNext));
  StoreInsn store = Store(2, 2, 2, 256, 16);
  store.acc_addr = 9;
  b.Add(With(store, kPopPrev));
  REQUIRE(b.Run().ok());
  CHECK(b.Signed(256, 4) == std::vector<int>{5, -5, -8, 0});
  CHECK(b.Signed(264, 4) == std::vector<int>{4, -4, -3, 0});
  CHECK(b.Signed(272, 4) == std::vector<int>{4, -4, -5, 0});
  CHECK(b.Signed(280, 4) == std::vector<int>{4, -4, -2, 0});
}

TEST_CASE(
    "the pool stage refuses windows outside the tile or in padding, and results over the source") {
  Bench outside = PoolSource();
  outside.Add(Pool2x2(3, 2, 9));
  CHECK(outside.Run().message() ==
        "instruction 5 (Pool): pooled pixel (2, 1)'s window starts outside the 3x3 source");
  Bench overlap = PoolSource();
  overlap.Add(Pool2x2(2, 2, 8));
  CHECK(overlap.Run().message() ==
        "instruction 5 (Pool): dst_addr entries 8 to 11 overlap the source's 0 to 8");
  Bench padding = PoolSource();
  PoolInsn wholly = Pool3x3Padded(false);
  wholly.pad_x = 3;
  padding.Add(wholly);
  CHECK(padding.Run().message() ==
        "instruction 5 (Pool): pad 1x3 puts window (0, 0) of 3x3 wholly in padding");
}

AverageInsn Average(int64_t acc_addr, int64_t count, int64_t shift) {
  AverageInsn avg;
  avg.acc_addr = acc_addr;
  avg.rows = avg.cols = avg.pitch = 1;
  avg.count = count;
  avg.shift = shift;
  avg.lo = -128;
  avg.hi = 127;
  return avg;
}

TEST_CASE(
    "the pool stage sums 2x2 windows cut at the tile's edge, and Average divides by their taps") {
  // Windows {0, 1, 3, 4} (4 taps), {2, 5} (2), {6, 7} (2), {8} (1). Lane 0:
  // sums 21, 8, -4, 2 -> 5 (5.25), 4, -2, 2; lane 1 (negated): -5 (-5.25),
  // -4, 2, -2; lane 2: -31 -> -8 (-7.75), then 0s. numerics.md §5: rhu_div.
  Bench b = PoolSource();
  PoolInsn sum = Pool2x2(2, 2, 9);
  sum.sum = 1;
  b.Add(sum);
  b.Add(Average(9, 4, 0));
  b.Add(Average(10, 2, 0));
  b.Add(Average(11, 2, 0));
  b.Add(With(Average(12, 1, 0), kPushNext));
  StoreInsn store = Store(2, 2, 2, 256, 16);
  store.acc_addr = 9;
  b.Add(With(store, kPopPrev));
  OpuCounters counters;
  REQUIRE(b.Run(&counters).ok());
  CHECK(b.Signed(256, 4) == std::vector<int>{5, -5, -8, 0});
  CHECK(b.Signed(264, 4) == std::vector<int>{4, -4, 0, 0});
  CHECK(b.Signed(272, 4) == std::vector<int>{-2, 2, 0, 0});
  CHECK(b.Signed(280, 4) == std::vector<int>{2, -2, 0, 0});
  CHECK(counters.post_entries == 9 + 9 + 4);  // Output, the pool's taps, Average
}

// A Clamp that passes `count` entries from `acc_addr` through.
ClampInsn Identity(int64_t acc_addr, int64_t count) {
  ClampInsn c;
  c.acc_addr = acc_addr;
  c.count = count;
  c.lo = -128;
  c.hi = 127;
  return c;
}

// One window over the whole 3x3 map, gathered as two tiles would: row 0,
// then rows 1 and 2 with `accumulate` (which hands the store its token
// when nothing follows). With `staged`, identity stages over each part's
// entries first (two, then one), so each part can be their pass's tail.
void GlobalPool(Bench& b, bool sum, bool last, bool staged = false) {
  if (staged) {
    b.Add(Identity(0, 3));
    b.Add(Identity(0, 3));
  }
  PoolInsn first;
  first.src_rows = first.out_rows = first.out_cols = 1;
  first.src_cols = 3;
  first.dst_addr = 9;
  first.size_y = first.stride_y = 1;
  first.size_x = first.stride_x = 3;
  first.sum = sum;
  b.Add(first);
  if (staged) b.Add(Identity(3, 6));
  PoolInsn rest = first;
  rest.src_addr = 3;
  rest.src_rows = rest.size_y = rest.stride_y = 2;
  rest.accumulate = 1;
  b.Add(last ? With(rest, kPushNext) : rest);
}

TEST_CASE(
    "a global pool gathers its window over tiles: the sum, then the mean at f_out = f_in + 1") {
  // Lane 0: 5 - 3 + 9 + 7 + 12 - 1 - 8 + 4 + 2 = 27: rhu_div(54, 9) = 6;
  // lane 1: -27 -> -6; lane 2: -31: rhu_div(-62, 9) = -7 (-6.89).
  Bench b = PoolSource();
  GlobalPool(b, true, false);
  b.Add(With(Average(9, 9, -1), kPushNext));
  StoreInsn store = Store(1, 1, 1, 256, 8);
  store.acc_addr = 9;
  b.Add(With(store, kPopPrev));
  REQUIRE(b.Run().ok());
  CHECK(b.Signed(256, 4) == std::vector<int>{6, -6, -7, 0});
}

TEST_CASE("a global sum ends the stages over its source: the same sums, gathered over tiles") {
  // The sum of the gather above, each part a tail of the stages before it
  // (hw/rtl/opu_post.sv: a chain of two identity Clamps, then one): lane 0
  // 27 -> rhu_div(54, 9) = 6, lane 1 -6, lane 2 -31 -> -7.
  Bench b = PoolSource();
  GlobalPool(b, true, false, /*staged=*/true);
  b.Add(With(Average(9, 9, -1), kPushNext));
  StoreInsn store = Store(1, 1, 1, 256, 8);
  store.acc_addr = 9;
  b.Add(With(store, kPopPrev));
  OpuCounters counters;
  REQUIRE(b.Run(&counters).ok());
  CHECK(b.Signed(256, 4) == std::vector<int>{6, -6, -7, 0});
  // Output, the Clamps, the taps, Average: a tail counts its taps.
  CHECK(counters.post_entries == 9 + 3 + 3 + 3 + 6 + 6 + 1);
}

TEST_CASE("2x2 max windows at stride 2 end the stages over their 4x4 source, which stays") {
  // Three lanes of a 4x4 map (the third lane apart), passed through as in
  // PoolSource; the windows' maxes worked by hand. On the RTL the pool is
  // the Output's tail (hw/rtl/opu_pool_tail.sv): its second row pair
  // combines with the first's RAM entries.
  const int lane0[] = {5, -3, 9, 7, 12, -1, -8, 4, -6, 2, 3, -2, 0, -9, 11, 1};
  const int lane2[] = {-7, -3, -20, -12, -9, -30, -5, -6, -1, -2, -3, -4, -8, -7, -6, -100};
  Bench b = PassedThrough(4, lane0, lane2);
  PoolInsn pool;
  pool.src_rows = pool.src_cols = 4;
  pool.dst_addr = 16;
  pool.out_rows = pool.out_cols = 2;
  pool.size_y = pool.size_x = pool.stride_y = pool.stride_x = 2;
  b.Add(With(pool, kPushNext));
  StoreInsn pooled = Store(2, 2, 2, 256, 16);
  pooled.acc_addr = 16;
  b.Add(With(pooled, kPopPrev));
  StoreInsn source = Store(1, 4, 4, 320, 32);  // the source's last row, as written
  source.acc_addr = 12;
  b.Add(source);
  OpuCounters counters;
  REQUIRE(b.Run(&counters).ok());
  CHECK(b.Signed(256, 4) == std::vector<int>{12, 3, -3, 0});
  CHECK(b.Signed(264, 4) == std::vector<int>{9, 8, -5, 0});
  CHECK(b.Signed(272, 4) == std::vector<int>{2, 9, -1, 0});
  CHECK(b.Signed(280, 4) == std::vector<int>{11, 2, -3, 0});
  CHECK(b.Signed(320, 4) == std::vector<int>{0, 0, -8, 0});
  CHECK(b.Signed(344, 4) == std::vector<int>{1, -1, -100, 0});
  CHECK(counters.post_entries == 16 + 16);  // the Output's entries, the pool's taps
}

TEST_CASE("2x2 max windows over a source in the accumulator's sums bank: the same maxes") {
  // The test above with the source and the pooled entries in tiny's sums
  // bank (entries 299 to 340), one RAM: the RTL's tail writes a window's
  // pooled entry beside the pass's own write only into another RAM
  // (hw/rtl/opu_pool_tail.sv), so here each waits, its queue fills and the
  // windows after are written from its block RAM once the pass is done.
  const int lane0[] = {5, -3, 9, 7, 12, -1, -8, 4, -6, 2, 3, -2, 0, -9, 11, 1};
  const int lane2[] = {-7, -3, -20, -12, -9, -30, -5, -6, -1, -2, -3, -4, -8, -7, -6, -100};
  constexpr int64_t kSums = 299;
  Bench b = PassedThrough(4, lane0, lane2, kSums);
  PoolInsn pool;
  pool.src_addr = kSums;
  pool.src_rows = pool.src_cols = 4;
  pool.dst_addr = kSums + 16;
  pool.out_rows = pool.out_cols = 2;
  pool.size_y = pool.size_x = pool.stride_y = pool.stride_x = 2;
  b.Add(With(pool, kPushNext));
  StoreInsn pooled = Store(2, 2, 2, 256, 16);
  pooled.acc_addr = kSums + 16;
  b.Add(With(pooled, kPopPrev));
  REQUIRE(b.Run().ok());
  CHECK(b.Signed(256, 4) == std::vector<int>{12, 3, -3, 0});
  CHECK(b.Signed(264, 4) == std::vector<int>{9, 8, -5, 0});
  CHECK(b.Signed(272, 4) == std::vector<int>{2, 9, -1, 0});
  CHECK(b.Signed(280, 4) == std::vector<int>{11, 2, -3, 0});
}

TEST_CASE("a global max pool gathers its window over tiles") {
  Bench b = PoolSource();
  GlobalPool(b, false, true);
  StoreInsn store = Store(1, 1, 1, 256, 8);
  store.acc_addr = 9;
  b.Add(With(store, kPopPrev));
  REQUIRE(b.Run().ok());
  CHECK(b.Signed(256, 4) == std::vector<int>{12, 8, 0, 0});
}

TEST_CASE("Average refuses no taps and a pitch shorter than its rows") {
  Bench none = PoolSource();
  none.Add(Average(0, 0, 0));
  CHECK(none.Run().message() == "instruction 5 (Average): count is 0: an average of no taps");
  Bench pitch = PoolSource();
  AverageInsn avg = Average(0, 4, 0);
  avg.rows = avg.cols = 2;
  pitch.Add(avg);
  CHECK(pitch.Run().message() ==
        "instruction 5 (Average): pitch 1 is less than the 2 sums of a row");
}

}  // namespace
}  // namespace opuc::fsim_test
