// The 13 real models after the default pipeline, on opu1024: every group
// is connected, convex and ordered, within the seed's rules; and on
// face_detection_short_range at least 95% of the multiply-accumulates,
// computed here from the shapes, fall in OPU groups.
#include <map>

#include "frontend/model_cache.h"
#include "opuc/frontend/load_model.h"
#include "partition/partition_check_util.h"
#include "partition/partition_test_util.h"

namespace opuc {
namespace {

using namespace testing;

Graph Prepared(const std::string& name) {
  return OptimizedModel(test::ModelPath(name + ".tflite"), /*opt_level=*/2);
}

/// Inner-product MACs from the shapes (docs: out pixels x kernel taps x
/// input channels per output channel), independent of NodeMacs.
double MacsOf(const Graph& g, const Node& node) {
  auto product = [](const Shape& s, size_t from, size_t to) {
    double p = 1;
    for (size_t i = from; i < to; ++i) p *= static_cast<double>(s[i]);
    return p;
  };
  const Shape& out = g.tensor(node.outputs[0]).shape;
  const Shape& w = g.tensor(node.inputs[1]).shape;
  switch (node.op) {
    case OpKind::kConv2D: return product(out, 0, 4) * product(w, 1, 4);
    case OpKind::kDepthwiseConv2D: return product(out, 0, 4) * product(w, 1, 3);
    case OpKind::kFullyConnected: return product(out, 0, out.size()) * static_cast<double>(w[1]);
    case OpKind::kTransposeConv2D:
      return product(g.tensor(node.inputs[0]).shape, 0, 4) * product(w, 0, 3);
    default: return 0;
  }
}

TEST_CASE("every real model: groups connected, convex, ordered, one ipa and one pad each") {
  const HwConfig hw = *HwConfigPreset("opu1024");
  for (const std::string& name : test::RealModelNames()) {
    CAPTURE(name);
    const Graph graph = Prepared(name);
    Expected<HwPartition> p = PartitionForHardware(graph, hw);
    REQUIRE_MESSAGE(p.ok(), p.status().ToString());
    CheckPartitionProperties(graph, hw, *p);
    int opu = 0;
    for (const HwGroup& g : p->groups) opu += g.kind == GroupKind::kOpu;
    MESSAGE(name, ": ", graph.nodes.size(), " ops in ", p->groups.size(), " groups (", opu,
            " opu); MACs on the OPU ", p->opu_macs, " of ", p->total_macs);
  }
}

TEST_CASE("face_detection_short_range: at least 95% of the MACs in OPU groups") {
  const Graph graph = Prepared("face_detection_short_range");
  const HwPartition p = PartitionOf(graph);
  double total = 0, on_opu = 0;
  for (const HwGroup& g : p.groups)
    for (NodeId n : g.ops) {
      const double macs = MacsOf(graph, graph.node(n));
      total += macs;
      if (g.kind == GroupKind::kOpu) on_opu += macs;
    }
  // 21 conv2d and 16 depthwise layers (docs/hdfg.md lists the groups).
  CHECK(total > 3.0e7);
  CHECK(on_opu >= 0.95 * total);
  CHECK(static_cast<double>(p.opu_macs) == on_opu);
  // The detector heads end in reshape + concat along anchors: the CPU's.
  std::map<std::string, int> cpu_ops;
  for (const HwGroup& g : p.groups)
    if (g.kind == GroupKind::kCpu)
      for (NodeId n : g.ops) ++cpu_ops[std::string(OpName(graph.node(n).op))];
  CHECK(cpu_ops == std::map<std::string, int>{{"concat", 2}, {"reshape", 4}});
}

}  // namespace
}  // namespace opuc
