//===- opuc/program/program.h - The .opup program ----------------*- C++ -*-===//
//
// A program is one model compiled for one OPU (schema/opup.fbs,
// docs/program-format.md): the quantized graph that defines the results,
// the DRAM layout (a constant blob at address 0, then one region per
// activation) and the steps in order, each an OPU step (instruction words)
// or a CPU step (graph nodes the host runs).
//
// ReadProgram verifies the buffer with FlatBuffers, then checks what the
// verifier cannot (every index names something that exists, every DRAM
// access of every instruction lies inside a region it may touch, each
// step reads only values made before it), and then reads in place: the
// constants, the instruction words and the graph's weights stay in the
// loaded buffer.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_PROGRAM_PROGRAM_H
#define OPUC_PROGRAM_PROGRAM_H

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "opuc/ir/graph.h"
#include "opuc/isa/isa.h"
#include "opuc/opu/hw_config.h"
#include "opuc/program/activation_layout.h"
#include "opuc/status.h"

namespace opuc {

/// The newest program format version this library reads. Version 2 adds
/// folded inputs (InputFold), version 3 compact pixels (an activation's
/// granule), version 4 packed rows (an activation's pack), version 5 pixel
/// pairs (a fold's pixels, a Store's pair), version 6 line slots (a Gemm's
/// line_slot and carry), version 7 whole-pixel stores (a Store's
/// extra_blocks), version 8 doubled maps (an activation's doubled),
/// version 9 an i16 read whole (a Gemm's operand I16, a Load's
/// interleave), version 10 depthwise output pixels in pairs (a depthwise
/// Gemm's init PairsFromBias), version 11 dense ones (a dense Gemm's),
/// version 12 a Store into the feature-map buffer (to_fm), version 13
/// steps of several groups (an OpuStep's groups, a Fence), version 14 a
/// Store of several blocks of pixel pairs (extra_blocks with pair),
/// version 15 packed window pairs (a depthwise Gemm's PairsFromBias over 5
/// rows of 6 columns, its rows 6 lanes apart: docs/isa.md), version 16
/// block pairs (a stride-2 depthwise Gemm of two channel blocks); a
/// program is written as the oldest version that holds it, so that older
/// readers still take what they can run.
inline constexpr uint32_t kProgramVersion = 16;
/// The first version whose activations may be folded.
inline constexpr uint32_t kInputFoldVersion = 2;
/// The first version whose activations may have compact pixels.
inline constexpr uint32_t kCompactPixelsVersion = 3;
/// The first version whose activations may pack rows.
inline constexpr uint32_t kPackedRowsVersion = 4;
/// The first version whose folds may hold pixel pairs.
inline constexpr uint32_t kPixelPairsVersion = 5;
/// The first version whose depthwise Gemms may keep rows in line slots.
inline constexpr uint32_t kLineCarryVersion = 6;

/// The first version whose Stores may write several blocks of a pixel.
inline constexpr uint32_t kStoreBlocksVersion = 7;
/// The first version whose activations may store their channels twice.
inline constexpr uint32_t kDoubledMapsVersion = 8;
/// The first version whose Gemms may read an i16 whole (operand I16) and
/// whose Loads may interleave its planes.
inline constexpr uint32_t kI16WholeVersion = 9;
/// The first version whose depthwise Gemms may take output pixels in pairs.
inline constexpr uint32_t kWindowPairsVersion = 10;
/// The first version whose dense Gemms may take output pixels in pairs.
inline constexpr uint32_t kDensePairsVersion = 11;
/// The first version whose Stores may write the feature-map buffer.
inline constexpr uint32_t kStoreToFmVersion = 12;
/// The first version whose OPU steps may run several groups (their
/// groups listed) and hold Fences.
inline constexpr uint32_t kRunsVersion = 13;
/// The first version whose Stores may write several blocks of pixel pairs
/// (a folded first layer's output blocks, docs/isa.md).
inline constexpr uint32_t kStorePairBlocksVersion = 14;
/// The first version whose depthwise pairs may take a 5-row window's
/// rows 6 lanes apart (packed rows).
inline constexpr uint32_t kPackedPairsVersion = 15;
/// The first version whose stride-2 depthwise Gemms may take two channel
/// blocks (init PairsFromBias at stride_x 2).
inline constexpr uint32_t kBlockPairsVersion = 16;

/// The oldest program format version whose instructions may do what
/// `insn` does: a Gemm that keeps its rows in a line slot other than the
/// first or takes them from one needs kLineCarryVersion, a Store of
/// several blocks a pixel kStoreBlocksVersion, a Gemm of operand I16 or an
/// interleaved Load kI16WholeVersion, a depthwise Gemm of output pixels in
/// pairs kWindowPairsVersion (over 5 rows of 6 columns
/// kPackedPairsVersion), a dense one kDensePairsVersion, a Store into
/// the feature-map buffer kStoreToFmVersion, a Fence kRunsVersion, a
/// Store of several blocks of pixel pairs kStorePairBlocksVersion, a
/// Gemm of two channel blocks kBlockPairsVersion, anything else 1.
uint32_t InstructionVersion(const isa::Instruction& insn);
/// Why `insn` needs InstructionVersion(insn): "interleave needs format
/// version 9" ("" for version 1).
std::string VersionReason(const isa::Instruction& insn);

/// How a program was built (schema/opup.fbs, table Build).
struct ProgramBuild {
  std::string compiler;  ///< "opuc 0.1.0".
  int opt_level = 3;
  std::vector<std::string> disabled_passes;
  std::string precision = "int8";
  std::string source_name;    ///< The model file's name, without its folder.
  std::string source_sha256;  ///< 64 lowercase hex digits.
};

enum class StepKind : uint8_t { kOpu, kCpu };

/// One of the groups of an OPU step of several (a chained pair, a run:
/// docs/codegen.md): its nodes and words follow the group before's.
struct StepGroup {
  int32_t group = -1;  ///< HwGroup::id.
  size_t first_node = 0, nodes = 0;
  size_t first_word = 0, words = 0;
  std::string tiling;
  int64_t estimated_cycles = 0;  ///< Its share of the step's estimate.
};

struct ProgramStep {
  StepKind kind = StepKind::kCpu;
  int32_t group = -1;  ///< HwGroup::id in the partition it was made from.
  std::vector<NodeId> nodes;
  std::vector<TensorId> inputs;
  std::vector<TensorId> outputs;
  // OPU steps: `word_count` words of 16 little-endian bytes at `words`.
  const uint8_t* words = nullptr;
  size_t word_count = 0;
  int64_t estimated_cycles = 0;
  std::string tiling;
  /// An OPU step of several groups: each, in order (format version 13);
  /// empty for a step of one group.
  std::vector<StepGroup> groups;
  // CPU steps: why the nodes are not on the OPU.
  std::string reason;

