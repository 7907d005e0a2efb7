//===- opuc/opu/codegen.h - OPU groups to instruction streams -----*- C++ -*-===//
//
// CompileOpuGroups turns the OPU groups of a partition (a quantized graph)
// into instruction streams for the HwConfig, with the DRAM they address:
// one constant blob (weights in the array's order, biases with the output
// stage's multipliers and shifts) followed by one region per activation a
// group reads or writes. docs/codegen.md describes the tiling, the layout
// and the estimator. An OPU group codegen cannot compile yet is listed in
// `skipped` with the reason (the node and the stage); it never fails the
// others.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_OPU_CODEGEN_H
#define OPUC_OPU_CODEGEN_H

#include <cstdint>
#include <string>
#include <vector>

#include "opuc/ir/graph.h"
#include "opuc/opu/hw_config.h"
#include "opuc/opu/isa.h"
#include "opuc/partition/hw_partition.h"
#include "opuc/status.h"
#include "opuc/tensor_io/host_tensor.h"

namespace opuc {

/// Where an activation lives in DRAM (docs/isa.md, "DRAM layout"): planes
/// (2 for i16: high bytes, then low bytes) x ceil(C / L) channel blocks x
/// H x W pixels of L bytes. A rank-2 [N, C] tensor is [1, 1, N, C].
struct ActivationLayout {
  TensorId tensor = kNoTensor;
  int64_t address = 0;
  int64_t height = 1, width = 1, channels = 1;
  int64_t lanes = 1;  ///< L.
  DType format = DType::kI8;

  int64_t planes() const { return format == DType::kI16 ? 2 : 1; }
  int64_t blocks() const { return (channels + lanes - 1) / lanes; }
  int64_t bytes() const { return planes() * blocks() * height * width * lanes; }
  /// Byte address of lane 0 of pixel (y, x) of a block in a plane.
  int64_t PixelAddress(int64_t plane, int64_t block, int64_t y, int64_t x) const {
    return address + ((plane * blocks() + block) * height + y) * width * lanes + x * lanes;
  }
};

/// The layout of `tensor` (shape [1, H, W, C] or [N, C], a quantized
/// format) at `address`; Unsupported naming the tensor otherwise.
Expected<ActivationLayout> LayoutActivation(const Graph& graph, TensorId tensor, int64_t lanes,
                                            int64_t address);

/// Writes `value` (the tensor's dtype and shape) into `dram` at its layout.
Status WriteActivation(const ActivationLayout& layout, const HostTensor& value,
                       std::vector<uint8_t>& dram);
/// Reads the tensor back from `dram`.
Expected<HostTensor> ReadActivation(const ActivationLayout& layout, const Shape& shape,
                                    const std::vector<uint8_t>& dram);

/// The steps between which a tensor's DRAM region must hold its value: from
/// the step that writes it (0 for a graph input) to the last step that reads
/// it (the last step for a graph output). Regions whose lifetimes do not
/// meet may share bytes.
struct Lifetime {
  int64_t first = 0, last = -1;
  bool Meets(const Lifetime& o) const { return first <= o.last && o.first <= last; }
};

/// Per tensor of a graph with `num_tensors` tensors, for steps that read
/// `inputs[s]` and write `outputs[s]`; tensors no step touches get {0, -1}.
std::vector<Lifetime> Lifetimes(size_t num_tensors,
                                const std::vector<std::vector<TensorId>>& inputs,
                                const std::vector<std::vector<TensorId>>& outputs,
                                const std::vector<TensorId>& graph_outputs);

struct OpuGroupCode {
  int32_t group = -1;  ///< HwGroup::id.
  std::vector<isa::Word> words;
  int64_t estimated_cycles = 0;
  std::string tiling;  ///< "tile 16x16, 2 output blocks, 1 weight chunk", for reports.
};

struct SkippedGroup {
  int32_t group = -1;
  std::string reason;  ///< "node 7 'pool' (max_pool2d) on stage pool: ..."
};

struct OpuCode {
  std::vector<uint8_t> constants;  ///< At DRAM address 0.
  /// After the constants, aligned; two share bytes only when their
  /// lifetimes (over the partition's groups) do not meet.
  std::vector<ActivationLayout> activations;
  int64_t dram_bytes = 0;
  std::vector<OpuGroupCode> groups;  ///< Compiled OPU groups, in execution order.
  std::vector<SkippedGroup> skipped;

  /// The layout of `tensor`, or nullptr.
  const ActivationLayout* Find(TensorId tensor) const;
  /// The code of partition group `group`, or nullptr (a CPU or skipped group).
  const OpuGroupCode* FindGroup(int32_t group) const;
  /// Why OPU group `group` was skipped, or nullptr.
  const SkippedGroup* FindSkipped(int32_t group) const;
  /// A DRAM image: the constants in place, every activation zero.
  std::vector<uint8_t> DramImage() const;
};

/// Compiles every OPU group of `partition` (made for `hw` from the
/// quantized `graph`). Errors: an invalid config, a graph that is not
/// quantized where a group reads it, or a layer no tiling fits (naming the
/// group, the node, the buffer and by how much).
Expected<OpuCode> CompileOpuGroups(const Graph& graph, const HwPartition& partition,
                                   const HwConfig& hw);

}  // namespace opuc

#endif  // OPUC_OPU_CODEGEN_H
