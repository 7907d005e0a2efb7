//===- tests/partition/store_taps_test.cc - Values stored from inside a group ===//
//
// A value another group reads may stay inside a group only where the group
// can store it mid-way: on a module of HwConfig::store.taps (opu1024 taps
// the array's value too), and only the value that enters a pool or an
// upsample, since the post stages after any other would overwrite it in
// place before the group's last value is stored.
//
//===----------------------------------------------------------------------===//
#include <doctest/doctest.h>

#include "partition_test_util.h"

namespace opuc {
namespace {

using testing::GroupLines;
using testing::Lines;
using testing::Net;
using testing::PartitionOf;
using testing::ReasonOf;

/// A conv whose value another conv reads and a pool pools (hand_landmark's
/// first residual block: the pool feeds the residual add after the block).
Graph ConvReadTwice() {
  Net n;
  const TensorId c0 = n.Conv("c0", n.In("x"));
  const TensorId c1 = n.Conv("c1", c0);
  const TensorId p = n.MaxPool("p", c0);
  return n.Finish(n.Add("out", c1, p));
}

TEST_CASE("the array's value that enters a pool is stored beside the pool's") {
  const Graph g = ConvReadTwice();
  const HwPartition part = PartitionOf(g);
  CHECK(GroupLines(g, part) == Lines{"opu c0:ipa,p:pool", "opu c1:ipa,out:res_add"});
  CHECK(part.groups[0].outputs.size() == 2);
}

TEST_CASE("tiny taps nothing: the pool opens a group of its own") {
  const Graph g = ConvReadTwice();
  const HwPartition part = PartitionOf(g, "tiny");
  CHECK(GroupLines(g, part, "tiny") == Lines{"opu c0:ipa", "opu c1:ipa", "opu p:pool,out:res_add"});
  CHECK(ReasonOf(g, part, "p") ==
        "joining group 0 would bury c0's value inside it while c1 reads it, and ipa results cannot "
        "be stored (store.taps)");
}

TEST_CASE("a value a later post stage overwrites is not stored from inside the group") {
  // selfie_segmentation's blocks: c0's value is read by c1 and by the add
  // after it (a residual from DRAM); the add would change c0's entries in
  // place before the group's last value, the pool's, is stored.
  Net n;
  const TensorId x = n.In("x");
  const TensorId c0 = n.Conv("c0", x);
  const TensorId a = n.Add("a", c0, x);
  const TensorId p = n.MaxPool("p", a);
  const Graph g = n.Finish(n.Add("out", n.Conv("c1", c0), p));
  const HwPartition part = PartitionOf(g);
  CHECK(GroupLines(g, part) ==
        Lines{"opu c0:ipa", "opu a:res_add,p:pool", "opu c1:ipa,out:res_add"});
  CHECK(ReasonOf(g, part, "a") ==
        "joining group 0 would bury c0's value inside it while c1 reads it, and only a value that "
        "enters a pool or an upsample can be stored from inside a group (the post stages after "
        "it work in place)");
}

}  // namespace
}  // namespace opuc