  isa::Word word(size_t i) const;
  /// All words, copied (a simulator's input).
  std::vector<isa::Word> Words() const;
};

class Program {
 public:
  /// The quantized graph; its constants view the loaded buffer.
  const Graph& graph() const { return graph_; }
  const HwConfig& hw() const { return hw_; }
  const ProgramBuild& build() const { return build_; }
  uint32_t version() const { return version_; }
  /// The constant blob, DRAM bytes [0, constant_bytes()), in the buffer.
  const uint8_t* constants() const { return constants_; }
  int64_t constant_bytes() const { return constant_bytes_; }
  int64_t dram_bytes() const { return dram_bytes_; }
  const std::vector<ActivationLayout>& activations() const { return activations_; }
  /// The DRAM layout of `tensor`, or nullptr.
  const ActivationLayout* Find(TensorId tensor) const;
  const std::vector<ProgramStep>& steps() const { return steps_; }
  /// A fresh DRAM image: the constants in place, every activation zero.
  std::vector<uint8_t> DramImage() const;

 private:
  friend class ProgramReader;
  std::shared_ptr<const void> owner_;  ///< Keeps the loaded buffer alive.
  uint32_t version_ = 0;
  Graph graph_;
  HwConfig hw_;
  ProgramBuild build_;
  const uint8_t* constants_ = nullptr;
  int64_t constant_bytes_ = 0;
  int64_t dram_bytes_ = 0;
  std::vector<ActivationLayout> activations_;
  std::vector<int32_t> activation_of_;  ///< Per tensor: index into activations_, or -1.
  std::vector<ProgramStep> steps_;
};

/// Each group of `step` as a step of its own, in order (docs/codegen.md,
/// "Runs"): its nodes, words and tiling, what its nodes read that they do
/// not make as inputs and what they make that has a DRAM region as
/// outputs, no estimate; `step` itself for a step of one group.
std::vector<ProgramStep> StepParts(const Program& program, const ProgramStep& step);

/// Reads `size` bytes at `data`, kept alive by `owner`, in place when
/// `data` is aligned to kConstantAlignment (else after one aligned copy).
/// Every error starts with `source_name` and names the table, index and
/// field at fault: "model.opup: step 3 (OPU, group 5): word 12 (Load):
/// DRAM bytes [4096, 8192) are outside every region it may read".
Expected<Program> ReadProgram(std::shared_ptr<const void> owner, const uint8_t* data, size_t size,
                              std::string_view source_name);

/// Reads a .opup file with one read into an aligned buffer.
Expected<Program> LoadProgramFile(const std::string& path);

/// Whether `path` names a program: it ends in ".opup".
bool IsProgramPath(std::string_view path);

}  // namespace opuc

#endif  // OPUC_PROGRAM_PROGRAM_H
