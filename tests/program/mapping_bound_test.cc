//===- tests/program/mapping_bound_test.cc - The mapping limit's terms by hand ===//
//
// OutputPathCycles (opuc/program/mapping_bound.h) over hand-built words:
// the post side takes one accumulator entry a cycle and chains stages over
// the same entries (one ResAdd, one Table, three stages and one param row
// a chain), a Pool reads each tap of its windows inside the source,
// the store writes one pixel a cycle (four copies with upsample). And the
// DRAM term's stores (StoreBeatBytes, opuc/opu/buffer_units.h): a masked
// write takes its whole beat. A store into the feature-map buffer reads a
// pair of pixels from an even entry (StoreFmPairs). And the depthwise window's walk, on a
// compiled program.
//
//===----------------------------------------------------------------------===//
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "doubled_model.h"
#include "opuc/codegen/codegen.h"
#include "opuc/compiler/write_program.h"
#include "opuc/ir/graph_builder.h"
#include "opuc/isa/isa.h"
#include "opuc/opu/buffer_units.h"
#include "opuc/opu/hw_config.h"
#include "opuc/partition/hw_partition.h"
#include "opuc/program/mapping_bound.h"
#include "opuc/program/step_usage.h"
#include "opuc/quant/quantize.h"
#include "small_model.h"

