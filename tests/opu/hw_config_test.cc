// HwConfig: the presets hold the numbers of reference/opu-sim.md section 1,
// JSON files round-trip, override a base, and every error names its field.
#include <doctest/doctest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "hw_config_error.h"
#include "opuc/opu/buffer_units.h"
#include "opuc/opu/hw_config.h"

namespace opuc {
namespace {

using testing::ErrorOf;

HwConfig Preset(const char* name) {
  Expected<HwConfig> c = HwConfigPreset(name);
  REQUIRE_MESSAGE(c.ok(), c.status().ToString());
  return std::move(c).value();
}

TEST_CASE("opu1024 is the original's geometry, tiny is small") {
  const HwConfig opu = Preset("opu1024");
  CHECK(opu.array.input_channels * opu.array.output_channels == 1024);
  CHECK(opu.array.input_channels == 64);
  CHECK(opu.array.clock_mhz == 200.0);
  CHECK(opu.buffers.feature_map.bytes_per_bank == 256 * 1024);
  CHECK(opu.buffers.feature_map.banks == 2);
  CHECK(opu.buffers.weight.bytes_per_bank == 64 * 1024);
  // The original's bias banks hold 128 bytes; ours 1 KiB: sixteen param
  // rows of 16 lanes x 8 bytes over the two banks, so a group of up to 256
  // output channels keeps its params resident.
  CHECK(opu.buffers.bias.bytes_per_bank == 1024);
  CHECK(BufferUnits(opu).param_rows == 16);
  CHECK(opu.buffers.partial_sum.bytes_per_bank == 512 * 1024);
  CHECK(opu.dram.word_bits == 512);
  CHECK(opu.ipa.depthwise);
  CHECK(opu.store.max_outputs == 2);
  CHECK(ValidateHwConfig(opu).ok());
  const HwConfig tiny = Preset("tiny");
  CHECK(tiny.array.input_channels * tiny.array.output_channels == 32);
  CHECK_FALSE(tiny.ipa.depthwise);
  CHECK(ValidateHwConfig(tiny).ok());
  CHECK(HwConfigPreset("opu2048").status().message() ==
        "no hardware preset called 'opu2048' (presets: opu1024, tiny)");
}

TEST_CASE("the presets' HDFG is the seed's without the pre-adder and pre-multiplier") {
  const Hdfg seed = DefaultHdfg();
  REQUIRE(seed.stages.size() == 12);
  CHECK(seed.stages[1].name == "add_pre");
  CHECK(seed.stages[2].name == "mul_pre");
  for (const char* name : {"opu1024", "tiny"}) {
    const Hdfg& g = Preset(name).hdfg;
    REQUIRE(g.stages.size() == 10);
    std::vector<std::string> names;
    for (const HdfgStage& s : g.stages) names.push_back(s.name);
    CHECK(names == std::vector<std::string>{"mem_rd", "pad", "ipa", "mul", "add", "compare",
                                            "pool_pad", "pool", "res_add", "upsample"});
    CHECK(g.stages[0].successors == std::vector<int32_t>{1});  // mem_rd feeds pad
  }
}

TEST_CASE("a config written as JSON reads back the same") {
  for (const char* name : {"opu1024", "tiny"}) {
    const HwConfig c = Preset(name);
    const std::string text = HwConfigToJson(c);
    Expected<HwConfig> back = ParseHwConfigJson(text);
    REQUIRE_MESSAGE(back.ok(), back.status().ToString());
    CHECK(HwConfigToJson(*back) == text);
    CHECK(back->hdfg.stages.size() == 10);  // DatapathHdfg
    CHECK(back->store.taps == c.store.taps);
  }
}

TEST_CASE("a file may start from a preset and change a few fields") {
  Expected<HwConfig> c = ParseHwConfigJson(
      R"({"base": "opu1024", "name": "opu2048", "array": {"output_channels": 32},
          "ipa": {"depthwise": false}})");
  REQUIRE_MESSAGE(c.ok(), c.status().ToString());
  CHECK(c->name == "opu2048");
  CHECK(c->array.input_channels == 64);
  CHECK(c->array.output_channels == 32);
  CHECK_FALSE(c->ipa.depthwise);
  CHECK(c->hdfg.stages.size() == 10);

