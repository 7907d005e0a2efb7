// `opuc partition` as a user runs it, on the bundled example (the network
// drawn in examples/make_tiny_cnn.cc, after the default pipeline: 17 ops).
#include <doctest/doctest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "opuc/opug/opug.h"
#include "partition/partition_test_util.h"
#include "tools/cli_util.h"

namespace {

using namespace opuc::cli_test;

TEST_CASE("opuc partition --json groups the example as the HDFG allows") {
  Run run = Opuc(std::string("partition --json ") + OPUC_EXAMPLE_MODEL);
  REQUIRE(run.exit_code == 0);
  const auto json = nlohmann::json::parse(run.out);
  CHECK(json["hw"] == "opu1024");
  CHECK(json["opu_ops"] == 17);
  CHECK(json["cpu_ops"] == 0);
  // Each conv needs its own ipa; relu goes to compare, the pool and the
  // residual add follow it, concat is read at mem_rd, nearest 2x at upsample.
  const std::vector<std::vector<std::string>> groups = {{"conv1", "conv1/relu", "pool1"},
                                                        {"conv2", "conv2/relu"},
                                                        {"conv3", "res", "res_relu"},
                                                        {"branch_a", "branch_a/relu"},
                                                        {"branch_b", "branch_b/relu"},
                                                        {"concat", "fuse", "fuse/relu", "up"},
                                                        {"head"}};
  REQUIRE(json["groups"].size() == groups.size());
  for (size_t g = 0; g < groups.size(); ++g) {
    CHECK(json["groups"][g]["kind"] == "opu");
    CHECK(json["groups"][g]["ops"].get<std::vector<std::string>>() == groups[g]);
  }
  // MACs = output pixels × output channels × taps: conv1 1024·12·27,
  // conv2, conv3, branch_b 256·12·108 each, branch_a 256·12·12,
  // fuse 256·12·24, head 1024·4·108.
  CHECK(json["groups"][0]["macs"] == 331776);
  CHECK(json["macs"]["total"] == 331776 * 4 + 36864 + 73728 + 442368);
}

TEST_CASE("opuc partition --dot draws the groups, a bad --hw exits 2 naming it") {
  const std::string dot = TempPath("groups.dot");
  Run run = Opuc(std::string("partition ") + OPUC_EXAMPLE_MODEL + " --dot " + dot);
  REQUIRE(run.exit_code == 0);
  const std::string text = ReadFile(dot);
  CHECK(text.rfind("digraph", 0) == 0);
  CHECK(text.find("conv1") != std::string::npos);
  std::filesystem::remove(dot);
  Run bad = Opuc(std::string("partition ") + OPUC_EXAMPLE_MODEL + " --hw nope");
  CHECK(bad.exit_code == 2);
  CHECK(CountLines(bad.err) == 1);
  CHECK(bad.err.find("'nope' is neither a hardware preset (opu1024, tiny) nor a readable file") !=
        std::string::npos);
}

TEST_CASE("opuc partition: names with braces, quotes, newlines and UTF-8 are only names") {
  opuc::testing::Net n;
  const std::vector<std::string> names = {"{g:1}", "}{g:", "say \"hi\"\nthen {",
                                          "\xe5\x8d\xb7{g:0}"};
  opuc::TensorId a = n.Relu(names[1], n.Conv(names[0], n.In("{g:99}")));
  const opuc::Graph graph = n.Finish(n.Relu(names[3], n.Conv(names[2], a)));
  const std::string model = TempPath("odd_names.opug");
  REQUIRE(opuc::SaveOpugFile(graph, model).ok());
  Run run = Opuc("partition --json " + model);
  REQUIRE(run.exit_code == 0);
  const auto json = nlohmann::json::parse(run.out);
  REQUIRE(json["groups"].size() == 2);
  CHECK(json["groups"][0]["ops"].get<std::vector<std::string>>() ==
        std::vector<std::string>{names[0], names[1]});
  CHECK(json["groups"][1]["ops"].get<std::vector<std::string>>() ==
        std::vector<std::string>{names[2], names[3]});
  CHECK(json["groups"][0]["reason"] == "reads graph input '{g:99}' from DRAM");
  CHECK(json["groups"][1]["reason"] == "second ipa in group 0");
  Run text = Opuc("partition " + model);
  CHECK(text.exit_code == 0);
  CHECK(text.out.find("starts: second ipa in group 0") != std::string::npos);
  std::filesystem::remove(model);
}

}  // namespace
