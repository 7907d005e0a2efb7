//===- opuc/program/physical_bound.h - The hardware's physical limit -*- C++ -*-===//
//
// The fewest cycles the OPU's hardware could take for an OPU step, whatever
// the mapping (DESIGN.md §16): the step's nodes are split into layers (an
// inner product with the elementwise work fused around it: pads and pre-adds
// before, output stage, compare, table, pool, residual add and upsample
// after; or a group of such ops alone), and each layer is bounded by the
// larger of
//   compute: MACs / (L·Co_a), rounded up; twice for an i16 input where the
//            array cannot read one whole (a feature-map buffer of one bank,
//            FeatureMapPairs; a depthwise kernel wider than 4 taps, whose
//            window has no room for the low bytes);
//   DRAM:    the bytes it cannot avoid moving, at the HwConfig's bandwidth:
//            every constant it uses (weights, biases, tables) once, every
//            activation it reads from outside the layer once, every tensor
//            it produces for outside the layer once, each at its real size
//            (elements × the format's bytes: i16 is two; no lane padding).
// A step's bound is the sum of its layers', so it does not depend on how
// opuc groups layers into steps: a step that keeps a tensor on chip between
// two layers may run faster than it, and the report then shows it below 1x.
// The bound of opuc's own mapping (channel rounding, the diagonal depthwise
// mapping, bytes as laid out) is opuc/program/mapping_bound.h.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_PROGRAM_PHYSICAL_BOUND_H
#define OPUC_PROGRAM_PHYSICAL_BOUND_H

#include <cstdint>
#include <vector>

#include "opuc/ir/graph.h"
#include "opuc/opu/hw_config.h"

namespace opuc {

/// What a layer (and a step: its layer of most compute) is, for the reports'
/// per-kind figures: the first layer (a dense inner product no inner product
/// comes before, such as the 3-channel input conv), another dense one (conv2d,
/// transpose_conv2d, fully_connected), a depthwise one, or none (pools, adds,
/// tables alone).
enum class LayerClass : uint8_t { kOther, kFirst, kDense, kDepthwise };
const char* LayerClassName(LayerClass layer_class);  // "first_layer", "dense", ...

struct PhysicalBound {
  int64_t macs = 0;
  int64_t compute_cycles = 0;
  int64_t dram_bytes = 0;
  int64_t dram_cycles = 0;
  int64_t cycles = 0;  ///< Per layer the larger term; summed over layers.
  void Add(const PhysicalBound& other);
};

struct LayerBound {
  LayerClass layer_class = LayerClass::kOther;
  std::vector<NodeId> nodes;  ///< In graph order.
  PhysicalBound bound;
};

/// DRAM bytes a cycle at `hw`'s bandwidth and clock.
double DramBytesPerCycle(const HwConfig& hw);
/// ⌈bytes / bytes_per_cycle⌉, saturating at INT64_MAX; 0 for a bandwidth of 0.
int64_t DramCycles(int64_t bytes, double bytes_per_cycle);

/// Bounds the steps of one graph (which must outlive it); built once (it
/// finds what comes before each tensor), asked for each step.
class PhysicalLimit {
 public:
  PhysicalLimit(const Graph& graph, const HwConfig& hw);

  /// `nodes` (one step's, in graph order) split into layers, each bounded.
  std::vector<LayerBound> Layers(const std::vector<NodeId>& nodes) const;
  /// The sum of the layers' bounds, and the class of the layer of most
  /// compute cycles (the first such).
  PhysicalBound Bound(const std::vector<NodeId>& nodes, LayerClass* step_class = nullptr) const;
  /// The same over a step of several groups (ProgramStep::GroupNodes),
  /// each split into its own layers.
  PhysicalBound Bound(const std::vector<std::vector<NodeId>>& groups,
                      LayerClass* step_class = nullptr) const;

 private:
  LayerBound BoundLayer(std::vector<NodeId> nodes) const;

  const Graph& graph_;
  int64_t macs_per_cycle_;  ///< L × Co.
  bool i16_whole_;          ///< FeatureMapPairs: the array reads an i16 in one pass.
  double dram_bytes_per_cycle_;
  std::vector<NodeId> producers_;          ///< Per tensor.
  std::vector<int32_t> consumers_;         ///< Per tensor: how many nodes read it.
  std::vector<bool> after_inner_product_;  ///< Per tensor: an inner product comes before.
  std::vector<bool> graph_output_;         ///< Per tensor.
};

}  // namespace opuc

#endif  // OPUC_PROGRAM_PHYSICAL_BOUND_H
