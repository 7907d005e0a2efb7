//===- src/program/physical_bound.cc - The hardware's physical limit ------===//
#include "opuc/program/physical_bound.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>
#include <unordered_set>

#include "opuc/ir/dtype.h"
#include "opuc/ir/macs.h"
#include "opuc/ir/shape.h"

namespace opuc {
namespace {

constexpr int64_t kMaxCycles = std::numeric_limits<int64_t>::max();

int64_t SaturatingAdd(int64_t a, int64_t b) { return a > kMaxCycles - b ? kMaxCycles : a + b; }

int64_t TensorBytes(const Tensor& tensor) {
  const std::optional<int64_t> elements = NumElements(tensor.shape);
  if (!elements || *elements <= 0) return 0;
  const int64_t size = static_cast<int64_t>(DTypeSize(tensor.dtype));
  return *elements > kMaxCycles / size ? kMaxCycles : *elements * size;
}

}  // namespace

const char* LayerClassName(LayerClass layer_class) {
  switch (layer_class) {
    case LayerClass::kFirst: return "first_layer";
    case LayerClass::kDense: return "dense";
    case LayerClass::kDepthwise: return "depthwise";
    case LayerClass::kOther: break;
  }
  return "other";
}

void PhysicalBound::Add(const PhysicalBound& other) {
  macs = SaturatingAdd(macs, other.macs);
  compute_cycles = SaturatingAdd(compute_cycles, other.compute_cycles);
  dram_bytes = SaturatingAdd(dram_bytes, other.dram_bytes);
  dram_cycles = SaturatingAdd(dram_cycles, other.dram_cycles);
  cycles = SaturatingAdd(cycles, other.cycles);
}

double DramBytesPerCycle(const HwConfig& hw) {
  return hw.array.clock_mhz > 0 ? hw.dram.bandwidth_gb_per_s * 1e3 / hw.array.clock_mhz : 0.0;
}

int64_t DramCycles(int64_t bytes, double bytes_per_cycle) {
  if (!(bytes_per_cycle > 0) || bytes <= 0) return 0;
  const double cycles = std::ceil(static_cast<double>(bytes) / bytes_per_cycle);
  // 2^63 is the first double past INT64_MAX; a NaN or infinity saturates too.
  return cycles < 9.2233720368547758e18 ? static_cast<int64_t>(cycles) : kMaxCycles;
}

PhysicalLimit::PhysicalLimit(const Graph& graph, const HwConfig& hw)
    : graph_(graph),
      macs_per_cycle_(hw.array.input_channels * hw.array.output_channels),
      i16_whole_(FeatureMapPairs(hw)),
      dram_bytes_per_cycle_(DramBytesPerCycle(hw)),
      producers_(graph.Producers()),
      consumers_(graph.tensors.size(), 0),
      after_inner_product_(graph.tensors.size(), false),
      graph_output_(graph.tensors.size(), false) {
  for (TensorId t : graph.outputs) graph_output_[static_cast<size_t>(t)] = true;
  for (const Node& node : graph.nodes) {  // topological order: inputs are settled first
    bool after = IsInnerProduct(node.op);
    for (TensorId t : node.inputs) {
      if (t == kNoTensor) continue;  // an absent optional input
      ++consumers_[static_cast<size_t>(t)];
      after = after || after_inner_product_[static_cast<size_t>(t)];
    }
    for (TensorId t : node.outputs) after_inner_product_[static_cast<size_t>(t)] = after;
  }
}

std::vector<LayerBound> PhysicalLimit::Layers(const std::vector<NodeId>& nodes) const {
  // Each inner product opens a layer; an op joins the layer of an op of the
  // step that produces one of its inputs (the stages after the array), else
  // of one that consumes its output (pads and pre-adds before it); ops
  // linked to no inner product make layers of their own the same way.
  std::unordered_map<NodeId, int32_t> layer_of;
  for (NodeId n : nodes) layer_of[n] = -1;
  int32_t layers = 0;
  for (NodeId n : nodes)
    if (IsInnerProduct(graph_.node(n).op)) layer_of[n] = layers++;
  auto join_producer = [&](NodeId n) {
    for (TensorId t : graph_.node(n).inputs) {
      if (t == kNoTensor) continue;
      const auto it = layer_of.find(producers_[static_cast<size_t>(t)]);
      if (it != layer_of.end() && it->second >= 0) return layer_of[n] = it->second, true;
    }
    return false;
  };
  for (NodeId n : nodes)
    if (layer_of[n] < 0) join_producer(n);
  for (auto it = nodes.rbegin(); it != nodes.rend(); ++it) {
    if (layer_of[*it] >= 0) continue;
    for (NodeId c : nodes)
      if (layer_of[c] >= 0 &&
          std::any_of(graph_.node(c).inputs.begin(), graph_.node(c).inputs.end(), [&](TensorId t) {
            return t != kNoTensor && producers_[static_cast<size_t>(t)] == *it;
          })) {
        layer_of[*it] = layer_of[c];
        break;
      }
  }
  for (NodeId n : nodes)
    if (layer_of[n] < 0 && !join_producer(n)) layer_of[n] = layers++;

  std::vector<std::vector<NodeId>> members(static_cast<size_t>(layers));
  for (NodeId n : nodes) members[static_cast<size_t>(layer_of[n])].push_back(n);
  std::vector<LayerBound> bounds;
  for (std::vector<NodeId>& layer : members) bounds.push_back(BoundLayer(std::move(layer)));
  return bounds;
}

LayerBound PhysicalLimit::BoundLayer(std::vector<NodeId> nodes) const {
  LayerBound layer;
  PhysicalBound& b = layer.bound;
  const std::unordered_set<NodeId> inside(nodes.begin(), nodes.end());
  std::unordered_set<TensorId> counted;
  std::unordered_map<TensorId, int32_t> inside_reads;
  int64_t array_passes = 0;
  for (NodeId n : nodes) {
    const Node& node = graph_.node(n);
    for (TensorId t : node.inputs) {
      if (t == kNoTensor) continue;
      ++inside_reads[t];
      if (!inside.count(producers_[static_cast<size_t>(t)]) && counted.insert(t).second)
        b.dram_bytes = SaturatingAdd(b.dram_bytes, TensorBytes(graph_.tensor(t)));
    }
    if (!IsInnerProduct(node.op)) continue;
    const int64_t macs = NodeMacs(graph_, n);
    const Tensor& data = graph_.tensor(node.inputs[0]);
    const int64_t planes = data.dtype == DType::kI16 ? I16Passes(graph_, n, i16_whole_) : 1;
    b.macs = SaturatingAdd(b.macs, macs);
    array_passes = SaturatingAdd(array_passes, macs > kMaxCycles / 2 ? kMaxCycles : macs * planes);
    const LayerClass cls = node.op == OpKind::kDepthwiseConv2D ? LayerClass::kDepthwise
                           : after_inner_product_[static_cast<size_t>(node.inputs[0])]
                               ? LayerClass::kDense
                               : LayerClass::kFirst;
    if (layer.layer_class == LayerClass::kOther) layer.layer_class = cls;
  }
  for (NodeId n : nodes)
    for (TensorId t : graph_.node(n).outputs) {
      const size_t i = static_cast<size_t>(t);
      if ((graph_output_[i] || consumers_[i] > inside_reads[t]) && counted.insert(t).second)
        b.dram_bytes = SaturatingAdd(b.dram_bytes, TensorBytes(graph_.tensor(t)));
    }
  if (macs_per_cycle_ > 0)
    b.compute_cycles = array_passes / macs_per_cycle_ + (array_passes % macs_per_cycle_ != 0);
  b.dram_cycles = DramCycles(b.dram_bytes, dram_bytes_per_cycle_);
  b.cycles = std::max(b.compute_cycles, b.dram_cycles);
  layer.nodes = std::move(nodes);
  return layer;
}

PhysicalBound PhysicalLimit::Bound(const std::vector<NodeId>& nodes, LayerClass* step_class) const {
  return Bound(std::vector<std::vector<NodeId>>{nodes}, step_class);
}

PhysicalBound PhysicalLimit::Bound(const std::vector<std::vector<NodeId>>& groups,
                                   LayerClass* step_class) const {
  PhysicalBound sum;
  int64_t most = -1;
  for (const std::vector<NodeId>& nodes : groups)
    for (const LayerBound& layer : Layers(nodes)) {
      sum.Add(layer.bound);
      if (layer.bound.compute_cycles > most) {
        most = layer.bound.compute_cycles;
        if (step_class) *step_class = layer.layer_class;
      }
    }
  return sum;
}

}  // namespace opuc
