// What a program may rely on when the RTL's compute engine runs its post
// stages beside the array (docs/isa.md, "The machine"): a Gemm waits for
// the stages that touch its entries, and a token means every instruction
// before it is done. Hand-built streams for `tiny`, each result worked out
// by hand; the functional simulator runs them in order, and the same tests
// on the RTL (opuc_rtl_instruction_tests) must end with the same bytes.
// And what a program may not do: touch a buffer row another engine writes,
// or has still to read, without a token between the two (sim/hazards.h).
#include "fsim_bench.h"

namespace opuc::fsim_test {
namespace {

TEST_CASE("a Gemm that adds to entries a post stage rewrites waits for it") {
  // Eight pixels [1 2 0 ...], W[0] = [3 0 ...], bias 100, M 1, S 1: Gemm
  // 103, Output rhu(103 / 2) = 52, Gemm again 55, Output rhu(55 / 2) = 28.
  // Had the second Gemm run beside the first Output (as a Gemm of other
  // entries may, on the RTL) it would have added to 103 or to a mix.
  Bench b;
  for (int p = 0; p < 8; ++p) b.Bytes(p * 8, {1, 2});
  b.Bytes(64, {3});
  for (int j = 0; j < 4; ++j) b.Param(128, j, 100, 1, 1);
  b.Add(Load(0, 0, 0, 1, 8, 64));
  b.Add(Load(1, 0, 64, 1, 1, 32));
  b.Add(With(Load(2, 0, 128, 1, 1, 32), kPushNext));
  b.Add(With(Gemm(0, 8, 1, 8, 1), kPopPrev));
  b.Add(Output(8, -128, 127));
  b.Add(Gemm(0, 8, 1, 8, 0));
  b.Add(With(Output(8, -128, 127), kPushNext));
  b.Add(With(Store(1, 8, 8, 256, 64), kPopPrev));
  REQUIRE(b.Run().ok());
  for (int p = 0; p < 8; ++p) CHECK(b.Signed(256 + p * 8, 1)[0] == 28);
}

TEST_CASE("a token given after a post stage still running means that stage is done") {
  // 32 pixels of zeros and bias 100 with S 1: Output writes 50 in every lane.
  // A one-pixel Gemm of another entry comes next and gives the store its
  // token: on the RTL it finishes first, beside the Output, and may give the
  // token only once the Output is done, or the store, which reads the
  // Output's last 8 entries, would read 100s.
  Bench b;
  for (int j = 0; j < 4; ++j) b.Param(128, j, 100, 1, 1);
  b.Add(Load(0, 0, 512, 1, 32, 256));
  b.Add(Load(1, 0, 64, 1, 1, 32));
  b.Add(With(Load(2, 0, 128, 1, 1, 32), kPushNext));
  b.Add(With(Gemm(0, 32, 1, 32, 1), kPopPrev));
  b.Add(Output(32, -128, 127));
  GemmInsn other = Gemm(0, 32, 1, 1, 1);
  other.acc_addr = 32;
  b.Add(With(other, kPushNext));
  StoreInsn last = Store(1, 8, 8, 768, 64);
  last.acc_addr = 24;
  b.Add(With(last, kPopPrev));
  REQUIRE(b.Run().ok());
  for (int p = 0; p < 8; ++p) CHECK(b.Signed(768 + p * 8, 4) == std::vector<int>{50, 50, 50, 50});
}

TEST_CASE("a load over feature-map rows a Gemm still reads is refused, naming both") {
  // Load 3 waits for Gemm 4's token before it rewrites row 0, but Gemm 5
  // reads row 0 too, after that token: it may see either value.
  Bench b;
  b.Add(Load(1, 0, 64, 1, 1, 32));
  b.Add(Load(2, 0, 128, 1, 1, 32));
  b.Add(With(Load(0, 0, 0, 1, 1, 8), kPushNext));
  b.Add(With(Load(0, 0, 8, 1, 1, 8), Deps{false, true, false, false}));
  b.Add(With(Gemm(0, 1, 1, 1, 1), Deps{true, false, true, false}));
  b.Add(Gemm(0, 1, 1, 1, 0));
  b.Add(With(Output(1, -128, 127), kPushNext));
  b.Add(With(Store(1, 1, 1, 256, 8), kPopPrev));
  CHECK(b.Run().message() ==
        "instruction 3 (Load) writes feature-map row 0, which instruction 5 (Gemm) reads, with "
        "no token ordering the two: the result would depend on which engine runs first");
}

TEST_CASE("a store of entries the compute engine has not handed over is refused") {
  Bench b;
  b.Add(Load(0, 0, 0, 1, 1, 8));
  b.Add(Load(1, 0, 64, 1, 1, 32));
  b.Add(With(Load(2, 0, 128, 1, 1, 32), kPushNext));
  b.Add(With(Gemm(0, 1, 1, 1, 1), kPopPrev));
  b.Add(Output(1, -128, 127));
  b.Add(Store(1, 1, 1, 256, 8));  // no token from the compute engine
  CHECK(b.Run().message() ==
        "instruction 5 (Store) reads accumulator entry 0, which instruction 4 (Output) writes, "
        "with no token ordering the two: the result would depend on which engine runs first");
}

TEST_CASE("the checks alone, without data, refuse what a run refuses") {
  // CheckOpuProgram is what the program reader runs for every device.
  SUBCASE("a Gemm's weight row past the buffer") {
    Bench b;
    GemmInsn g = Gemm(0, 1, 1, 1, 2);
    g.wgt_addr = 300;  // tiny: 256 weight rows
    b.Add(g);
    CHECK(CheckOpuProgram(Tiny(), b.program, 1024).message() ==
          "instruction 0 (Gemm): wgt_addr reaches weight row 300; there are 256");
  }
  SUBCASE("a pool writing over its own source") {
    Bench b;
    PoolInsn pool;
    pool.src_rows = pool.src_cols = 2;
    pool.out_rows = pool.out_cols = 1;
    pool.size_y = pool.size_x = pool.stride_y = pool.stride_x = 2;
    pool.dst_addr = 3;
    b.Add(pool);
    CHECK(CheckOpuProgram(Tiny(), b.program, 1024).message() ==
          "instruction 0 (Pool): dst_addr entries 3 to 3 overlap the source's 0 to 3");
  }
  SUBCASE("a race") {
    Bench b;
    b.Add(Load(0, 0, 0, 1, 1, 8));
    b.Add(Gemm(0, 1, 1, 1, 2));
    CHECK(CheckOpuProgram(Tiny(), b.program, 1024).message() ==
          "instruction 1 (Gemm) reads feature-map row 0, which instruction 0 (Load) writes, with "
          "no token ordering the two: the result would depend on which engine runs first");
  }
  SUBCASE("a DRAM image too small") {
    Bench b;
    b.Add(Load(0, 0, 1000, 1, 8, 64));
    CHECK(CheckOpuProgram(Tiny(), b.program, 1024).message() ==
          "instruction 0 (Load): dram_addr reaches DRAM byte 1063; there are 1024");
  }
  SUBCASE("an ordered program passes") {
    Bench b;
    b.Add(Load(0, 0, 0, 1, 1, 8));
    b.Add(Load(1, 0, 64, 1, 1, 32));
    b.Add(With(Load(2, 0, 128, 1, 1, 32), kPushNext));
    b.Add(With(Gemm(0, 1, 1, 1, 1), kPopPrev));
    b.Add(With(Output(1, -128, 127), kPushNext));
    b.Add(With(Store(1, 1, 1, 256, 8), kPopPrev));
    CHECK(CheckOpuProgram(Tiny(), b.program, 1024).ok());
  }
}

}  // namespace
}  // namespace opuc::fsim_test