  const std::string path = "hw_config_test_opu.json";
  std::ofstream(path) << R"({"base": "tiny", "store": {"max_outputs": 3, "taps": ["pool"]}})";
  Expected<HwConfig> loaded = LoadHwConfig(path);
  REQUIRE_MESSAGE(loaded.ok(), loaded.status().ToString());
  CHECK(loaded->store.max_outputs == 3);
  CHECK(loaded->store.taps == ModuleBit(HwModule::kPool));
  std::remove(path.c_str());
  CHECK(LoadHwConfig("no_such_config.json").status().message() ==
        "'no_such_config.json' is neither a hardware preset (opu1024, tiny) nor a readable file");
}

TEST_CASE("errors name the field") {
  CHECK(ErrorOf(R"({"base": "opu1024", "array": {"input_channels": 0}})") ==
        "array.input_channels is 0; expected at least 1");
  CHECK(ErrorOf(R"({"base": "opu1024", "array": {"input_channels": 1.5}})") ==
        "array.input_channels is 1.5; expected an integer");
  CHECK(ErrorOf(R"({"base": "opu1024", "ipa": {"depthwise": 1}})") ==
        "ipa.depthwise is a number; expected a bool");
  CHECK(ErrorOf(R"({"base": "opu1024", "dram": {"word_bits": 12}})") ==
        "dram.word_bits is 12; expected a multiple of 8");
  CHECK(ErrorOf(R"({"base": "opu1024", "arrays": {}})") == "arrays is not a known field");
  CHECK(ErrorOf(R"({"base": "opu1024", "store": {"taps": ["alu"]}})") ==
        "store.taps[0] is 'alu'; expected one of mem_rd, adder, multiplier, pad, ipa, comparator,"
        " pool, res_adder, upsample");
  CHECK(ErrorOf(R"({"name": "x"})") == "array is missing");
  CHECK(ErrorOf(R"({"base": "opu1024",)") ==
        "JSON line 1 column 20: syntax error while parsing object key - unexpected end of input;"
        " expected string literal");
  CHECK(ErrorOf("[1]") == "the config is an array; expected an object");
}

TEST_CASE("every size is bounded, naming the field (the config travels in programs)") {
  // Issue 50: 2^40 bytes compiled, then fsim died in bad_alloc; 2^27-bit
  // DRAM words made a 218 MB program of a 26 KB model.
  CHECK(ErrorOf(
            R"({"base": "tiny", "buffers": {"feature_map": {"bytes_per_bank": 1099511627776}}})") ==
        "buffers.feature_map.bytes_per_bank is 1099511627776; expected at most 16777216");
  CHECK(
      ErrorOf(
          R"({"base": "tiny", "buffers": {"partial_sum": {"bytes_per_bank": 4611686018427387904}}})") ==
      "buffers.partial_sum.bytes_per_bank is 4611686018427387904; expected at most 16777216");
  CHECK(ErrorOf(R"({"base": "tiny", "buffers": {"weight": {"banks": 1000000}}})") ==
        "buffers.weight.banks is 1000000; expected at most 16");
  CHECK(ErrorOf(R"({"base": "tiny", "dram": {"word_bits": 134217728}})") ==
        "dram.word_bits is 134217728; expected at most 8192");
  CHECK(ErrorOf(R"({"base": "tiny", "array": {"output_channels": 100000}})") ==
        "array.output_channels is 100000; expected at most 4096");
  CHECK(ErrorOf(R"({"base": "tiny", "ipa": {"max_kernel": 100000}})") ==
        "ipa.max_kernel is 100000; expected at most 1024");
  CHECK(ErrorOf(R"({"base": "tiny", "store": {"max_outputs": 100000}})") ==
        "store.max_outputs is 100000; expected at most 1024");
  // Each field in range, the whole buffer not: 16 banks of 2^24 bytes.
  CHECK(
      ErrorOf(
          R"({"base": "tiny", "buffers": {"bias": {"bytes_per_bank": 16777216, "banks": 16}}})") ==
      "buffers.bias is 268435456 bytes (bytes_per_bank x banks); expected at most 16777216");
  // Rows past what a 16-bit address reaches: 2^20 bytes of 8-byte rows.
  CHECK(ErrorOf(R"({"base": "tiny", "buffers": {"feature_map": {"bytes_per_bank": 1048576}}})") ==
        "buffers.feature_map holds 262144 rows of 8 bytes; instructions address at most 65536");
}

TEST_CASE("clock, bandwidth and latency are bounded, so that cycle counts fit") {
  // Issue 50: a latency of 1e18 printed a negative estimate; a bandwidth
  // of 1e-300 or a clock of 1e308 overflowed the bound's double -> int64.
  CHECK(ErrorOf(R"({"base": "tiny", "dram": {"latency_cycles": 1000000000000000000}})") ==
        "dram.latency_cycles is 1000000000000000000; expected at most 1000000");
  CHECK(ErrorOf(R"({"base": "tiny", "array": {"clock_mhz": 1e308}})").find("array.clock_mhz is ") ==
        0);
  CHECK(ErrorOf(R"({"base": "tiny", "array": {"clock_mhz": 1e308}})")
            .find("; expected at most 100000") != std::string::npos);
  CHECK(ErrorOf(R"({"base": "tiny", "dram": {"bandwidth_gb_per_s": 2000000}})") ==
        "dram.bandwidth_gb_per_s is 2e+06; expected at most 1000000");
  // 1e-300 GB/s is positive and under the greatest value: the rate (bytes
  // a cycle at the clock) is what is refused. tiny's clock is 100 MHz, so
  // 0.0001 GB/s is 1e5 B/s / 1e8 cycles/s = 1/1000 byte a cycle, just enough,
  // and 0.00005 is 1/2000, too little.
  CHECK(ErrorOf(R"({"base": "tiny", "dram": {"bandwidth_gb_per_s": 1e-300}})")
            .find("dram.bandwidth_gb_per_s is ") == 0);
  CHECK(ErrorOf(R"({"base": "tiny", "dram": {"bandwidth_gb_per_s": 0.00005}})")
            .find("expected at least one byte in 1024 cycles") != std::string::npos);
  CHECK(ParseHwConfigJson(R"({"base": "tiny", "dram": {"bandwidth_gb_per_s": 0.0001}})").ok());
}

TEST_CASE("the HDFG is checked: names, edges, reachability, one ipa per group") {
  const std::string head = R"({"base": "opu1024", "hdfg": {"root": "rd", "stages": [
      {"name": "rd", "module": "mem_rd"}, {"name": "ipa", "module": "ipa"},
      {"name": "act", "module": "comparator"}], "edges": )";
  CHECK(ErrorOf(head + R"([["rd", "ipa"], ["ipa", "act"], ["act", "ipa"]]}})") ==
        "hdfg.stages[1] 'ipa' is an ipa on a cycle; a group holds one inner product");
  CHECK(ErrorOf(head + R"([["rd", "ipa"]]}})") ==
        "hdfg.stages[2] 'act' cannot be reached from the root 'rd'");
  CHECK(ErrorOf(head + R"([["rd", "ipa"], ["ipa", "gelu"]]}})") ==
        "hdfg.edges[1] [\"ipa\", \"gelu\"] names a stage that does not exist");
  CHECK(ErrorOf(head + R"([["rd", "ipa"], ["rd", "ipa"], ["ipa", "act"]]}})") ==
        "hdfg.stages[0].successors[1]: the edge to 'ipa' is listed twice");
  CHECK(ParseHwConfigJson(head + R"([["rd", "ipa"], ["ipa", "act"]]}})").ok());

  HwConfig c = Preset("opu1024");
  c.hdfg.stages[3].successors.push_back(40);
  CHECK(ValidateHwConfig(c).message() ==
        "hdfg.stages[3].successors[1] is 40; expected a stage index in [0, 9]");
  c = Preset("opu1024");
  c.hdfg.stages[5].name = "ipa";
  CHECK(ValidateHwConfig(c).message() == "hdfg.stages[5].name 'ipa' names two stages");
}

}  // namespace
}  // namespace opuc
