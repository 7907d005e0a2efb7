// The partition of 300 seeded random graphs (tests/fusion's generator: every
// pattern kind, diamonds, extra outputs) on both presets: the properties of
// partition_check_util.h hold, every op the map sends to the CPU is there,
// and ops are counted once.
#include "fusion/random_ir_graph.h"
#include "opuc/partition/dfg.h"
#include "partition/partition_check_util.h"
#include "partition/partition_test_util.h"

namespace opuc {
namespace {

using namespace testing;

TEST_CASE("random graphs: groups are connected, convex, ordered, within the seed's rules") {
  for (const char* preset : {"opu1024", "tiny"}) {
    const HwConfig hw = *HwConfigPreset(preset);
    for (uint64_t seed = 1; seed <= 150; ++seed) {
      CAPTURE(preset);
      CAPTURE(seed);
      const Graph graph = RandomIrGraph(10 + static_cast<int>(seed % 40), seed);
      Expected<HwPartition> p = PartitionForHardware(graph, hw);
      REQUIRE_MESSAGE(p.ok(), p.status().ToString());
      CheckPartitionProperties(graph, hw, *p);
      CHECK(p->opu_ops + p->cpu_ops == static_cast<int64_t>(graph.nodes.size()));
      const Dfg dfg = BuildDfg(graph, hw);
      for (size_t n = 0; n < graph.nodes.size(); ++n) {
        const bool on_opu =
            p->groups[static_cast<size_t>(p->nodes[n].group)].kind == GroupKind::kOpu;
        if (dfg.nodes[static_cast<NodeId>(n)].role == DfgRole::kCpu) CHECK_FALSE(on_opu);
        CHECK_FALSE(p->nodes[n].reason.empty());
        for (const ReasonPart& part : p->nodes[n].reason) {  // final group ids, or none
          CHECK(part.group < static_cast<int32_t>(p->groups.size()));
          CHECK(part.other_group < static_cast<int32_t>(p->groups.size()));
        }
        CAPTURE(ReasonText(graph, *p, p->nodes[n].reason));
        CHECK(ReasonText(graph, *p, p->nodes[n].reason).find('?') == std::string::npos);
      }
    }
  }
}

TEST_CASE("CPU ops are fused by FuseOps' partitioner, OPU ops never join them") {
  Net n;
  TensorId c = n.Conv("c", n.In("x"));
  TensorId t = n.Unary(OpKind::kSigmoid, "sig", n.Unary(OpKind::kTanh, "tanh", c));
  Graph g = n.Finish(n.Conv("c2", n.b.Op(OpKind::kMul, "gate", {t, c})));
  const HwPartition p = PartitionOf(g);
  CHECK(GroupLines(g, p) == Lines{"opu c:ipa", "cpu tanh,sig,gate", "opu c2:ipa"});
  CHECK(ReasonOf(g, p, "gate") ==
        "mul: of two feature maps: the multipliers take per-channel constants");
  CHECK(ReasonText(g, p, p.groups[1].reason) ==
        "tanh: on f32 it is not a comparator op; quantized it becomes a table; "
        "sigmoid: on f32 it is not a comparator op; quantized it becomes a table; "
        "mul: of two feature maps: the multipliers take per-channel constants");
}

TEST_CASE("several graph inputs each start their own groups") {
  Net n;
  TensorId a = n.Relu("ra", n.Conv("ca", n.In("x")));
  TensorId b = n.Relu("rb", n.Conv("cb", n.In("y")));
  Graph g = n.Finish(n.Add("sum", a, b));
  CHECK(GroupLines(g, PartitionOf(g)) ==
        Lines{"opu ca:ipa,ra:compare", "opu cb:ipa,rb:compare,sum:res_add"});
}

TEST_CASE("the hardware config decides: no depthwise mode on tiny") {
  Net n;
  TensorId d = n.b.Op(OpKind::kDepthwiseConv2D, "dw", {n.In("x"), n.Const("w", {1, 3, 3, 4})},
                      Attrs({{"padding", Str("same")}}));
  Graph g = n.Finish(n.Relu("r", d));
  CHECK(GroupLines(g, PartitionOf(g)) == Lines{"opu dw:ipa,r:compare"});
  const HwPartition tiny = PartitionOf(g, "tiny");
  CHECK(GroupLines(g, tiny, "tiny") == Lines{"cpu dw", "opu r:compare"});
  CHECK(ReasonOf(g, tiny, "dw") ==
        "depthwise_conv2d: this OPU has no depthwise mode (ipa.depthwise)");
}

TEST_CASE("a bad config or graph is an error, not a crash") {
  Net n;
  Graph g = n.Finish(n.Conv("c", n.In("x")));
  HwConfig hw = *HwConfigPreset("opu1024");
  hw.store.max_outputs = 0;
  CHECK(PartitionForHardware(g, hw).status().message() ==
        "opu1024: store.max_outputs is 0; expected at least 1");
  g.nodes[0].inputs[0] = 99;
  CHECK_FALSE(PartitionForHardware(g, *HwConfigPreset("opu1024")).ok());
}

}  // namespace
}  // namespace opuc
