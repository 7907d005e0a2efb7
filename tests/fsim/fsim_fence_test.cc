// A program of several groups reads back what its own Stores wrote
// (docs/codegen.md, "Runs"): the load engine runs ahead of the store
// engine, so such a Load waits behind a Fence (docs/isa.md). Hand-built
// streams for `tiny`, each result worked out by hand; the same tests run
// on the RTL (opuc_rtl_instruction_tests), which must end with the same
// bytes.
#include "fsim_bench.h"

namespace opuc::fsim_test {
namespace {

FenceInsn Fence(int64_t stores) {
  FenceInsn f;
  f.stores = stores;
  return f;
}

// Group one: pixel [1 2 0 ...] through W[0] = [3 0 ...], bias 100, M 1,
// S 2: 100 + 3 = 103, rhu(103 / 4) = 26, stored at byte 256.
void FirstGroup(Bench& b) {
  b.Bytes(0, {1, 2});
  b.Bytes(64, {3});
  b.Param(128, 0, 100, 1, 2);
  b.Add(Load(0, 0, 0, 1, 1, 8));
  b.Add(Load(1, 0, 64, 1, 1, 32));
  b.Add(With(Load(2, 0, 128, 1, 1, 32), kPushNext));
  b.Add(With(Gemm(0, 1, 1, 1, 1), kPopPrev));
  b.Add(With(Output(1, -128, 127), kPushNext));
  b.Add(With(Store(1, 1, 1, 256, 8), kPopPrev));
}

// Group two reads byte 256 into feature-map row 8 and the same weights
// and params into accumulator entry 8: 100 + 3 x 26 = 178, rhu(178 / 4)
// = 45 (44.5 rounds up), stored at byte 512.
void SecondGroup(Bench& b, bool fenced) {
  if (fenced) b.Add(Fence(1));
  b.Add(With(Load(0, 8, 256, 1, 1, 8), kPushNext));
  GemmInsn gemm = Gemm(8, 1, 1, 1, 1);
  gemm.acc_addr = 8;
  b.Add(With(gemm, kPopPrev));
  OutputInsn out = Output(1, -128, 127);
  out.acc_addr = 8;
  b.Add(With(out, kPushNext));
  StoreInsn store = Store(1, 1, 1, 512, 8);
  store.acc_addr = 8;
  b.Add(With(store, kPopPrev));
}

TEST_CASE("a load of what a Store of the program wrote waits behind a Fence") {
  Bench b;
  FirstGroup(b);
  SecondGroup(b, true);
  REQUIRE(b.Run().ok());
  CHECK(b.Signed(256, 1)[0] == 26);
  CHECK(b.Signed(512, 1)[0] == 45);
}

TEST_CASE("without the Fence the load races the Store, and is refused naming both") {
  Bench b;
  FirstGroup(b);
  SecondGroup(b, false);
  CHECK(b.Run().message() ==
        "instruction 6 (Load) reads DRAM bytes that instruction 5 (Store) writes before it in "
        "the program, with no Fence or token ordering the two: the result would depend on which "
        "engine runs first");
}

TEST_CASE("a Store over bytes an earlier Load reads needs a token after it") {
  Bench b;
  b.Add(Load(0, 0, 0, 1, 1, 8));
  b.Add(Store(1, 1, 1, 0, 8));
  CHECK(b.Run().message() ==
        "instruction 1 (Store) writes DRAM bytes that instruction 0 (Load) reads before it in "
        "the program, with no token ordering the two: the result would depend on which engine "
        "runs first");
}

TEST_CASE("a Fence names only Stores before it, and one no Store can reach deadlocks") {
  SUBCASE("more Stores than come before it") {
    Bench b;
    FirstGroup(b);
    b.Add(Fence(2));
    CHECK(b.Run().message() ==
          "instruction 6 (Fence): waits for 2 Stores; 1 come before it in the program");
  }
  SUBCASE("a Store that waits for a load behind the Fence") {
    Bench b;
    b.Add(With(Gemm(0, 1, 1, 1, 2), Deps{true, false, false, true}));
    b.Add(With(Store(1, 1, 1, 256, 8), kPopPrev));
    b.Add(Fence(1));
    b.Add(With(Load(0, 0, 0, 1, 1, 8), kPushNext));
    CHECK(b.Run().message() ==
          "deadlock: load waits at instruction 2 (Fence) for Store 1 (0 done); compute waits at "
          "instruction 0 (Gemm) for a token from load; store waits at instruction 1 (Store) for "
          "a token from compute");
  }
}

}  // namespace
}  // namespace opuc::fsim_test
