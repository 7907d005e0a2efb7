// HwConfig files through nlohmann-json: every field read into the member of
// its name, UTF-8 and surrogate pairs, hostile nesting and types refused with
// the field's path.
#include <doctest/doctest.h>
#include <sys/stat.h>

#include <filesystem>
#include <string>

#include "hw_config_error.h"
#include "opuc/opu/hw_config.h"

namespace opuc {
namespace {

using testing::ErrorOf;

// Every field, each with a value no preset has, written by hand.
constexpr const char* kWholeFile = R"({
  "name": "whole",
  "array": {"input_channels": 32, "output_channels": 8, "clock_mhz": 187.5},
  "ipa": {"depthwise": false, "transpose_conv": true, "depthwise_window": 3,
          "depthwise_line": 7, "max_kernel": 5, "max_stride": 3, "max_dilation": 2},
  "compare": {"lookup_table": false},
  "buffers": {"feature_map": {"bytes_per_bank": 1001, "banks": 3},
              "weight": {"bytes_per_bank": 1002, "banks": 4},
              "bias": {"bytes_per_bank": 1003, "banks": 5},
              "partial_sum": {"bytes_per_bank": 1004, "banks": 6}},
  "dram": {"word_bits": 128, "bandwidth_gb_per_s": 3.75, "latency_cycles": 9},
  "store": {"max_outputs": 4, "taps": ["pool", "adder"]},
  "hdfg": {"root": "rd", "stages": [{"name": "rd", "module": "mem_rd"},
                                    {"name": "ipa", "module": "ipa"}],
           "edges": [["rd", "ipa"]]}
})";

void CheckWhole(const HwConfig& c) {
  CHECK(c.name == "whole");
  CHECK(c.array.input_channels == 32);
  CHECK(c.array.output_channels == 8);
  CHECK(c.array.clock_mhz == 187.5);
  CHECK_FALSE(c.ipa.depthwise);
  CHECK(c.ipa.transpose_conv);
  CHECK(c.ipa.depthwise_window == 3);
  CHECK(c.ipa.depthwise_line == 7);
  CHECK(c.ipa.max_kernel == 5);
  CHECK(c.ipa.max_stride == 3);
  CHECK(c.ipa.max_dilation == 2);
  CHECK_FALSE(c.compare.lookup_table);
  CHECK(c.buffers.feature_map.bytes_per_bank == 1001);
  CHECK(c.buffers.feature_map.banks == 3);
  CHECK(c.buffers.weight.bytes_per_bank == 1002);
  CHECK(c.buffers.weight.banks == 4);
  CHECK(c.buffers.bias.bytes_per_bank == 1003);
  CHECK(c.buffers.bias.banks == 5);
  CHECK(c.buffers.partial_sum.bytes_per_bank == 1004);
  CHECK(c.buffers.partial_sum.banks == 6);
  CHECK(c.dram.word_bits == 128);
  CHECK(c.dram.bandwidth_gb_per_s == 3.75);
  CHECK(c.dram.latency_cycles == 9);
  CHECK(c.store.max_outputs == 4);
  CHECK(c.store.taps == (ModuleBit(HwModule::kPool) | ModuleBit(HwModule::kAdder)));
  REQUIRE(c.hdfg.stages.size() == 2);
  CHECK(c.hdfg.stages[0].successors == std::vector<int32_t>{1});
}

TEST_CASE("every field is read into the member of its name, and written back") {
  Expected<HwConfig> c = ParseHwConfigJson(kWholeFile);
  REQUIRE_MESSAGE(c.ok(), c.status().ToString());
  CheckWhole(*c);
  Expected<HwConfig> back = ParseHwConfigJson(HwConfigToJson(*c));
  REQUIRE_MESSAGE(back.ok(), back.status().ToString());
  CheckWhole(*back);
  // Leaving out any one field of a file without a base names it.
  CHECK(ErrorOf(R"({"name": "x", "array": {"input_channels": 1, "output_channels": 1}})") ==
        "array.clock_mhz is missing");
}

TEST_CASE("a file written before the depthwise window's fields reads as hardware without them") {
  // What programs written before `ipa.depthwise_window` and
  // `ipa.depthwise_line` hold: every other field, neither of those.
  std::string old = kWholeFile;
  for (const char* field : {"\"depthwise_window\": 3,", "\"depthwise_line\": 7,"}) {
    const size_t at = old.find(field);
    REQUIRE(at != std::string::npos);
    old.erase(at, std::string(field).size());
  }
  Expected<HwConfig> c = ParseHwConfigJson(old);
  REQUIRE_MESSAGE(c.ok(), c.status().ToString());
  CHECK(c->ipa.depthwise_window == 0);  // the diagonal mapping
  CHECK(c->ipa.depthwise_line == 0);    // the window fed a row a cycle
  CHECK(c->ipa.max_kernel == 5);
}

