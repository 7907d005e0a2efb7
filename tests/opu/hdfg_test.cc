// FindMatch on the default HDFG against the first-match table that
// reference/opu-compiler.md section 2 derives from the original (row: the
// op's modules; column: the last matched stage; "restart": no match).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "opuc/opu/hw_config.h"

namespace opuc {
namespace {

const char* const kColumns[] = {"start", "mem_rd", "add_pre", "mul_pre",  "pad",  "ipa",
                                "mul",   "add",    "compare", "pool_pad", "pool", "res_add"};

void CheckRow(HwModuleMask modules, const std::vector<std::string>& expected) {
  const Hdfg g = DefaultHdfg();
  StageRequest request;
  request.modules = modules;
  REQUIRE(expected.size() == 12);
  for (size_t c = 0; c < 12; ++c) {
    CAPTURE(kColumns[c]);
    const int32_t last = c == 0 ? -1 : g.Find(kColumns[c]);
    const int32_t found = FindMatch(g, last, request);
    CHECK((found < 0 ? std::string("restart") : g.stages[static_cast<size_t>(found)].name) ==
          expected[c]);
  }
}

constexpr HwModuleMask Bit(HwModule m) { return ModuleBit(m); }

TEST_CASE("FindMatch reproduces the reference's first-match table") {
  // add -> ADDER | RES_ADDER
  CheckRow(Bit(HwModule::kAdder) | Bit(HwModule::kResAdder),
           {"add_pre", "add_pre", "add", "add", "add", "add", "add", "res_add", "res_add",
            "res_add", "res_add", "restart"});
  CheckRow(Bit(HwModule::kMultiplier),
           {"mul_pre", "mul_pre", "mul_pre", "mul", "mul", "mul", "restart", "restart", "restart",
            "restart", "restart", "restart"});
  CheckRow(Bit(HwModule::kPad), {"pad", "pad", "pad", "pad", "pool_pad", "pool_pad", "pool_pad",
                                 "pool_pad", "restart", "restart", "restart", "restart"});
  CheckRow(Bit(HwModule::kIpa), {"ipa", "ipa", "ipa", "ipa", "ipa", "restart", "restart", "restart",
                                 "restart", "restart", "restart", "restart"});
  CheckRow(Bit(HwModule::kComparator),
           {"compare", "compare", "compare", "compare", "compare", "compare", "compare", "compare",
            "restart", "compare", "compare", "compare"});
  CheckRow(Bit(HwModule::kPool), {"pool", "pool", "pool", "pool", "pool", "pool", "pool", "pool",
                                  "pool", "pool", "restart", "pool"});
  // concat matches only at the start; upsample everywhere.
  CheckRow(Bit(HwModule::kMemRead),
           {"mem_rd", "restart", "restart", "restart", "restart", "restart", "restart", "restart",
            "restart", "restart", "restart", "restart"});
  CheckRow(Bit(HwModule::kUpsample), std::vector<std::string>(12, "upsample"));
}

TEST_CASE("FindMatch: nothing follows upsample, a pad must feed the unit that reads it") {
  const Hdfg g = DefaultHdfg();
  StageRequest relu;
  relu.modules = Bit(HwModule::kComparator);
  CHECK(FindMatch(g, g.Find("upsample"), relu) == -1);
  StageRequest pad_for_conv;
  pad_for_conv.modules = Bit(HwModule::kPad);
  pad_for_conv.feeds = Bit(HwModule::kIpa);
  CHECK(FindMatch(g, -1, pad_for_conv) == g.Find("pad"));
  CHECK(FindMatch(g, g.Find("add"), pad_for_conv) == -1);  // pool_pad feeds the pool only
  StageRequest pad_for_pool = pad_for_conv;
  pad_for_pool.feeds = Bit(HwModule::kPool);
  CHECK(FindMatch(g, -1, pad_for_pool) == g.Find("pool_pad"));
}

TEST_CASE("the default HDFG: 12 stages, 19 edges, the compare/pool/res_add cycle") {
  const Hdfg g = DefaultHdfg();
  CHECK(g.stages.size() == 12);
  size_t edges = 0;
  for (const HdfgStage& s : g.stages) edges += s.successors.size();
  CHECK(edges == 19);
  for (const char* name : {"compare", "pool", "res_add"}) CHECK(OnCycle(g, g.Find(name)));
  for (const char* name : {"mem_rd", "pad", "ipa", "add", "pool_pad", "upsample"})
    CHECK_FALSE(OnCycle(g, g.Find(name)));
  CHECK(HwModuleName(HwModule::kResAdder) == "res_adder");
  CHECK(HwModuleFromName("res_adder") == HwModule::kResAdder);
  CHECK_FALSE(HwModuleFromName("adder2").has_value());
}

}  // namespace
}  // namespace opuc
