//===- src/opu/hw_presets.cc - opu1024 and tiny ---------------------------===//
//
// opu1024 is the original OPU as opu-sim simulates it (reference/opu-sim.md
// section 1): 1024 MAC/cycle as 64 input x 16 output channels at 200 MHz,
// 512-bit DRAM words, ping-pong feature-map (256 KiB), weight (64 KiB) and
// bias banks (1 KiB where the original has 128 B: sixteen param rows, so
// that a group of up to 256 output channels keeps its params resident, in
// the block RAMs four rows took: docs/rtl.md), a 512 KiB partial-sum buffer, 4-bit kernel tap
// offsets. A group may store one tapped value besides its result (the
// original's output_choice for residual sources). DRAM bandwidth and latency
// are assumptions (one word per cycle at 200 MHz; 64 cycles).
//
// tiny is small enough for fast RTL runs: an 8 x 4 array, 4 KiB banks, no
// depthwise mode, one stored value per group.
//
// Both take DatapathHdfg, not the seed's: opuc's datapath (the ISA, hw/)
// has no pre-adder or pre-multiplier, so an add or mul of a constant before
// an inner product gets a pass of its own (docs/decisions.md).
//
//===----------------------------------------------------------------------===//
#include "opuc/opu/hw_config.h"
#include "support/format.h"

namespace opuc {
namespace {

BufferSpec Banks(int64_t bytes, int64_t banks) {
  BufferSpec spec;
  spec.bytes_per_bank = bytes;
  spec.banks = banks;
  return spec;
}

HwConfig Opu1024() {
  HwConfig c;
  c.name = "opu1024";
  c.array.input_channels = 64;
  c.array.output_channels = 16;
  c.array.clock_mhz = 200.0;
  c.ipa.transpose_conv = true;
  c.ipa.depthwise_window = 8;
  c.ipa.depthwise_line = 512;
  c.buffers.feature_map = Banks(256 * 1024, 2);
  c.buffers.weight = Banks(64 * 1024, 2);
  c.buffers.bias = Banks(1024, 2);  // 16 param rows: params resident to 256 channels
  c.buffers.partial_sum = Banks(512 * 1024, 1);
  c.dram.word_bits = 512;
  c.dram.bandwidth_gb_per_s = 12.8;
  c.dram.latency_cycles = 64;
  c.store.max_outputs = 2;
  c.store.taps = ModuleBit(HwModule::kAdder) | ModuleBit(HwModule::kIpa) |
                 ModuleBit(HwModule::kComparator) | ModuleBit(HwModule::kPool) |
                 ModuleBit(HwModule::kResAdder);
  c.hdfg = DatapathHdfg();
  return c;
}

HwConfig Tiny() {
  HwConfig c;
  c.name = "tiny";
  c.array.input_channels = 8;
  c.array.output_channels = 4;
  c.array.clock_mhz = 100.0;
  c.ipa.depthwise = false;
  c.ipa.transpose_conv = true;
  c.ipa.max_kernel = 7;
  c.ipa.max_stride = 2;
  c.buffers.feature_map = Banks(4096, 2);
  c.buffers.weight = Banks(4096, 2);
  c.buffers.bias = Banks(64, 2);
  c.buffers.partial_sum = Banks(8192, 1);
  c.dram.word_bits = 64;
  c.dram.bandwidth_gb_per_s = 0.8;
  c.dram.latency_cycles = 16;
  c.store.max_outputs = 1;
  c.store.taps = 0;
  c.hdfg = DatapathHdfg();
  return c;
}

/// The seed's HDFG, or without add_pre and mul_pre (mem_rd feeds pad).
Hdfg Build(bool pre_stages) {
  Hdfg g;
  auto stage = [&g](const char* name, HwModule module) {
    HdfgStage s;
    s.name = name;
    s.module = module;
    g.stages.push_back(s);
  };
  stage("mem_rd", HwModule::kMemRead);
  if (pre_stages) {
    stage("add_pre", HwModule::kAdder);
    stage("mul_pre", HwModule::kMultiplier);
  }
  stage("pad", HwModule::kPad);
  stage("ipa", HwModule::kIpa);
  stage("mul", HwModule::kMultiplier);
  stage("add", HwModule::kAdder);
  stage("compare", HwModule::kComparator);
  stage("pool_pad", HwModule::kPad);
  stage("pool", HwModule::kPool);
  stage("res_add", HwModule::kResAdder);
  stage("upsample", HwModule::kUpsample);
  g.root = 0;
  if (pre_stages) {
    g.Link("mem_rd", "add_pre");
    g.Link("add_pre", "mul_pre");
    g.Link("mul_pre", "pad");
  } else {
    g.Link("mem_rd", "pad");
  }
  // Link order is BFS order: it decides which of two candidates wins.
  const char* edges[][2] = {{"pad", "ipa"},          {"ipa", "mul"},         {"mul", "add"},
                            {"add", "compare"},      {"add", "pool_pad"},    {"add", "res_add"},
                            {"pool_pad", "pool"},    {"compare", "pool"},    {"compare", "res_add"},
                            {"compare", "upsample"}, {"pool", "compare"},    {"pool", "res_add"},
                            {"pool", "upsample"},    {"res_add", "compare"}, {"res_add", "pool"},
                            {"res_add", "upsample"}};
  for (const auto& edge : edges) g.Link(edge[0], edge[1]);
  return g;
}

}  // namespace

Hdfg DefaultHdfg() { return Build(true); }

Hdfg DatapathHdfg() { return Build(false); }

std::vector<std::string> HwConfigPresetNames() { return {"opu1024", "tiny"}; }

Expected<HwConfig> HwConfigPreset(std::string_view name) {
  if (name == "opu1024") return Opu1024();
  if (name == "tiny") return Tiny();
  return NotFound(Cat("no hardware preset called '", name, "' (presets: opu1024, tiny)"));
}

}  // namespace opuc
