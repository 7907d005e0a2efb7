//===- opuc/opu/hdfg.h - The OPU's hardware dataflow graph --------*- C++ -*-===//
//
// The HDFG (seed 002) describes one trip through the OPU datapath as data:
// stages, each an instance of a hardware module (an adder, a multiplier, the
// inner-product array, ...), and directed edges saying which stage may feed
// which. A group of IR ops is one walk along these edges. The default graph
// (presets opu1024 and tiny) is
//
//   mem_rd -> add_pre -> mul_pre -> pad -> ipa -> mul -> add
//   add -> {compare, pool_pad, res_add};  pool_pad -> pool
//   compare -> {pool, res_add, upsample}; pool -> {compare, res_add, upsample}
//   res_add -> {compare, pool, upsample}
//
// with the cycle among compare, pool and res_add. docs/hdfg.md draws it.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_OPU_HDFG_H
#define OPUC_OPU_HDFG_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace opuc {

/// The kinds of hardware module a stage can be (the original's HWMODULE).
enum class HwModule : uint8_t {
  kMemRead,     ///< Reads the group's input from DRAM; concatenation happens here.
  kAdder,       ///< Adds a per-channel constant (input normalization, bias, BN).
  kMultiplier,  ///< Multiplies by a per-channel constant.
  kPad,         ///< Writes a zero border around the feature map.
  kIpa,         ///< The inner-product array: convolutions and fully-connected layers.
  kComparator,  ///< Activations: ReLU and clips, leaky/PReLU, table lookups.
  kPool,        ///< Max and average pooling, global average (MEAN).
  kResAdder,    ///< Adds a second feature map read from DRAM (residual).
  kUpsample,    ///< Nearest-neighbour 2x upsampling.
};
inline constexpr int kNumHwModules = 9;
static_assert(static_cast<int>(HwModule::kUpsample) + 1 == kNumHwModules,
              "kNumHwModules must count every HwModule");

/// A set of modules, one bit per HwModule.
using HwModuleMask = uint16_t;
constexpr HwModuleMask ModuleBit(HwModule module) {
  return static_cast<HwModuleMask>(1u << static_cast<unsigned>(module));
}

/// "mem_rd", "adder", "multiplier", "pad", "ipa", "comparator", "pool",
/// "res_adder", "upsample".
std::string_view HwModuleName(HwModule module);
std::optional<HwModule> HwModuleFromName(std::string_view name);

struct HdfgStage {
  std::string name;  ///< Unique in the graph: "ipa", "pool_pad", ...
  HwModule module = HwModule::kMemRead;
  std::vector<int32_t> successors;  ///< Stage indices, in link order (BFS order).
};

struct Hdfg {
  std::vector<HdfgStage> stages;
  int32_t root = 0;  ///< Where a new group starts matching.

  /// The index of the stage called `name`, or -1.
  int32_t Find(std::string_view name) const;
  /// Appends the edge from -> to (both by name); false if either is unknown.
  bool Link(std::string_view from, std::string_view to);
};

/// What a DFG node asks of the stage it lands on.
struct StageRequest {
  HwModuleMask modules = 0;  ///< The stage's module must be one of these.
  /// When not 0, one of the stage's successors must be one of these (a pad
  /// must sit in front of the unit that reads it: ipa, or pool).
  HwModuleMask feeds = 0;
};

/// The seed's FindMatch. From `last_match` (-1: nothing matched yet, start
/// at the root and test the root itself), walks the HDFG breadth first over
/// successors, never re-entering `last_match`, and returns the first stage
/// that satisfies `request`, or -1. Stages are visited once.
int32_t FindMatch(const Hdfg& hdfg, int32_t last_match, const StageRequest& request);

/// Whether `stage` lies on a cycle of the HDFG (it may then be used more
/// than once in a group, though never twice in a row).
bool OnCycle(const Hdfg& hdfg, int32_t stage);

}  // namespace opuc

#endif  // OPUC_OPU_HDFG_H
