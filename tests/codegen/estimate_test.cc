// The cycle estimator (src/codegen/estimate.h) on hand-built units: one
// timeline worked out by hand from the rules docs/codegen.md states, and
// the floor no estimate may go below: the DRAM takes one read or one write a
// cycle, so a group takes at least its start plus every read beat and write.
#include <doctest/doctest.h>

#include "estimate.h"

namespace opuc::codegen {
namespace {

HwConfig Opu1024WithLatency(int64_t latency) {
  HwConfig hw = *HwConfigPreset("opu1024");  // 64 bytes a cycle, 64-byte words
  hw.dram.latency_cycles = latency;
  return hw;
}

TEST_CASE("the estimator's timeline: three units of a load, a computation and a store") {
  // Each unit: a 100-beat load, a 100-cycle Gemm (+1; its last pixel
  // leaves the array's pipeline 6 later: +3, and +4 for the pipeline on
  // opu1024's L = 64, the products' register and three of the adder tree's
  // six levels, less the 1), a store of 100 pixels of 16 bytes (103
  // cycles, 100 word writes). Latency 10.
  // u0: load 7..107, written +13 → 120; compute (8 after) 128..229, drained
  //     235; store 235..338 (writes to 335).
  // u1: load 109..209 (its first beat 2 cycles after u0's last: loads in
  //     flight; no writes yet), written 222; compute max(230, 232)..333,
  //     drained 339; store max(339, 338) = 339..442.
  // u2: load from max(211, 235) = 235: u0's writes fill 235..335, 100 cycles
  //     more (load to 435, u0's store to 438, which pushes u1's to 438..541);
  //     +13 → 448; compute max(456, 336, 438) = 456..557, drained 563; store
  //     max(563, 541) = 563..666.
  CycleEstimate estimate(Opu1024WithLatency(10));
  for (int u = 0; u < 3; ++u) {
    estimate.BeginUnit();
    estimate.Load(100 * 64);
    estimate.Compute(100);
    estimate.Store(100, 100 * 16);
  }
  CHECK(estimate.Total() == 666);
}

TEST_CASE("the estimator's timeline: stores that follow one another wait for the drain") {
  // Each unit: a 10-beat load, a 10-cycle Gemm (17 with the instruction
  // and the array's pipeline), a store of 100 pixels of 16 bytes (103
  // cycles, 100 word writes). Latency 10. The stores limit, so each unit's
  // store starts 4 cycles after the one before ends (the RTL takes a store
  // of n pixels in n + 5 cycles and starts the next 2 later), not at once.
  // u0: load 7..17, written 30; Gemm 38..55; store 55..158 (writes to 155).
  // u1: load 19..29, written 42; Gemm max(50, 55 + 3)..75; store
  //     max(75, 158 + 4) = 162..265.
  // u2: load from u0's Gemm, 55: u0's writes share the DRAM a cycle in two,
  //     10 cycles more (u0's store to 168, which moves u1's to 172..275),
  //     written 88; Gemm after u0's store, 168..185; store
  //     max(185, 275 + 4) = 279..382 (without the drain: 374).
  CycleEstimate estimate(Opu1024WithLatency(10));
  for (int u = 0; u < 3; ++u) {
    estimate.BeginUnit();
    estimate.Load(10 * 64);
    estimate.Compute(10);
    estimate.Store(100, 100 * 16);
  }
  CHECK(estimate.Total() == 382);
}

TEST_CASE("the estimator's timeline: post stages beside the next unit's Gemms, in one pass") {
  // Each unit: a 10-beat load, a 100-cycle Gemm (+1, drained 6 later),
  // two post stages of 100 entries streamed in one pass (100 + 3, +1 for
  // the register between the two stages, +4 for each stage's pipeline:
  // 112), a store of 10 pixels of 16 bytes (13 cycles, 10 word writes).
  // Latency 10: a load takes 10 + 10 + 3.
  // u0: load 7..17, written 30; Gemm 38..139, drained 145; post 146..258;
  //     store 258..271 (writes to 268).
  // u1: load 19..29, written 42; Gemm after u0's and its two post
  //     instructions entering the queue: max(50, 139 + 3 + 2) = 144..245,
  //     beside u0's post; post max(252, 258)..370; store 370..383.
  // u2: load from u0's computation, 258: u0's writes fill 258..268, so the
  //     load ends at 258 + 20 + 13 = 291 (u0's store at 281); Gemm
  //     max(299, 250, 281) = 299..400, drained 406; post 407..519; store 519..532.
  CycleEstimate estimate(Opu1024WithLatency(10));
  for (int u = 0; u < 3; ++u) {
    estimate.BeginUnit();
    estimate.Load(10 * 64);
    estimate.Compute(100);
    estimate.Post(100);
    estimate.Post(100, /*joins=*/true);
    estimate.Store(10, 10 * 16);
  }
  CHECK(estimate.Total() == 532);
}

TEST_CASE("the estimator's Gemms back to back: a cycle later where one reads the last's entry") {
  // One unit: no load bytes (written 20), then Gemms of 10, 10 and 1
  // pixels, each 1 more (the next issues as the one before issues its
  // last), and a store of no pixels (3). The first two write entries 0..9,
  // the second's first (0) far from the first's last (9). The third writes
  // entry 9, the second's last: its read would meet that write, so it
  // starts a cycle later; at entry 30 it does not.
  // Gemms 28..39..50..53 (52 at entry 30), drained 6 later; store 59..62.
  for (const int64_t entry : {9, 30}) {
    CycleEstimate estimate(Opu1024WithLatency(10));
    estimate.BeginUnit();
    estimate.Load(0);
    estimate.Compute(10, 0, 10);
    estimate.Compute(10, 0, 10);
    estimate.Compute(1, entry, entry + 1);
    estimate.Store(0, 0);
    CHECK(estimate.Total() == (entry == 9 ? 62 : 61));
  }
}

TEST_CASE("the estimator's Load of nothing: the unit's tokens, no DRAM latency") {
  // One unit, latency 10: a load of no bytes still asks the DRAM and is
  // written 10 + 3 after it asks (7 → 20), a Load of nothing only by its
  // writers' 2 cycles (7 → 9); then the Gemm 8 later (100 + 1, drained 6
  // later) and a store of no pixels (3): 28..129..135..138 and 17..118..124..127.
  for (const bool tokens_only : {false, true}) {
    CycleEstimate estimate(Opu1024WithLatency(10));
    estimate.BeginUnit();
    if (tokens_only)
      estimate.TokenLoad();
    else
      estimate.Load(0);
    estimate.Compute(100);
    estimate.Store(0, 0);
    CHECK(estimate.Total() == (tokens_only ? 127 : 138));
  }
}

TEST_CASE("the estimator's post slices: a slice's store waits for its own stages") {
  // One unit: a 10-beat load (7..17, written 30), a 100-cycle Gemm (+1)
  // 38..139, drained 145, then two slices of 50 entries, each an Output (50 + 3 + 4 = 57)
  // and a store of 50 pixels of 16 bytes (53, the second 4 more for the
  // first's drain). The stages run 146..203 and 203..260; the first slice's
  // store 203..256, the second's after its stages, 260..317. Unsliced the
  // store would wait for both: 260..370.
  for (const bool sliced : {true, false}) {
    CycleEstimate estimate(Opu1024WithLatency(10));
    estimate.BeginUnit();
    estimate.Load(10 * 64);
    estimate.Compute(100);
    for (int k = 0; k < 2; ++k) {
      estimate.Post(50);
      if (sliced) estimate.EndPostSlice();
    }
    for (int k = 0; k < 2; ++k) {
      estimate.Store(50, 50 * 16);
      if (sliced) estimate.EndStoreSlice();
    }
    CHECK(estimate.Total() == (sliced ? 317 : 370));
  }
}

TEST_CASE("the estimator's post queue: twelve post instructions hold the next unit's Gemm") {
  // u0: a 10-beat load (written 30), a Gemm 38..139 (drained 145), then four slices of
  // three stages of 10 entries streamed in one pass (17 + 5 + 5 = 27 each:
  // 146..173..200..227..254), each slice's store 13 cycles after its
  // stages (173..186, 200..213, 227..240, 254..267). Twelve post
  // instructions and a queue of eight: the last enters as the second
  // slice's pass leaves the queue, at 173, and u1's Gemm issues after it:
  // u1's load 19..29 (written 42), its Gemm max(50, 139 + 3 + 12, 173 + 3)
  // = 176..277, drained 283, its store 283..296. Without the queue the Gemm
  // would start at 154.
  CycleEstimate estimate(Opu1024WithLatency(10));
  estimate.BeginUnit();
  estimate.Load(10 * 64);
  estimate.Compute(100);
  for (int k = 0; k < 4; ++k) {
    estimate.Post(10);
    estimate.Post(10, /*joins=*/true);
    estimate.Post(10, /*joins=*/true);
    estimate.EndPostSlice();
  }
  for (int k = 0; k < 4; ++k) {
    estimate.Store(10, 10 * 16);
    estimate.EndStoreSlice();
  }
  estimate.BeginUnit();
  estimate.Load(10 * 64);
  estimate.Compute(100);
  estimate.Store(10, 10 * 16);
  CHECK(estimate.Total() == 296);
}

TEST_CASE("the estimator's accumulator quarters: a unit's Gemms wait for the store four before") {
  // Three units of no load bytes (each written 13 cycles after it asks), a
  // Gemm (+1, then 6 to drain the array's pipeline), a 10-entry post pass
  // (17 cycles) and a 300-pixel store (303) that writes nothing to DRAM;
  // u2's Gemm is of 600 cycles.
  // u0: load written 20; Gemm 28..129, drained 135; post 136..153; store 153..456.
  // u1: written 22; Gemm 129 + 3 + 1 = 133..234; post 241..258; store 456..759.
  // u2: its load waits for u0's computation: 153, written 166. With two
  //     regions its Gemm waits for u0's store, 456..1057, drained 1063; post
  //     1064..1081; store 1081..1384. With four it waits only for u1's Gemm:
  //     238..839, drained 845; post 846..863; store after u1's, 863..1166.
  for (const int64_t regions : {2, 4}) {
    CycleEstimate estimate(Opu1024WithLatency(10));
    estimate.AccRegions(regions);
    for (int u = 0; u < 3; ++u) {
      estimate.BeginUnit();
      estimate.Load(0);
      estimate.Compute(u == 2 ? 600 : 100);
      estimate.Post(10);
      estimate.Store(300, 0);
    }
    CHECK(estimate.Total() == (regions == 2 ? 1384 : 1166));
  }
}

TEST_CASE("the estimator's slots: loads wait for the unit four before, Gemms for their bank") {
  // Latency 200; four accumulator regions. Three units of no load bytes
  // (each written 203 cycles after it asks), a Gemm (+1, drained 6 later),
  // a post pass of 10 entries (17 cycles; u0's of 250: 257) and a 10-pixel
  // store (13) that writes nothing to DRAM.
  // u0: asks 7, written 210; Gemm 218..319, drained 325; post 326..583;
  //     store 583..596.
  // u1: asks 9, written 212; Gemm 319 + 3 + 1 = 323..424; post 583..600;
  //     store 600..613.
  // u2: with two slots its load waits for u0's computation: asks 583,
  //     written 786; Gemm 794..895, drained 901; post 902..919; store
  //     919..932. With four it asks at 11, written 214, and its Gemm waits
  //     for u1's (424 + 4) and for u0's post stages, in its bank (the bank
  //     rule: 583 + 1): 584..685, drained 691; post 692..709; store 709..722.
  for (const int64_t slots : {2, 4}) {
    CycleEstimate estimate(Opu1024WithLatency(200));
    estimate.AccRegions(4);
    estimate.UnitSlots(slots);
    for (int u = 0; u < 3; ++u) {
      estimate.BeginUnit();
      estimate.Load(0);
      estimate.Compute(100);
      estimate.Post(u == 0 ? 250 : 10);
      estimate.Store(10, 0);
    }
    CHECK(estimate.Total() == (slots == 2 ? 932 : 722));
  }
}

TEST_CASE("the estimator's early token: a unit's last Gemm frees its slots, not its post pass") {
  // The units of the case above, two slots. Without the early token u2's
  // load waits for u0's computation, its post pass included (583): 932.
  // With it, u0's Gemm gives the token as it retires, 325 (nothing older
  // is still running): u2 asks at 325, written 528, and its Gemm waits for
  // u1's (424 + 4), its load (528 + 8) and, in u0's bank, u0's post stages
  // (583 + 1): 584..685, drained 691; post 692..709; store 709..722.
  for (const bool early : {false, true}) {
    CycleEstimate estimate(Opu1024WithLatency(200));
    estimate.AccRegions(4);
    estimate.UnitSlots(2);
    for (int u = 0; u < 3; ++u) {
      estimate.BeginUnit();
      estimate.Load(0);
      estimate.Compute(100);
      if (early) estimate.FreesAtGemm();
      estimate.Post(u == 0 ? 250 : 10);
      estimate.Store(10, 0);
    }
    CHECK(estimate.Total() == (early ? 722 : 932));
  }
}

TEST_CASE("the estimator's store queue: seventeen stores hold the next unit's loads") {
  // u0: a 10-beat load (written 30), a Gemm 38..139 (drained 145), then 17 stores of 10
  // pixels (13 cycles, 17 each after the first): 145..430. u1's loads come
  // after them in program order, and the store queue holds 16, so its load
  // (no bytes: nothing meets the writes) waits for u0's first store to
  // start, 145, and 3 more: asked at 148, written 148 + 10 + 3 = 161; its
  // 400-cycle Gemm (+1) 169..570, drained 576; its store 576..589. Without
  // the queue the load would go at 19 and the Gemm at 139 + 3: 562.
  CycleEstimate estimate(Opu1024WithLatency(10));
  estimate.BeginUnit();
  estimate.Load(10 * 64);
  estimate.Compute(100);
  for (int k = 0; k < 17; ++k) estimate.Store(10, 10 * 16);
  estimate.BeginUnit();
  estimate.Load(0);
  estimate.Compute(400);
  estimate.Store(10, 10 * 16);
  CHECK(estimate.Total() == 589);
}

TEST_CASE("the estimator's loads in flight: a chain pays the latency once, four at most") {
  // One unit of six 1-beat loads, a 100-cycle Gemm (+3, +4) and a store of
  // 10 pixels (13 cycles). Latency 10: a load is written 13 cycles after its
  // beat's end, the next asks 2 cycles after it, and the fifth waits for the
  // first to be written (a cycle after it is):
  // loads 7..8 (written 21), 10..11 (24), 13..14 (27), 16..17 (30); the fifth
  // from max(19, 22) = 22..23 (36), the sixth from max(25, 25) = 25..26 (39).
  // Gemm 47..154; store 154..167. One after another the loads would end at
  // 7 + 6 x 14 = 91.
  CycleEstimate estimate(Opu1024WithLatency(10));
  estimate.BeginUnit();
  for (int k = 0; k < 6; ++k) estimate.Load(64);
  estimate.Compute(100);
  estimate.Store(10, 10 * 16);
  CHECK(estimate.Total() == 167);
}

TEST_CASE("the estimator's loads in flight: a frame's zeros wait for the load before's writes") {
  // One unit: a 100-beat load, then a 10-beat load into a frame of 50 units
  // in 5 rows (40 zeros), a 100-cycle Gemm (+3, +4) and a store of 10
  // pixels (13 cycles). Latency 10. The first load asks 7..107 and is
  // written at 120 (its writers: 100 beats, a turn at its row, a cycle to
  // finish, from 7: 109, earlier). The second asks 109..119 but its writers
  // take it at 120: 50 units, 5 turns and a cycle, to 176 (its reads
  // alone: 132). Gemm 184..291; store 291..304.
  CycleEstimate estimate(Opu1024WithLatency(10));
  estimate.BeginUnit();
  estimate.Load(100 * 64);
  estimate.Load(10 * 64, 0, 0, /*frame=*/50, /*frame_rows=*/5);
  estimate.Compute(100);
  estimate.Store(10, 10 * 16);
  CHECK(estimate.Total() == 304);
}

TEST_CASE("the estimator's timeline: a new window's loads go before the token of unit u-2") {
  // Three units, latency 10, stores of no pixels (3 cycles, no writes).
  // u0: a 100-beat load 7..107, written 120; Gemm (100 + 1) 128..229,
  // drained (+6) 235.
  // u1: a 1-beat load 109..110, written 123; Gemm after u0's (+3) 232..333.
  // u2: a 100-beat window, then a 1-beat weight row that waits for u0's
  // token (235). Window first: 112..212, written 225; the weight row
  // 235..236, written 249; Gemm max(257, 336) = 336..437, drained 443;
  // store 443..446.
  // Both after the token: the window 235..335, written 348; the weight row
  // 337..338, written 351; Gemm 359..460, drained 466; store 466..469.
  int64_t totals[2] = {};
  for (int window_first = 0; window_first < 2; ++window_first) {
    CycleEstimate estimate(Opu1024WithLatency(10));
    for (int u = 0; u < 3; ++u) {
      estimate.BeginUnit();
      if (u == 2) {
        estimate.LoadsWaitFrom(window_first);
        estimate.Load(100 * 64);
      }
      estimate.Load(u == 0 ? 100 * 64 : 64);
      estimate.Compute(100);
      estimate.Store(0, 0);
    }
    totals[window_first] = estimate.Total();
  }
  CHECK(totals[0] == 469);
  CHECK(totals[1] == 446);
}

TEST_CASE("the estimator's Table: its pass first copies the table, a row of L bytes a cycle") {
  // One unit whose post pass (an Output, a Table joined to it) ends after
  // its Gemm, so its store waits for it: the Table's copy of 257 entries of
  // two bytes adds ceil(514 / 64) = 9 cycles on opu1024 (opu_post.sv's
  // TABLE_ROWS) and ceil(514 / 8) = 65 on tiny.
  for (const auto& [preset, fill] : {std::pair{"opu1024", 9}, std::pair{"tiny", 65}}) {
    int64_t totals[2] = {};
    for (int with_table = 0; with_table < 2; ++with_table) {
      CycleEstimate estimate(*HwConfigPreset(preset));
      estimate.BeginUnit();
      estimate.Load(64);
      estimate.Compute(100);
      estimate.Post(100);
      estimate.Post(100, /*joins=*/true);
      if (with_table) estimate.TableFill();
      estimate.Store(10, 10 * 16);
      totals[with_table] = estimate.Total();
    }
    CHECK(totals[1] - totals[0] == fill);
  }
}

TEST_CASE("the estimator's timeline: a paced load keeps its pace, the writes it meets wait") {
  // The first test case's units, but u2's load is of compact pixels: 50
  // beats paced to 100 pixels written, a read every second cycle over 100
  // cycles. u0 and u1 as there: u0's store 235..338 (writes to 335), u1's
  // 345..448. u2: load 235..335, where u0's 100 writes fall; the DRAM then
  // serves a read and a write every second cycle (sim/dram_model.h), so
  // the reads keep their pace and each costs the writes a cycle: u0's
  // writes to 385, its store to 388, which pushes u1's to 392..495 (the
  // drain after it: stores that follow one another). Load written 348;
  // compute max(356, 345 + 3, 388) = 388..495; store max(495, 495 + 4) =
  // 499..602 (with 100 beats unpaced: 666).
  CycleEstimate estimate(Opu1024WithLatency(10));
  for (int u = 0; u < 3; ++u) {
    estimate.BeginUnit();
    if (u < 2)
      estimate.Load(100 * 64);
    else
      estimate.Load(50 * 64, 0, /*written=*/100);
    estimate.Compute(100);
    estimate.Store(100, 100 * 16);
  }
  CHECK(estimate.Total() == 602);
}

// Three units of a 100-beat load that writes 100 units of the feature-map
// buffer, a 100-cycle Gemm and a store of 100 pixels of 64 bytes, into the
// feature-map buffer (`to_fm`) or DRAM, with latency 10.
int64_t StoresAfterWindowLoads(bool to_fm) {
  CycleEstimate estimate(Opu1024WithLatency(10));
  for (int u = 0; u < 3; ++u) {
    estimate.BeginUnit();
    estimate.Load(100 * 64, 0, 0, /*frame=*/100);
    estimate.Compute(100);
    estimate.Store(100, 100 * 64, 100, to_fm);
  }
  return estimate.Total();
}

TEST_CASE("the estimator's timeline: a store into the feature map waits for the loads' writes") {
  // As the first test case to u2's load: u0's store 235..338 (writes to
  // 335), u1's 345..448. u2's load reads 235..335, and writes a unit a
  // cycle, as u0's store wants to.
  // Into the feature-map buffer, whose write port the loads take first:
  // the load keeps its pace (written 348), u0's store waits its 100 cycles
  // (to 438, moving u1's to 442..545); u2 computes once u0's store is done,
  // 438..545; its store max(545, 545 + 4) = 549..652.
  CHECK(StoresAfterWindowLoads(true) == 652);
  // Into DRAM, which takes a read and a write each every second cycle:
  // both go at half pace over 200 cycles, the load's reads to 435 (written
  // 448), u0's store to 438; u2 computes 456..563, stores 563..666.
  CHECK(StoresAfterWindowLoads(false) == 666);
}

// One unit as in the first test case (a 100-beat load, a 100-cycle Gemm, a
// store of 100 pixels: 345 cycles with latency 10) and its 8 instructions,
// `prefetched` of them read before the start.
int64_t FetchedUnitTotal(int64_t prefetched) {
  CycleEstimate estimate(Opu1024WithLatency(10));
  estimate.Prefetched(prefetched);
  estimate.BeginUnit();
  estimate.Fetch(8);
  estimate.Load(100 * 64);
  estimate.Compute(100);
  estimate.Store(100, 100 * 16);
  return estimate.Total();
}

TEST_CASE("the estimator's fetch: the first instruction a latency late, each unit's bytes first") {
  // The 8 instructions are 128 bytes: 2 cycles of opu1024's 64 bytes a
  // cycle. The start waits 10 for the first instruction: load 19..119,
  // +13 → 132; compute 140..247; store 247..350.
  CHECK(FetchedUnitTotal(0) == 350);
}

TEST_CASE("the estimator's prefetch: the words read while the step before ran wait for no DRAM") {
  // The fetch unit's 8 chunks: a beat of 64 bytes holds 4 words on
  // opu1024; tiny's 16-byte word spans beats, a chunk a word.
  CHECK(CycleEstimate::PrefetchWords(64) == 32);
  CHECK(CycleEstimate::PrefetchWords(8) == 8);
  // All 8 of the unit above: no latency, no bytes before the load, which
  // asks 3 cycles after the start (the word's decode, its queue, the
  // shell's start): load 3..103, +13 → 116; compute 124..231; store
  // 231..334.
  CHECK(FetchedUnitTotal(32) == 334);
  // 4 of them: the other 4, 64 bytes, take a cycle first: load 4..104,
  // +13 → 117; compute 125..232; store 232..335.
  CHECK(FetchedUnitTotal(4) == 335);
}

TEST_CASE("the estimator's fetch queue: a unit of more Gemms than it holds delays the next loads") {
  // Two units, each a 300-beat load, 20 one-pixel Gemms and a store of one
  // 16-byte pixel (4 cycles, 1 write). Latency 10. A one-pixel Gemm takes
  // 2 cycles (+1) but starts only 7 after the one two before ends (two in
  // flight): Gemm 2k from 9k, 2k + 1 from 9k + 2; the 20th ends at 85 and
  // drains by 91. u0: load 7..307, +13 → 320; Gemms 328..413, the fourth
  // issued at 328 + 11 = 339; drained 419; store 419..423 (its write
  // 419..420). u1's loads follow u0's 20th Gemm into the queue of 16, which
  // waits for u0's fourth to issue: load from 339 (not 309, 2 cycles after
  // u0's last beat) to 639, and u0's write falls in it: 640, +13 → 653;
  // Gemms max(661, 413 + 3) = 661..746, drained 752; store 752..756.
  CycleEstimate estimate(Opu1024WithLatency(10));
  for (int u = 0; u < 2; ++u) {
    estimate.BeginUnit();
    estimate.Load(300 * 64);
    for (int g = 0; g < 20; ++g) estimate.Compute(1);
    estimate.Store(1, 16);
  }
  CHECK(estimate.Total() == 756);
}

TEST_CASE("no estimate is shorter than the DRAM's reads and writes one a cycle") {
  // Loads and stores of every proportion, the DRAM the bottleneck or not,
  // loads paced to their writes (compact pixels) or not: the stores' writes
  // meet several units' loads, and a store a read delayed delays the
  // stores after it.
  for (int64_t latency : {10, 64})
    for (int64_t beats = 50; beats <= 500; beats += 50)
      for (int64_t pixels : {100, 300, 700})
        for (int64_t compute : {50, 400})
          for (int64_t written : {int64_t{0}, 2 * beats, 4 * beats / 3}) {  // paced or not
            CAPTURE(written);
            CAPTURE(latency);
            CAPTURE(beats);
            CAPTURE(pixels);
            CAPTURE(compute);
            CycleEstimate estimate(Opu1024WithLatency(latency));
            const int64_t units = 6;
            for (int64_t u = 0; u < units; ++u) {
              estimate.BeginUnit();
              estimate.Load(beats * 64, 0, written);
              estimate.Compute(compute);
              estimate.Store(pixels, pixels * 16);  // a word written per pixel
            }
            CHECK(estimate.Total() >= CycleEstimate::kStartCycles + units * (beats + pixels));
          }
}

}  // namespace
}  // namespace opuc::codegen
