// Properties of a hardware partition, checked here from the graph alone
// (not with the library's own check): every op in one group, every group
// connected, no path leaving a group and coming back (convex), values read
// only from earlier groups, one ipa and one input pad per OPU group, and no
// op on the OPU that the op map sends to the CPU.
#ifndef OPUC_TESTS_PARTITION_PARTITION_CHECK_UTIL_H
#define OPUC_TESTS_PARTITION_PARTITION_CHECK_UTIL_H

#include <doctest/doctest.h>

#include <set>
#include <vector>

#include "opuc/opu/hw_config.h"
#include "opuc/partition/hw_partition.h"

namespace opuc::testing {

inline void CheckPartitionProperties(const Graph& graph, const HwConfig& hw, const HwPartition& p) {
  const size_t n = graph.nodes.size();
  std::vector<int32_t> group(n, -1);
  for (const HwGroup& g : p.groups)
    for (NodeId id : g.ops) {
      REQUIRE(group[static_cast<size_t>(id)] == -1);
      group[static_cast<size_t>(id)] = g.id;
    }
  for (size_t id = 0; id < n; ++id) REQUIRE(group[id] >= 0);
  const std::vector<NodeId> producer = graph.Producers();
  std::vector<std::vector<NodeId>> consumers(n);
  for (size_t id = 0; id < n; ++id)
    for (TensorId t : graph.nodes[id].inputs)
      if (t != kNoTensor && producer[static_cast<size_t>(t)] >= 0) {
        const NodeId q = producer[static_cast<size_t>(t)];
        consumers[static_cast<size_t>(q)].push_back(static_cast<NodeId>(id));
        CHECK(group[static_cast<size_t>(q)] <= group[id]);  // execution order
      }
  for (const HwGroup& g : p.groups) {
    CAPTURE(g.id);
    // Connected: a walk over edges inside the group reaches every member.
    std::set<NodeId> members(g.ops.begin(), g.ops.end()), seen;
    std::vector<NodeId> stack = {g.ops.front()};
    while (!stack.empty()) {
      const NodeId v = stack.back();
      stack.pop_back();
      if (!seen.insert(v).second) continue;
      for (NodeId c : consumers[static_cast<size_t>(v)])
        if (members.count(c)) stack.push_back(c);
      for (TensorId t : graph.node(v).inputs) {
        const NodeId q = t == kNoTensor ? -1 : producer[static_cast<size_t>(t)];
        if (q >= 0 && members.count(q)) stack.push_back(q);
      }
    }
    CHECK(seen.size() == members.size());
    // Convex: nothing reached from an edge that leaves the group is in it.
    std::set<NodeId> outside_reach;
    for (NodeId m : g.ops)
      for (NodeId c : consumers[static_cast<size_t>(m)])
        if (!members.count(c)) stack.push_back(c);
    while (!stack.empty()) {
      const NodeId v = stack.back();
      stack.pop_back();
      if (!outside_reach.insert(v).second) continue;
      CHECK_MESSAGE(!members.count(v), "group " << g.id << " is not convex");
      for (NodeId c : consumers[static_cast<size_t>(v)]) stack.push_back(c);
    }
    if (g.kind != GroupKind::kOpu) continue;
    int ipas = 0, input_pads = 0;
    for (NodeId m : g.ops) {
      const int32_t s = p.nodes[static_cast<size_t>(m)].stage;
      if (s < 0) continue;
      const HdfgStage& stage = hw.hdfg.stages[static_cast<size_t>(s)];
      ipas += stage.module == HwModule::kIpa;
      input_pads += stage.name == "pad";
    }
    CHECK(ipas <= 1);
    CHECK(input_pads <= 1);
    CHECK(static_cast<int64_t>(g.outputs.size()) <= hw.store.max_outputs);
  }
}

}  // namespace opuc::testing

#endif  // OPUC_TESTS_PARTITION_PARTITION_CHECK_UTIL_H