TEST_CASE("names are UTF-8, \\u escapes with surrogate pairs decode to one code point") {
  // U+1F600 is the pair D83D DE00 and four bytes of UTF-8: F0 9F 98 80.
  Expected<HwConfig> c =
      ParseHwConfigJson(R"({"base": "tiny", "name": "cam \ud83d\ude00 \u00e9"})");
  REQUIRE_MESSAGE(c.ok(), c.status().ToString());
  CHECK(c->name == "cam \xF0\x9F\x98\x80 \xC3\xA9");
  Expected<HwConfig> back = ParseHwConfigJson(HwConfigToJson(*c));
  REQUIRE_MESSAGE(back.ok(), back.status().ToString());
  CHECK(back->name == c->name);
  // Half a pair, or bytes that are not UTF-8, are syntax errors with a position.
  CHECK(ErrorOf(R"({"base": "tiny", "name": "\ud83d"})").rfind("JSON line 1 column ", 0) == 0);
  CHECK(ErrorOf("{\"base\": \"tiny\", \"name\": \"\xC3\x28\"}").rfind("JSON line 1 column ", 0) ==
        0);
}

TEST_CASE("hostile documents: deep nesting, wrong types, absurd numbers") {
  CHECK(ErrorOf(std::string(100000, '[') + std::string(100000, ']')) ==
        "JSON nests deeper than 32 levels");
  CHECK(ErrorOf(R"({"base": "tiny", "name": )" + std::string(40, '[') + std::string(40, ']') +
                "}") == "JSON nests deeper than 32 levels");
  CHECK(ErrorOf(R"({"base": "tiny", "array": 3})") == "array is a number; expected an object");
  CHECK(ErrorOf(R"({"base": "tiny", "name": 3})") == "name is a number; expected a string");
  CHECK(ErrorOf(R"({"base": "tiny", "array": {"clock_mhz": "fast"}})") ==
        "array.clock_mhz is a string; expected a number");
  CHECK(ErrorOf(R"({"base": "tiny", "buffers": {"weight": {"banks": null}}})") ==
        "buffers.weight.banks is null; expected a number");
  CHECK(ErrorOf(R"({"base": "tiny", "buffers": {"weight": {"ports": 2}}})") ==
        "buffers.weight.ports is not a known field");
  // A missing member of the graph is named by its whole path.
  CHECK(ErrorOf(R"({"base": "tiny", "hdfg": {"stages": [{"module": "ipa"}]}})") ==
        "hdfg.stages[0].name is missing");
  CHECK(ErrorOf(R"({"base": "tiny", "hdfg": {"stages": [{"name": "a", "module": "ipa"}]}})") ==
        "hdfg.root is missing");
  CHECK(ErrorOf(R"({"base": "tiny", "array": {"input_channels": 1e300}})") ==
        "array.input_channels is 1e+300; expected an integer");
  CHECK(ErrorOf(R"({"base": "tiny", "array": {"input_channels": 18446744073709551615}})") ==
        "array.input_channels is 18446744073709551616.0; expected an integer");
  // A number past double's range is an error, not an uncaught exception
  // (found by fuzz_hw_config: its input, 21 bytes).
  CHECK(ErrorOf("[6e66666666666666666666") ==
        "JSON: number overflow parsing '6e66666666666666666666'");
  CHECK(ErrorOf(R"({"base": "tiny", "array": {"clock_mhz": -1e999}})") ==
        "JSON: number overflow parsing '-1e999'");
  Expected<HwConfig> integral =
      ParseHwConfigJson(R"({"base": "tiny", "array": {"input_channels": 4.0}})");
  REQUIRE_MESSAGE(integral.ok(), integral.status().ToString());
  CHECK(integral->array.input_channels == 4);
}

TEST_CASE("a folder or a named pipe as a config file is refused without reading it") {
  const std::string dir = "hw_config_json_test_dir";
  std::filesystem::create_directories(dir);
  CHECK(LoadHwConfig(dir).status().message() ==
        "'" + dir +
            "' is not a regular file (a hardware config is a JSON file, or a preset: "
            "opu1024, tiny)");
  const std::string pipe = dir + "/pipe";
  REQUIRE(mkfifo(pipe.c_str(), 0600) == 0);
  // Opening a pipe with no writer blocks; the check must come first.
  CHECK(LoadHwConfig(pipe).status().code() == StatusCode::kInvalidArgument);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace opuc