namespace opuc {
namespace {

/// A step over `insns`' words, little endian as a program holds them.
struct Step {
  explicit Step(const std::vector<isa::Instruction>& insns) {
    for (const isa::Instruction& insn : insns) {
      const isa::Word w = isa::Encode(insn).value();
      for (int b = 0; b < 8; ++b) bytes.push_back(static_cast<uint8_t>(w.lo >> (8 * b)));
      for (int b = 0; b < 8; ++b) bytes.push_back(static_cast<uint8_t>(w.hi >> (8 * b)));
    }
    step.kind = StepKind::kOpu;
    step.words = bytes.data();
    step.word_count = insns.size();
  }
  std::vector<uint8_t> bytes;
  ProgramStep step;
};

/// A post stage over `count` entries from `acc_addr`, to the i8 range.
template <typename Stage>
Stage Over(int64_t acc_addr, int64_t count) {
  Stage x;
  x.acc_addr = acc_addr;
  x.count = count;
  x.lo = -128;
  x.hi = 127;
  return x;
}

isa::OutputInsn Output(int64_t acc_addr, int64_t count) {
  return Over<isa::OutputInsn>(acc_addr, count);
}

isa::ResAddInsn ResAdd(int64_t acc_addr, int64_t count) {
  isa::ResAddInsn r = Over<isa::ResAddInsn>(acc_addr, count);
  r.res_lanes = 16;
  return r;
}

isa::TableInsn Table(int64_t acc_addr, int64_t count) {
  isa::TableInsn t;
  t.acc_addr = acc_addr;
  t.count = count;
  return t;
}

isa::PoolInsn Pool(int64_t src_rows, int64_t src_cols, int64_t out_rows, int64_t out_cols,
                   int64_t size, int64_t stride, int64_t pad) {
  isa::PoolInsn p;
  p.src_addr = 0;
  p.src_rows = src_rows;
  p.src_cols = src_cols;
  p.dst_addr = 1024;
  p.out_rows = out_rows;
  p.out_cols = out_cols;
  p.size_y = p.size_x = size;
  p.stride_y = p.stride_x = stride;
  p.pad_y = p.pad_x = pad;
  return p;
}

isa::StoreInsn Store(int64_t rows, int64_t cols, bool upsample = false) {
  isa::StoreInsn s;
  s.acc_pitch = cols;
  s.rows = rows;
  s.cols = cols;
  s.lanes = 16;
  s.upsample = upsample ? 1 : 0;
  return s;
}

OpuBufferUnits Units1024() { return BufferUnits(HwConfigPreset("opu1024").value()); }

TEST_CASE("a 2x2/2 pool ends the pass over its source, else it reads four taps a window") {
  // Face detector step 5's unit: a 4 x 64 tile through Output and ResAdd
  // (256 entries, one pass), then a 2 x 2 max pool of stride 2 over them:
  // the pass's tail, which writes its 2 x 32 pooled entries after it
  // (PoolEndsPass): post 256 + 64; the stores of 256 + 64 pixels, 320.
  const Step tail(
      {Output(0, 256), ResAdd(0, 256), Pool(4, 64, 2, 32, 2, 2, 0), Store(4, 64), Store(2, 32)});
  CHECK(OutputPathCycles(tail.step, Units1024()).value() == 320);
  // Over entries the pass did not write (another tile's), the pool reads
  // its 64 windows' 4 taps: 256 + 256 = 512, more than the stores.
  isa::PoolInsn apart = Pool(4, 64, 2, 32, 2, 2, 0);
  apart.src_addr = 256;
  const Step alone({Output(0, 256), ResAdd(0, 256), apart, Store(4, 64), Store(2, 32)});
  CHECK(OutputPathCycles(alone.step, Units1024()).value() == 512);
}

TEST_CASE("stages over other entries are another pass") {
  // Two tiles' Outputs (256 + 256 entries), the second's ResAdd chained.
  const Step s({Output(0, 256), Output(256, 256), ResAdd(256, 256), Store(8, 64)});
  CHECK(OutputPathCycles(s.step, Units1024()).value() == 512);
}

TEST_CASE("a chain takes one ResAdd, one Table, three stages and one param row") {
  // Pose landmarks' step 63: Output, a ResAdd, then a second ResAdd over
  // the same 224 entries. The chain holds one ResAdd (one residual row an
  // entry), so the second is a pass of its own: 448, not 224.
  CHECK(OutputPathCycles(Step({Output(0, 224), ResAdd(0, 224), ResAdd(0, 224)}).step, Units1024())
            .value() == 448);
  // Output, ResAdd and a Clamp: one chain of three, 224.
  CHECK(OutputPathCycles(Step({Output(0, 224), ResAdd(0, 224), Over<isa::ClampInsn>(0, 224)}).step,
                         Units1024())
            .value() == 224);
  // A fourth stage starts a second pass: a Clamp alone over an even count
  // from an even entry, a dual pass of two entries a cycle, 224 + 112.
  CHECK(OutputPathCycles(Step({Output(0, 224), ResAdd(0, 224), Over<isa::ClampInsn>(0, 224),
                               Over<isa::ClampInsn>(0, 224)})
                             .step,
                         Units1024())
            .value() == 336);
  // Two Tables, and a PRelu on another param row than the Output's, too.
  CHECK(OutputPathCycles(Step({Table(0, 224), Table(0, 224)}).step, Units1024()).value() == 448);
  // (Each alone a dual pass: 112 + 112; chained, one pass of one entry a cycle.)
  isa::PReluInsn slopes = Over<isa::PReluInsn>(0, 224);
  slopes.param_addr = 1;
  CHECK(OutputPathCycles(Step({Output(0, 224), slopes}).step, Units1024()).value() == 224);
  slopes.param_addr = 0;
  CHECK(OutputPathCycles(Step({Output(0, 224), slopes}).step, Units1024()).value() == 224);
  slopes.acc_addr = 1;
  slopes.param_addr = 1;
  CHECK(OutputPathCycles(Step({Output(0, 224), slopes}).step, Units1024()).value() == 112 + 224);
}

TEST_CASE("an Output, Clamp or PRelu alone over pairs of entries takes two a cycle") {
  // opu1024's banks: [0, 2730), [2730, 5333), the sums' [5333, 5461).
  // A dual pass: an even count from an even entry in banks 0 and 1.
  CHECK(OutputPathCycles(Step({Output(0, 224)}).step, Units1024()).value() == 112);
  CHECK(OutputPathCycles(Step({Over<isa::ClampInsn>(2730, 64)}).step, Units1024()).value() == 32);
  CHECK(OutputPathCycles(Step({Over<isa::PReluInsn>(5332 - 64, 64)}).step, Units1024()).value() ==
        32);
  // From an odd entry, an odd count, into the sums' bank: one a cycle.
  CHECK(OutputPathCycles(Step({Output(1, 224)}).step, Units1024()).value() == 224);
  CHECK(OutputPathCycles(Step({Output(0, 223)}).step, Units1024()).value() == 223);
  CHECK(OutputPathCycles(Step({Output(5334, 64)}).step, Units1024()).value() == 64);
  // A Table or ResAdd, a chain, or a pool that ends the pass: one a cycle.
  CHECK(OutputPathCycles(Step({Table(0, 224)}).step, Units1024()).value() == 224);
  CHECK(OutputPathCycles(Step({Output(0, 224), ResAdd(0, 224)}).step, Units1024()).value() == 224);
  // But a Table after one of them keeps the pass dual (a dual chain); not
  // with a third stage, nor from an odd entry.
  CHECK(OutputPathCycles(Step({Output(0, 224), Table(0, 224)}).step, Units1024()).value() == 112);
  CHECK(OutputPathCycles(Step({Output(0, 224), Table(0, 224), Over<isa::ClampInsn>(0, 224)}).step,
                         Units1024())
            .value() == 224);
  CHECK(OutputPathCycles(Step({Output(1, 224), Table(1, 224)}).step, Units1024()).value() == 224);
}

TEST_CASE("a padded pool reads only the taps inside the source") {
  // 3 x 3, stride 1, padding 1 over 4 x 4: windows along an axis hold 2, 3,
  // 3, 2 taps inside, so 10 x 10 = 100 taps; the store's 16 pixels are less.
  const Step s({Pool(4, 4, 4, 4, 3, 1, 1), Store(4, 4)});
  CHECK(OutputPathCycles(s.step, Units1024()).value() == 100);
}

TEST_CASE("the store writes each pixel four times with upsample") {
  // 128 entries through Output; 8 x 16 pixels stored as 2 x 2 blocks: 512.
  const Step s({Output(0, 128), Store(8, 16, true)});
  CHECK(OutputPathCycles(s.step, Units1024()).value() == 512);
}

TEST_CASE("a pair's two pixels in one beat take one cycle of the store, else two") {
  // 64 pixels of 8 lanes, two an entry (pair). 32-byte pixels from byte 8
  // (block 1): pixel 2k at 64k + 8, its pair ends at 8 + 32 + 8 = 48 <= 64:
  // 32 cycles. 48-byte pixels from 0: pairs start at offsets 0 and 32 in
  // turn; from 32 the second pixel's lanes end at 32 + 48 + 8 = 88 > 64,
  // two cycles: 16 x 1 + 16 x 2 = 48.
  isa::StoreInsn s = Store(1, 64);
  s.lanes = 8;
  s.pair = 1;
  s.granules = 2;
  s.dram_addr = 8;
  CHECK(OutputPathCycles(Step({s}).step, Units1024()).value() == 32);
  s.granules = 3;
  s.dram_addr = 0;
  CHECK(OutputPathCycles(Step({s}).step, Units1024()).value() == 48);
  s.cols = 63;  // 31 pairs, 16 from offset 0 and 15 from 32, and the last pixel alone
  CHECK(OutputPathCycles(Step({s}).step, Units1024()).value() == 16 + 15 * 2 + 1);
}

TEST_CASE("a store into the feature-map buffer reads and writes a pair of pixels at once") {
  // 2 rows of 5 pixels from entry 0, a row each (to_fm), two blocks a
  // pixel (blocks 0 and 1 in one read). Row 0's entries 0-4: pairs (0, 1)
  // and (2, 3), then 4 alone; row 1's 5-9: 5 alone (odd), then (6, 7) and
  // (8, 9): 6 writes of the port and 6 reads.
  isa::StoreInsn s = Store(2, 5);
  s.to_fm = 1;
  s.extra_blocks = 1;
  const OpuBufferUnits u = Units1024();
  CHECK(StoreFmWrites(s, u) == 6);
  CHECK(StoreIssueCycles(s, u) == 6);
  CHECK(StoreFmPairs(s, u, 0, 0));
  CHECK_FALSE(StoreFmPairs(s, u, 0, 4));  // the row's last
  CHECK_FALSE(StoreFmPairs(s, u, 1, 0));  // entry 5, odd
  CHECK(StoreFmPairs(s, u, 1, 1));
  CHECK(OutputPathCycles(Step({s}).step, u).value() == 6);
  // Three blocks: blocks 0 and 1 of both, then block 2 of both: two reads a
  // write; four blocks the same.
  s.extra_blocks = 2;
  CHECK(StoreIssueCycles(s, u) == 12);
  s.extra_blocks = 3;
  CHECK(StoreIssueCycles(s, u) == 12);
  CHECK(StoreFmWrites(s, u) == 6);
  // A pair's second entry in the pools' bank (from entry 5,333 on
  // opu1024): the pixel goes alone.
  s.rows = 1;
  REQUIRE(u.AccSumsBank() == 5333);
  s.acc_addr = 5330;
  CHECK(StoreFmPairs(s, u, 0, 0));
  s.acc_addr = 5332;
  CHECK_FALSE(StoreFmPairs(s, u, 0, 0));
  // To DRAM, and on tiny (one bank of rows), a pixel a write.
  s = Store(2, 5);
  s.extra_blocks = 1;
  CHECK(StoreFmWrites(s, u) == 0);
  s.to_fm = 1;
  const OpuBufferUnits tiny = BufferUnits(HwConfigPreset("tiny").value());
  CHECK_FALSE(tiny.fm_pairs);
  CHECK(StoreFmWrites(s, tiny) == 10);
}

/// The beats of a store on opu1024 (L = 64): `lanes` bytes of each of
/// `cols` pixels, `granules` x 16 bytes apart (64 with 0), one row from
/// `addr`.
int64_t Beats(int64_t addr, int64_t cols, int64_t lanes, int64_t granules) {
  isa::StoreInsn s = Store(1, cols);
  s.dram_addr = addr;
  s.lanes = lanes;
  s.granules = granules;
  return StoreBeatBytes(s, BufferUnits(HwConfigPreset("opu1024").value())) / 64;
}

TEST_CASE("a store's masked writes take whole beats") {
  // A 24-channel compact map: 32-byte pixels, two a beat. Either block of
  // 16 channels writes 16 bytes a pixel but touches every beat: 64 pixels
  // are 32 beats, 2,048 bytes on the port for 1,024 stored.
  CHECK(Beats(0, 64, 16, 2) == 32);
  CHECK(Beats(16, 64, 8, 2) == 32);
  // 16-byte pixels (one granule), four a beat: 64 pixels are 16 full beats.
  CHECK(Beats(0, 64, 16, 1) == 16);
  // 64-byte pixels: a beat each, whatever the lanes.
  CHECK(Beats(0, 10, 4, 0) == 10);
  // A row that starts 8 bytes before a beat's end: its first pixel's 16
  // bytes touch two beats, the next pixel (32 on) shares the second: 3
  // pixels, bytes 56-71, 88-103, 120-135, beats 0, 1, 1, 2: 3 beats.
  CHECK(Beats(56, 3, 16, 2) == 3);
}

/// The array term of `program`'s first OPU step.
int64_t FirstOpuArrayCycles(const Program& program) {
  for (const ProgramStep& step : program.steps())
    if (step.kind == StepKind::kOpu)
      return MappingBoundOfStep(program, step, UsageOfStep(program, step).value())
          .value()
          .array_cycles;
  FAIL("no OPU step");
  return 0;
}

/// The array term of the one OPU step of a 16 x 16 x 24 map through a
/// k x k depthwise conv of `stride`, compiled for opu1024 at `precision`.
int64_t DepthwiseArrayCycles(int64_t stride, Precision precision = Precision::kInt8,
                             int64_t k = 3) {
  GraphBuilder b("dw");
  const TensorId x = b.Input("x", DType::kF32, {1, 16, 16, 24});
  Attributes a;
  a.Set("padding", std::string("same"));
  a.Set("strides", std::vector<int64_t>{stride, stride});
  b.Output(b.Op(OpKind::kDepthwiseConv2D, "dw",
                {x, b.ConstantF32("dw/w", {1, k, k, 24},
                                  test::Ramp(static_cast<size_t>(k * k * 24), 0.05f, -0.3f))},
                a));
  const Graph model = std::move(b).Finish().value();
  std::vector<std::vector<HostTensor>> samples;
  for (uint64_t seed = 1; seed <= 2; ++seed) samples.push_back(test::SeededInputs(model, seed));
  const HwConfig hw = HwConfigPreset("opu1024").value();
  QuantizeOptions options;
  options.precision = precision;
  const QuantizedGraph q = Quantize(model, samples, options).value();
  const HwPartition partition = PartitionForHardware(q.graph, hw).value();
  const StepPlan plan = PlanSteps(q.graph, partition, hw).value();
  ProgramBuild build;
  build.compiler = "opuc test";
  build.source_sha256 = std::string(64, '0');
  const std::vector<uint8_t> bytes = WriteProgram(q.graph, partition, plan, hw, build).value();
  auto owner =
      std::shared_ptr<uint8_t>(new (std::align_val_t(64)) uint8_t[bytes.size()],
                               [](uint8_t* p) { ::operator delete[](p, std::align_val_t(64)); });
  std::memcpy(owner.get(), bytes.data(), bytes.size());
  return FirstOpuArrayCycles(ReadProgram(owner, owner.get(), bytes.size(), "dw.opup").value());
}

TEST_CASE("the depthwise window walks every input pixel") {
  // 24 channels are two blocks of Co = 16. Stride 1: a 3 x 3 kernel's rows
  // fit half the lanes, so output pixels go in pairs, two a cycle, 16 x 16
  // / 2 x 2 = 256. Stride 2: the window reads the 16 x 16 input a pair of
  // pixels a cycle, two cycles an output pixel: 8 x 8 x 2 x 2.
  CHECK(DepthwiseArrayCycles(1) == 256);
  CHECK(DepthwiseArrayCycles(2) == 256);
}

TEST_CASE("an i16 input: one pass through a window up to 4 taps wide and no pairs, two through 5") {
  // i16 in: a 3 x 3 window reads it whole, 512 cycles at stride 1 (no pairs);
  // at stride 2 a pixel a cycle (no pairs of two-row pixels), 8 x 8 x 4 x
  // 2 = 512. A 5 x 5 window keeps two passes: 2 x 512 at stride 1.
  CHECK(DepthwiseArrayCycles(1, Precision::kInt16) == 512);
  CHECK(DepthwiseArrayCycles(2, Precision::kInt16) == 512);
  CHECK(DepthwiseArrayCycles(1, Precision::kInt16, 5) == 1024);
  // An i8 5 x 5 in pairs, its rows 6 lanes apart (packed pairs): 16 x 16 / 2 x 2.
  CHECK(DepthwiseArrayCycles(1, Precision::kInt8, 5) == 256);
}

/// The array term of the first depthwise step of the doubled model
/// (tests/program/doubled_model.h: 6 x 10 maps of 8 channels) on opu1024.
int64_t DoubledDepthwiseArrayCycles(bool doubled_maps) {
  PlanOptions options;
  options.doubled_maps = doubled_maps;
  options.chained_pairs = 1;  // the depthwise step alone
  options.runs = false;
  const test::SmallModel m = test::MakeDoubledModel("opu1024", 6, 10, options);
  return FirstOpuArrayCycles(test::ReadAligned(m.Write(), "doubled.opup"));  // a/dw
}

TEST_CASE("a depthwise conv over a doubled map takes two output pixels an entry") {
  // 8 channels, one block of Co = 16: output pixels in pairs (the kernel's
  // rows fit half the lanes), 6 x 5; over the doubled map a pair of them
  // an entry, 6 x 5 too.
  CHECK(DoubledDepthwiseArrayCycles(false) == 30);
  CHECK(DoubledDepthwiseArrayCycles(true) == 30);
  // The same behind a zero pad op (the detectors' pad, then a VALID conv),
  // which the loads fold in: the step reads the pad's input, doubled.
  GraphBuilder b("padded");
  const TensorId x = b.Input("x", DType::kF32, {1, 6, 10, 8});
  Attributes pad;
  pad.Set("pads", AttrValue(std::vector<int64_t>{0, 0, 1, 1, 1, 1, 0, 0}));
  b.Output(b.Op(OpKind::kDepthwiseConv2D, "dw",
                {b.Op(OpKind::kPad, "pad", {x}, pad),
                 b.ConstantF32("dw/w", {1, 3, 3, 8}, test::Ramp(72, 0.07f, -0.3f))}));
  const test::SmallModel m = test::CompileSmallModel("opu1024", std::move(b).Finish().value());
  CHECK(test::CountTilings(m, "two pixels an entry") == 1);
  CHECK(FirstOpuArrayCycles(test::ReadAligned(m.Write(), "padded.opup")) == 30);
}

TEST_CASE("a word that does not decode is named") {
  Step s({Store(1, 1)});
  s.bytes[0] = 0;  // opcode 0 is illegal
  const Expected<int64_t> got = OutputPathCycles(s.step, Units1024());
  REQUIRE_FALSE(got.ok());
  CHECK(got.status().message().find("word 0") != std::string::npos);
}

}  // namespace
}  // namespace opuc
