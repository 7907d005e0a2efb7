// The post-processing stages, the token counters and the engine queue of
// hw/rtl, each driven on its own (hw/tb/opu_stages_tb.sv, tiny's shapes:
// 4 lanes of 48 bits, 8-byte param slots, 8-byte feature-map rows) with
// values computed by hand from docs/numerics.md: the ties, the saturations
// and the shifts the random tests may never draw.
#include <doctest/doctest.h>

#include <initializer_list>

#include "stages_bench.h"

namespace {

using opuc::test::Bench;
using opuc::test::Lane;

TEST_CASE("output stage: acc x M / 2^S rounded half up, saturated, any shift") {
  Bench b;
  b.Entry(0, 1000);  // 1000 x 3 / 16 = 187.5 -> 188, then i8's 127
  b.Param(0, 3, 4, 0);
  b.Entry(1, -8);  // -8 / 16 = -0.5 -> 0 (half up, not away from zero)
  b.Param(1, 1, 4, 0);
  b.Entry(2, -24);  // -24 / 16 = -1.5 -> -1
  b.Param(2, 1, 4, 0);
  b.Entry(3, 5);  // 5 x 2^3 = 40: a negative S shifts left, exactly
  b.Param(3, 1, -3 & 255, 0);
  b.Settle();
  CHECK(Lane(b.tb->output_stage_o, 0) == 127);
  CHECK(Lane(b.tb->output_stage_o, 1) == 0);
  CHECK(Lane(b.tb->output_stage_o, 2) == -1);
  CHECK(Lane(b.tb->output_stage_o, 3) == 40);
  b.Range(-32768, 32767);  // i16
  b.Settle();
  CHECK(Lane(b.tb->output_stage_o, 0) == 188);
  // The whole 48 bits times -32768, shifted by 100: rounds to 0; shifted
  // left by 30: saturates low.
  b.Entry(0, (int64_t{1} << 47) - 1);
  b.Param(0, -32768, 100, 0);
  b.Entry(1, 3);
  b.Param(1, -1, -30 & 255, 0);
  b.Settle();
  CHECK(Lane(b.tb->output_stage_o, 0) == 0);
  CHECK(Lane(b.tb->output_stage_o, 1) == -32768);
}

TEST_CASE("compare stage: relu's shift, and prelu's slope before its one rounding") {
  Bench b;
  b.Range(0, 255);  // u8: a relu into 8 unsigned bits
  b.tb->shift_i = 2;
  b.Entry(0, -7);    // clamped to 0
  b.Entry(1, 6);     // 6 / 4 = 1.5 -> 2
  b.Entry(2, 1100);  // 275 -> 255
  b.Entry(3, 5);     // 1.25 -> 1
  b.Settle();
  CHECK(Lane(b.tb->compare_o, 0) == 0);
  CHECK(Lane(b.tb->compare_o, 1) == 2);
  CHECK(Lane(b.tb->compare_o, 2) == 255);
  CHECK(Lane(b.tb->compare_o, 3) == 1);
  b.Range(-128, 127);
  b.tb->prelu_i = 1;
  b.tb->shift_i = 1;      // q >= 0: q / 2
  b.tb->neg_shift_i = 3;  // q < 0: q x alpha / 8
  b.Param(0, 0, 0, 3);
  b.Param(1, 0, 0, -2 & 255);
  b.Entry(0, -5);  // -15 / 8 = -1.875 -> -2
  b.Entry(1, -4);  // 8 / 8 = 1: a negative slope turns it positive
  b.Entry(2, 9);   // 4.5 -> 5
  b.Entry(3, -1000);
  b.Param(3, 0, 0, 127);  // -127000 / 8 -> -128
  b.Settle();
  CHECK(Lane(b.tb->compare_o, 0) == -2);
  CHECK(Lane(b.tb->compare_o, 1) == 1);
  CHECK(Lane(b.tb->compare_o, 2) == 5);
  CHECK(Lane(b.tb->compare_o, 3) == -128);
}

TEST_CASE(
    "residual add: aligned up exactly, one rounding, lanes past res_lanes add 0, and multiply") {
  Bench b;
  // Row bytes: lane 2 onwards are the residual's 4 bytes (res_lane 2, a
  // multiple of tiny's half granule).
  b.tb->row_i = 0;
  const uint8_t row[8] = {99, 42, 10, 0xF6 /* -10 */, 200, 7, 0, 0};
  for (int i = 0; i < 8; ++i) b.tb->row_i |= static_cast<uint64_t>(row[i]) << (8 * i);
  b.tb->res_lane_i = 2;
  b.tb->res_lanes_i = 3;
  b.tb->acc_shift_i = 1;  // acc at f, residual at f + 1: F = f + 1
  b.tb->res_shift_i = 0;
  b.tb->out_shift_i = 1;  // back to f
  b.Entry(0, 20);         // (40 + 10) / 2 = 25
  b.Entry(1, 3);          // (6 - 10) / 2 = -2
  b.Entry(2, 100);        // (200 + (signed) 200 = -56) / 2 = 72
  b.Entry(3, 5);          // lane 3 is past res_lanes: (10 + 0) / 2 = 5
  b.Settle();
  CHECK(Lane(b.tb->residual_add_o, 0) == 25);
  CHECK(Lane(b.tb->residual_add_o, 1) == -2);
  CHECK(Lane(b.tb->residual_add_o, 2) == 72);
  CHECK(Lane(b.tb->residual_add_o, 3) == 5);
  b.tb->res_format_i = 1;  // u8: 200 is 200 now; -10 is 246
  b.Settle();
  CHECK(Lane(b.tb->residual_add_o, 1) == 126);  // (6 + 246) / 2
  CHECK(Lane(b.tb->residual_add_o, 2) == 127);  // (200 + 200) / 2 = 200 -> 127
  // i16: the high row's bytes (signed) over the row's (unsigned): lane 0
  // is 0xFF·256 + 10 = -246, lane 1 is 1·256 + 246 = 502, lane 2 0·256 + 200.
  b.tb->res_format_i = 2;
  b.tb->high_row_i = 0;
  const uint8_t high[8] = {0, 0, 0xFF, 1, 0, 0, 0, 0};
  for (int i = 0; i < 8; ++i) b.tb->high_row_i |= static_cast<uint64_t>(high[i]) << (8 * i);
  b.Range(-32768, 32767);
  b.Settle();
  CHECK(Lane(b.tb->residual_add_o, 0) == -103);  // (40 - 246) / 2
  CHECK(Lane(b.tb->residual_add_o, 1) == 254);   // (6 + 502) / 2
  CHECK(Lane(b.tb->residual_add_o, 2) == 200);   // (200 + 200) / 2
  CHECK(Lane(b.tb->residual_add_o, 3) == 5);     // past res_lanes
  // multiply: the exact products of the same operands over 2^4, ties up.
  b.tb->multiply_i = 1;
  b.tb->acc_shift_i = 0;
  b.tb->out_shift_i = 4;
  b.Settle();
  CHECK(Lane(b.tb->residual_add_o, 0) == -307);  // 20 · -246 = -4920: -307.5
  CHECK(Lane(b.tb->residual_add_o, 1) == 94);    // 3 · 502 = 1506: 94.125
  CHECK(Lane(b.tb->residual_add_o, 2) == 1250);  // 100 · 200 = 20000
  CHECK(Lane(b.tb->residual_add_o, 3) == 0);     // past res_lanes: times 0
}

TEST_CASE("average: sum over taps rounded half up once, with the fraction change") {
  Bench b;
  b.Range(-32768, 32767);
  b.tb->count_i = 2;
  b.tb->avg_shift_i = 0;
  b.Entry(0, 5);    // 2.5 -> 3
  b.Entry(1, -5);   // -2.5 -> -2
  b.Entry(2, -6);   // -3
  b.Entry(3, 100);  // 50
  CHECK(b.PrepareAverage() == 20);
  b.Settle();  // the entries through the pipeline with the divisor's reciprocal
  CHECK(Lane(b.tb->average_o, 0) == 3);
  CHECK(Lane(b.tb->average_o, 1) == -2);
  CHECK(Lane(b.tb->average_o, 2) == -3);
  CHECK(Lane(b.tb->average_o, 3) == 50);
  b.tb->count_i = 9;
  b.tb->avg_shift_i = 2;  // f_out = f_in - 2: divide by 9 x 4 = 36
  b.Entry(0, 18);         // 0.5 -> 1
  b.Entry(1, -18);        // -0.5 -> 0
  b.PrepareAverage();
  b.Settle();
  CHECK(Lane(b.tb->average_o, 0) == 1);
  CHECK(Lane(b.tb->average_o, 1) == 0);
  b.tb->avg_shift_i = -3 & 31;  // 5 bits: f_out = f_in + 3, (sum x 8) / 9
  b.PrepareAverage();
  b.Settle();
  CHECK(Lane(b.tb->average_o, 0) == 16);   // 144 / 9
  CHECK(Lane(b.tb->average_o, 1) == -16);  // -144 / 9
  CHECK(Lane(b.tb->average_o, 2) == -5);   // -48 / 9 = -5.33
  CHECK(Lane(b.tb->average_o, 3) == 89);   // 800 / 9 = 88.9 -> 89
}

TEST_CASE("average: large sums, odd counts, ties and the clamp's edges, without a divider") {
  Bench b;
  b.Range(-100, 100);
  b.tb->count_i = 1000003;  // a prime near 2^20
  b.tb->avg_shift_i = 15;   // divide by 1000003 x 2^15 = 32768098304
  b.PrepareAverage();
  b.Entry(0, 3276809830400);   // exactly 100: hi
  b.Entry(1, 3276809830399);   // 99.99999999997 -> 100
  b.Entry(2, -3260425781248);  // -99.5 exactly: a tie, up to -99
  b.Entry(3, -3260425781249);  // just below -99.5: -100
  b.Settle();
  CHECK(Lane(b.tb->average_o, 0) == 100);
  CHECK(Lane(b.tb->average_o, 1) == 100);
  CHECK(Lane(b.tb->average_o, 2) == -99);
  CHECK(Lane(b.tb->average_o, 3) == -100);
  b.Entry(0, 3309577928704);           // 101.0: clamped to hi
  b.Entry(1, -3309577928704);          // -101.0: clamped to lo
  b.Entry(2, (int64_t{1} << 47) - 1);  // the largest sum: 4295.0 -> hi
  b.Entry(3, 16384049152);             // 0.5 exactly: up to 1
  b.Settle();
  CHECK(Lane(b.tb->average_o, 0) == 100);
  CHECK(Lane(b.tb->average_o, 1) == -100);
  CHECK(Lane(b.tb->average_o, 2) == 100);
  CHECK(Lane(b.tb->average_o, 3) == 1);
  b.Range(-32768, 32767);
  b.tb->count_i = 3;
  b.tb->avg_shift_i = -16 & 31;  // (sum x 2^16) / 3
  b.PrepareAverage();
  b.Entry(0, 1);   // 65536 / 3 = 21845.33 -> 21845
  b.Entry(1, 2);   // 131072 / 3 = 43690.7: past hi
  b.Entry(2, -1);  // -21845.33 -> -21845
  b.Entry(3, -2);  // -43690.7: past lo
  b.Settle();
  CHECK(Lane(b.tb->average_o, 0) == 21845);
  CHECK(Lane(b.tb->average_o, 1) == 32767);
  CHECK(Lane(b.tb->average_o, 2) == -21845);
  CHECK(Lane(b.tb->average_o, 3) == -32768);
}

TEST_CASE("tokens: given and taken in one cycle, per neighbour, the queue keeps order") {
  Bench b;
  auto& tb = *b.tb;
  tb.give_next_i = 0b001;  // load gives compute a token
  b.Clock();
  tb.give_next_i = 0;
  CHECK(tb.has_prev_o == 0b010);  // compute sees it
  CHECK(tb.leftover_o == 1);
  tb.take_prev_i = 0b010;  // compute takes it while store gives compute one
  tb.give_prev_i = 0b100;
  b.Clock();
  tb.take_prev_i = 0;
  tb.give_prev_i = 0;
  CHECK(tb.has_prev_o == 0);
  CHECK(tb.has_next_o == 0b010);  // from store
  tb.take_next_i = 0b010;
  b.Clock();
  tb.take_next_i = 0;
  CHECK(tb.leftover_o == 0);

  // The queue: entries pushed a cycle each, in order.
  const auto push = [&](std::initializer_list<int> values) {
    for (int v : values) {
      tb.push_i = 1;
      tb.push_data_i = static_cast<uint8_t>(v);
      b.Clock();
    }
    tb.push_i = 0;
  };
  push({7, 8, 9});
  CHECK(tb.count_o == 3);
  for (int v : {7, 8, 9}) {
    CHECK(tb.head_o == v);
    tb.pop_i = 1;
    b.Clock();
  }
  tb.pop_i = 0;
  CHECK(tb.empty_o == 1);

  // A clear drops what the queue holds (two entries, its read and write
  // places away from 0): the entry pushed next is the head, alone.
  push({1, 2});
  tb.clear_i = 1;
  b.Clock();
  tb.clear_i = 0;
  CHECK(tb.empty_o == 1);
  CHECK(tb.count_o == 0);
  push({5});
  CHECK(tb.count_o == 1);
  CHECK(tb.head_o == 5);
}

}  // namespace
