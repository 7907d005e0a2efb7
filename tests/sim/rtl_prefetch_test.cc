// A session on the RTL (sim/rtl.h): a program named next has its first
// words read while the run before goes on, and starts a DRAM latency
// sooner; a program not named next starts as if alone; each run's counters
// are its own.
#include <doctest/doctest.h>

#include "opuc/isa/isa.h"
#include "opuc/opu/buffer_units.h"
#include "rtl.h"

namespace opuc::rtl {
namespace {

using namespace isa;

// A load of 2 x 32 feature-map units of `lanes` bytes from DRAM byte 0.
Word LoadWord(int64_t lanes = 8) {
  LoadInsn load;
  load.buffer = 0;
  load.rows = 2;
  load.cols = 32;
  load.dram_stride = 32 * lanes;
  return Encode(load).value();
}

// The cycles `program` takes run alone, and run after `first` in a session
// that named it next; both load the bytes they should.
struct Cycles {
  int64_t alone = 0, prefetched = 0;
};
Cycles Measure(const HwConfig& hw, const std::vector<Word>& first,
               const std::vector<Word>& program) {
  const int64_t lanes = BufferUnits(hw).lanes;
  std::vector<uint8_t> dram(static_cast<size_t>(64 * lanes), 1);
  Cycles c;
  RtlStats stats;
  REQUIRE(RunRtl(hw, program, dram, &stats).ok());
  c.alone = stats.cycles;
  std::unique_ptr<RtlSession> session = MakeRtlSession(hw, false).value();
  REQUIRE(session->Run(first, &program, dram, nullptr, "").ok());
  REQUIRE(session->Run(program, nullptr, dram, &stats, "").ok());
  c.prefetched = stats.cycles;
  CHECK(stats.engines[0].retired == 1);  // this run's, not the session's
  CHECK(stats.counters.bytes_loaded == 64 * lanes);
  return c;
}

TEST_CASE("prefetch: a program named next starts with its first word in the fetch unit") {
  // Alone, the fetch unit asks for the word's beats from the cycle after
  // the start, one a cycle, and decodes the word the cycle after its last
  // beat is answered, a DRAM latency after that beat's request; prefetched,
  // it decodes the word the cycle after the start. tiny: a 16-byte word in
  // two 8-byte beats, latency 16: 16 + 2 cycles sooner.
  const HwConfig tiny = *HwConfigPreset("tiny");
  const Cycles t = Measure(tiny, {LoadWord()}, {LoadWord()});
  CHECK(t.alone - t.prefetched == tiny.dram.latency_cycles + 2);
  // opu1024: the word in one 64-byte beat, latency 64: 64 + 1 sooner.
  const HwConfig opu1024 = *HwConfigPreset("opu1024");
  const Cycles o = Measure(opu1024, {LoadWord(64)}, {LoadWord(64)});
  CHECK(o.alone - o.prefetched == opu1024.dram.latency_cycles + 1);
}

TEST_CASE("prefetch: a program other than the one named next drops what was read") {
  const HwConfig tiny = *HwConfigPreset("tiny");
  LoadInsn other;
  other.buffer = 0;
  other.rows = 1;
  other.cols = 8;
  other.dram_stride = 64;
  const std::vector<Word> named = {Encode(other).value(), Encode(other).value()};
  std::vector<uint8_t> dram(1024, 1);
  RtlStats alone, after;
  REQUIRE(RunRtl(tiny, {LoadWord()}, dram, &alone).ok());
  std::unique_ptr<RtlSession> session = MakeRtlSession(tiny, false).value();
  REQUIRE(session->Run({LoadWord()}, &named, dram, nullptr, "").ok());
  REQUIRE(session->Run({LoadWord()}, nullptr, dram, &after, "").ok());
  CHECK(after.cycles == alone.cycles);
  CHECK(after.engines[0].retired == 1);
  CHECK(after.counters.bytes_loaded == 512);
  // Tracing needs a session made for it.
  CHECK(session->Run({LoadWord()}, nullptr, dram, nullptr, "run.fst").message() ==
        "the RTL session was made without tracing");
}

}  // namespace
}  // namespace opuc::rtl
