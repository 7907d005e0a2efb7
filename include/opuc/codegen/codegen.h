//===- opuc/codegen/codegen.h - OPU groups to instruction streams -----*- C++ -*-===//
//
// PlanSteps turns a partition (of a quantized graph) into the program's
// steps: the OPU groups into instruction streams for the HwConfig, with the
// DRAM they address: one constant blob (weights in the array's order, biases
// with the output stage's multipliers and shifts) followed by one region per
// activation a group reads or writes. docs/codegen.md describes the tiling, the layout
// and the estimator. An OPU group codegen cannot compile yet becomes a CPU
// step with the reason (the node and the stage); it never fails the others.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_CODEGEN_CODEGEN_H
#define OPUC_CODEGEN_CODEGEN_H

#include <cstdint>
#include <string>
#include <vector>

#include "opuc/ir/graph.h"
#include "opuc/isa/isa.h"
#include "opuc/opu/hw_config.h"
#include "opuc/partition/hw_partition.h"
#include "opuc/program/activation_layout.h"
#include "opuc/program/program.h"
#include "opuc/status.h"

namespace opuc {

/// One step of the program, made for one partition group: an OPU step
/// (the group's instruction words) or a CPU step with why its nodes are not
/// on the OPU. The OPU/CPU decision is made here once, for every reader of
/// the plan (the program writer, the compile report).
struct PlannedStep {
  int32_t group = -1;  ///< HwGroup::id.
  StepKind kind = StepKind::kCpu;
  // OPU steps:
  std::vector<isa::Word> words;
  int64_t estimated_cycles = 0;
  std::string tiling;  ///< "tile 16x16, 2 output blocks, 1 weight chunk", for reports.
  /// A group whose words are in the step of group `chained_into`, the
  /// next, which runs both and whose program step holds both groups'
  /// nodes: a chained pair's first group (docs/codegen.md, "Chained
  /// pairs"), or any but the last group of a run (docs/codegen.md,
  /// "Runs"); -1 otherwise. Its estimate and tiling are its own alone.
  int32_t chained_into = -1;
  /// An OPU step of several groups (a chained pair, a run): each group's
  /// id and words, in order (their steps tell their tilings); empty for a
  /// step of one group.
  struct Part {
    int32_t group = -1;
    int64_t words = 0;
    /// Its cycles in the step's estimate: from the group before's last
    /// store to its own.
    int64_t estimated_cycles = 0;
  };
  std::vector<Part> parts;
  // CPU steps: the partitioner's reason for a CPU group; "not compiled for
  // the OPU yet: node 7 'pool' (max_pool2d) on stage pool: ..." for an OPU
  // group codegen cannot compile yet.
  std::string reason;
};

struct StepPlan {
  std::vector<uint8_t> constants;  ///< At DRAM address 0.
  /// After the constants, aligned; two share bytes only when their
  /// lifetimes (over the partition's groups) do not meet.
  std::vector<ActivationLayout> activations;
  int64_t dram_bytes = 0;
  std::vector<PlannedStep> steps;  ///< One per partition group, in the partition's order.

