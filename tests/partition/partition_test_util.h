// Helpers for the partition tests: a small network builder with NHWC f32
// values, the partition of a graph, and its groups read back as text:
// "opu conv:ipa,relu:compare" or "cpu sig", in execution order.
#ifndef OPUC_TESTS_PARTITION_PARTITION_TEST_UTIL_H
#define OPUC_TESTS_PARTITION_PARTITION_TEST_UTIL_H

#include <string>
#include <vector>

#include "opuc/partition/hw_partition.h"
#include "pass/pass_test_util.h"

namespace opuc::testing {

/// Builds NHWC f32 networks of 4-channel maps unless told otherwise.
class Net {
 public:
  GraphBuilder b{"case"};

  TensorId In(const std::string& name, Shape shape = {1, 8, 8, 4}) {
    return b.Input(name, DType::kF32, std::move(shape));
  }
  TensorId Const(const std::string& name, Shape shape) {
    const auto n = static_cast<size_t>(*NumElements(shape));
    return b.ConstantF32(name, std::move(shape), std::vector<float>(n, 0.5f));
  }
  TensorId Conv(const std::string& name, TensorId x, int64_t k = 1, int64_t ci = 4, int64_t co = 4,
                int64_t stride = 1) {
    return b.Op(OpKind::kConv2D, name, {x, Const(name + "/w", {co, k, k, ci})},
                Attrs({{"padding", Str("same")}, {"strides", Ints({stride, stride})}}));
  }
  TensorId Bias(const std::string& name, TensorId x, int64_t c = 4) {
    return b.Op(OpKind::kAdd, name, {x, Const(name + "/c", {c})});
  }
  TensorId Scale(const std::string& name, TensorId x, int64_t c = 4) {
    return b.Op(OpKind::kMul, name, {x, Const(name + "/c", {c})});
  }
  TensorId Unary(OpKind op, const std::string& name, TensorId x) { return b.Op(op, name, {x}); }
  TensorId Relu(const std::string& name, TensorId x) { return Unary(OpKind::kRelu, name, x); }
  TensorId MaxPool(const std::string& name, TensorId x) {
    return b.Op(OpKind::kMaxPool2D, name, {x},
                Attrs({{"filter", Ints({2, 2})}, {"padding", Str("same")}}));
  }
  TensorId Add(const std::string& name, TensorId x, TensorId y) {
    return b.Op(OpKind::kAdd, name, {x, y});
  }
  TensorId Pad(const std::string& name, TensorId x, std::vector<int64_t> pads) {
    return b.Op(OpKind::kPad, name, {x}, Attrs({{"pads", Ints(std::move(pads))}}));
  }
  Graph Finish(TensorId out) {
    b.Output(out);
    return Build(std::move(b));
  }
};

/// A preset, or "seed": opu1024 with the seed's HDFG (its pre-adder and
/// pre-multiplier, which the presets leave out).
inline HwConfig TestConfig(const std::string& hw) {
  Expected<HwConfig> config = HwConfigPreset(hw == "seed" ? "opu1024" : hw);
  REQUIRE(config.ok());
  if (hw == "seed") config->hdfg = DefaultHdfg();
  return *config;
}

inline HwPartition PartitionOf(const Graph& graph, const std::string& hw = "opu1024") {
  Expected<HwPartition> p = PartitionForHardware(graph, TestConfig(hw));
  REQUIRE_MESSAGE(p.ok(), p.status().ToString());
  return std::move(p).value();
}

/// "opu a:ipa,b:compare" / "cpu c,d" per group, in execution order.
inline Lines GroupLines(const Graph& graph, const HwPartition& p,
                        const std::string& hw = "opu1024") {
  const HwConfig config = TestConfig(hw);
  Lines lines;
  for (const HwGroup& g : p.groups) {
    std::string line = GroupKindName(g.kind);
    line += ' ';
    for (size_t i = 0; i < g.ops.size(); ++i) {
      const NodePlacement& place = p.nodes[static_cast<size_t>(g.ops[i])];
      line += (i ? "," : "") + graph.node(g.ops[i]).name;
      if (place.stage >= 0) line += ":" + config.hdfg.stages[static_cast<size_t>(place.stage)].name;
    }
    lines.push_back(line);
  }
  return lines;
}

inline const NodePlacement& PlaceOf(const Graph& graph, const HwPartition& p,
                                    const std::string& name) {
  for (size_t n = 0; n < graph.nodes.size(); ++n)
    if (graph.nodes[n].name == name) return p.nodes[n];
  FAIL("no node called " << name);
  static NodePlacement none;
  return none;
}

/// The reason of node `name`'s placement, as text.
inline std::string ReasonOf(const Graph& graph, const HwPartition& p, const std::string& name) {
  return ReasonText(graph, p, PlaceOf(graph, p, name).reason);
}

}  // namespace opuc::testing

#endif  // OPUC_TESTS_PARTITION_PARTITION_TEST_UTIL_H
