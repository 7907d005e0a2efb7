// Reasons are data (kind + ids) and become text once: a model's names, which
// may hold anything, never change how a graph is partitioned or numbered.
#include "opuc/partition/reason.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "partition/partition_test_util.h"

namespace opuc {
namespace {

using namespace testing;

/// conv -> relu -> conv -> relu, with the given names for the input and the
/// four nodes.
Graph Chain(const std::string& input, const std::vector<std::string>& names) {
  Net n;
  TensorId a = n.Relu(names[1], n.Conv(names[0], n.In(input)));
  return n.Finish(n.Relu(names[3], n.Conv(names[2], a)));
}

TEST_CASE("names holding {g:1}, braces, quotes, newlines and UTF-8 partition as plain ones do") {
  const Graph plain = Chain("x", {"c1", "r1", "c2", "r2"});
  const Graph odd = Chain("{g:99}", {"{g:1}", "}{g:", "say \"hi\"\nthen {", "卷积{g:0}"});
  const HwPartition p = PartitionOf(plain);
  const HwPartition q = PartitionOf(odd);
  REQUIRE(p.groups.size() == 2);
  REQUIRE(q.groups.size() == p.groups.size());
  for (size_t i = 0; i < p.groups.size(); ++i) CHECK(q.groups[i].ops == p.groups[i].ops);
  for (size_t n = 0; n < plain.nodes.size(); ++n) {
    CHECK(q.nodes[n].group == p.nodes[n].group);
    CHECK(q.nodes[n].stage == p.nodes[n].stage);
  }
  // The second conv could not join group 0: the reason holds the group, not a name.
  const ReasonPart& refusal = q.nodes[2].reason.at(0);
  CHECK(refusal.kind == ReasonKind::kSecondIpa);
  CHECK(refusal.group == 0);
  CHECK(ReasonText(odd, q, q.nodes[2].reason) == "second ipa in group 0");
  // Names are copied into the text as they are, control characters escaped.
  CHECK(ReasonText(odd, q, q.nodes[0].reason) == "reads graph input '{g:99}' from DRAM");
  CHECK(ReasonText(odd, q, q.nodes[3].reason) == "stage compare after ipa in group 1");
  CHECK(ReasonText(plain, p, p.nodes[0].reason) == "reads graph input 'x' from DRAM");
}

TEST_CASE("FormatReason: every clause, names on one line") {
  Net n;
  TensorId x = n.In("in\tput\n");
  Graph g = n.Finish(n.Relu("r\x01", n.Conv("conv\n2", x)));
  const std::vector<std::string> stages = {"mem_rd", "ipa", "compare"};
  ReasonPart from_cpu;
  from_cpu.kind = ReasonKind::kReadsFromCpu;
  from_cpu.tensor = 0;
  from_cpu.node = 0;
  ReasonPart stores;
  stores.kind = ReasonKind::kTooManyStores;
  stores.group = 4;
  stores.count = 3;
  stores.limit = 2;
  CHECK(FormatReason(g, stages, {from_cpu, stores}) ==
        "reads 'in\\tput\\n' from the CPU (conv\\n2); "
        "group 4 would store 3 values; store.max_outputs is 2");
  ReasonPart joined;
  joined.kind = ReasonKind::kJoined;
  joined.group = 1;
  joined.stage = 2;
  joined.other_stage = 1;
  CHECK(FormatReason(g, stages, {joined}) == "stage compare after ipa in group 1");
  ReasonPart buried;
  buried.kind = ReasonKind::kBuried;
  buried.group = 0;
  buried.node = 1;
  CHECK(FormatReason(g, stages, {buried}) ==
        "joining group 0 would bury r\\x01's value inside it while the graph output reads it, "
        "and it cannot be stored (store.taps)");
  CHECK(std::string(ReasonKindName(ReasonKind::kBuried)) == "buried");
}

}  // namespace
}  // namespace opuc