  /// The layout of `tensor`, or nullptr.
  const ActivationLayout* Find(TensorId tensor) const;
  /// The step of partition group `group`, or nullptr.
  const PlannedStep* FindStep(int32_t group) const;
  /// The OPU steps, in order.
  std::vector<const PlannedStep*> OpuSteps() const;
  /// A DRAM image: the constants in place, every activation zero.
  std::vector<uint8_t> DramImage() const;
};

/// What PlanSteps may choose.
struct PlanOptions {
  /// Fold a first layer's taps into the array's lanes where that takes
  /// fewer passes (docs/codegen.md, "First-layer folding"): the host then
  /// writes that input folded, as its activation records.
  bool fold_inputs = true;
  /// Fold two output pixels' windows into one folded pixel where that
  /// takes fewer passes (a layer of 24 output channels: three blocks of 8
  /// channels of two pixels, not 16 + 8 of one); its Stores then `pair`.
  bool pixel_pairs = true;
  /// Lay out activations with compact pixels (docs/codegen.md, "DRAM
  /// layout"): a last channel block of fewer than L channels takes whole
  /// granules of Co bytes a pixel, not L; each plane of an i16 map so.
  bool compact_pixels = true;
  /// Try the tiling with the fewest tiles and the same cut into more rows
  /// of tiles, and keep the one the estimator finds fastest (docs/codegen.md,
  /// Tiling).
  bool tile_search = true;
  /// Run a depthwise group whose output only the 1x1 group after it reads
  /// with that group as one OPU step, the map kept in the feature-map
  /// buffer (docs/codegen.md, "Chained pairs"): 0 where the estimator finds
  /// that step faster than the two alone, 1 never, 2 wherever it may.
  int64_t chained_pairs = 0;
  /// Run the OPU steps between two CPU steps as one program (docs/
  /// codegen.md, "Runs"), each group's first loads beside the end of the
  /// group before.
  bool runs = true;
  /// Run each tile's post stages and store in this many slices of its rows
  /// where the group allows (docs/codegen.md, "Post slices"); 0: the
  /// tiling search weighs 1, 2 and 4 (1 without the search).
  int64_t post_slices = 0;
  /// The accumulator regions (tile, output block) pairs take in turn where
  /// the tiles fit (docs/codegen.md, "Accumulator quarters"): 2 or 4; 0: the
  /// tiling search weighs both (2 without the search).
  int64_t acc_regions = 0;
  /// The feature-map slots the input windows take in turn where a window
  /// and its residual tiles fit a quarter of the buffer and the pairs take
  /// four accumulator regions (docs/codegen.md, "Feature-map quarters"): 2
  /// or 4; 0: the tiling search weighs both (2 without the search).
  int64_t fm_slots = 0;
  /// Store a tile's output blocks together, each pixel's whole beat once
  /// (docs/codegen.md, "Whole-pixel stores"), where the output allows:
  /// 0 the tiling search weighs it (never without the search), 1 never,
  /// 2 always.
  int64_t store_blocks = 0;
  /// With whole-pixel stores: the store groups the accumulator holds at
  /// once (docs/codegen.md, "Store groups four deep"): 2 or 4 where a tile
  /// fits; 0: the tiling search weighs both (2 without the search).
  int64_t store_depth = 0;
  /// Load every output block's weights once, for the whole group
  /// (docs/codegen.md, "Resident params and the early token"), where they
  /// fit: 0 the tiling search weighs it (never without the search), 1
  /// never, 2 always.
  int64_t weights_resident = 0;
  /// Run a transposed convolution whose kernel equals its stride as
  /// phases (docs/codegen.md, "Transposed convolutions as phases"), not
  /// over its zero-inserted input.
  bool phases = true;
  /// Run a convolution to one output channel over a few channels with its
  /// rows' pixels packed into the lanes and the array's rows
  /// (docs/codegen.md, "Packed rows"); its output is then laid out packed.
  bool packed_rows = true;
  /// Read a small-channel layer's input and residuals L / Co pixels a unit
  /// where its loads would outrun the array (docs/codegen.md, "Packed
  /// pixels"); the layouts do not change.
  bool packed_pixels = true;
  /// Rotate the weight and param buffers over up to this many units
  /// (docs/codegen.md, "Units more than two deep"): a unit's loads then
  /// wait for the unit that many before, not the one two before. 2 is
  /// plain double buffering; each group takes the most its units allow.
  int64_t unit_slots = 4;
  /// Lay maps of Co/2 channels out doubled where a depthwise product reads
  /// them, which then takes two output pixels an entry (docs/codegen.md,
  /// "Doubled maps"); needs compact pixels.
  bool doubled_maps = true;
  /// Weigh the fastest tiling again with a shorter first and last tile
  /// (docs/codegen.md, "Tapered tiles"): 0 the tiling search does (never
  /// without the search), 1 never, 2 always where the tiles allow.
  int64_t tapered_tiles = 0;
  /// Read an i16 input whole, its planes interleaved row by row on chip,
  /// in one array pass instead of two (docs/codegen.md, "An i16 in one
  /// pass"); not through a depthwise window.
  bool whole_i16 = true;
  /// Depthwise output pixels two a cycle where the kernel's rows fit half
  /// the lanes, at stride 1 (docs/codegen.md, "Depthwise in pairs").
  bool window_pairs = true;
  /// Two channel blocks a stride-2 depthwise Gemm, one in each half of the
  /// adder tree (docs/codegen.md, "Block pairs").
  bool block_pairs = true;
  /// Depthwise pairs over tiles of odd widths too: the tiling search also
  /// weighs each odd tile a column wider, that column not stored
  /// (docs/codegen.md, "Odd widths in pairs").
  bool even_columns = true;
  /// A 1x1 product of at most half the lanes' channels two output pixels
  /// a cycle (docs/codegen.md, "Pointwise in pairs").
  bool dense_pairs = true;
  /// Threads the groups' tiling searches run on (0: one per core); the
  /// program is the same for any count.
  int threads = 0;
};

/// Plans one step per group of `partition` (made for `hw` from the
/// quantized `graph`), compiling every OPU group it can. Errors: an invalid
/// config, a graph that is not quantized where a group reads it, or a layer
/// no tiling fits (naming the group, the node, the buffer and by how much).
Expected<StepPlan> PlanSteps(const Graph& graph, const HwPartition& partition, const HwConfig& hw,
                             const PlanOptions& options = {});

}  // namespace opuc

#endif  // OPUC_CODEGEN_CODEGEN_H
