//===- opuc/opu/hw_config.h - What the accelerator is -------------*- C++ -*-===//
//
// One HwConfig describes an OPU (DESIGN.md section 6): the inner-product
// array's geometry, what its units accept, the on-chip buffers, DRAM, how
// many values a group may store, and the HDFG. Presets: `opu1024` (the
// original's 64 x 16 array at 200 MHz) and `tiny` (small, for fast RTL
// tests). A file is JSON (docs/hdfg.md gives the format); it may start from
// a preset ("base") and override fields. Every config is validated, and a
// message names the field at fault.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_OPU_HW_CONFIG_H
#define OPUC_OPU_HW_CONFIG_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "opuc/opu/hdfg.h"
#include "opuc/status.h"

namespace opuc {

struct ArrayGeometry {
  int64_t input_channels = 64;   ///< Input channels in one dot product.
  int64_t output_channels = 16;  ///< Output channels per cycle.
  double clock_mhz = 200.0;
};

/// What the inner-product array runs besides plain convolutions.
struct IpaSpec {
  bool depthwise = true;  ///< Depthwise mode (one input channel per output).
  /// Kernel rows one depthwise Gemm takes with its taps as the reduction
  /// axis (Gemm.depthwise, docs/isa.md); 0: the array has no such mode, and
  /// depthwise runs on the diagonal mapping (a lane of each dot product).
  int64_t depthwise_window = 0;
  /// Columns each of the window's line buffers holds (its kernel rows above
  /// the one read; hw/rtl/opu_gemm.sv): a depthwise Gemm whose rows are at
  /// most this wide reads each feature-map pixel once, a column a cycle;
  /// 0: none, a window's column is read a row a cycle.
  int64_t depthwise_line = 0;
  bool transpose_conv = false;  ///< Zero-inserted input for transposed convolutions.
  int64_t max_kernel = 16;      ///< Kernel taps per axis (4-bit tap offsets).
  int64_t max_stride = 15;
  int64_t max_dilation = 1;
};

struct CompareSpec {
  bool lookup_table = true;  ///< 256-entry tables for i8 sigmoid, tanh, hard_swish.
};

struct BufferSpec {
  int64_t bytes_per_bank = 1;
  int64_t banks = 1;  ///< 2 = ping-pong.
};

struct BufferSizes {
  BufferSpec feature_map;
  BufferSpec weight;
  BufferSpec bias;
  BufferSpec partial_sum;
};

struct DramSpec {
  int64_t word_bits = 512;
  double bandwidth_gb_per_s = 12.8;
  int64_t latency_cycles = 64;
};

/// Which values a group writes to DRAM.
struct StoreSpec {
  /// Values one group may store: its last op's, plus taps.
  int64_t max_outputs = 1;
  /// Modules whose result can be stored from inside a group (a tap).
  HwModuleMask taps = 0;
};

struct HwConfig {
  std::string name;
  ArrayGeometry array;
  IpaSpec ipa;
  CompareSpec compare;
  BufferSizes buffers;
  DramSpec dram;
  StoreSpec store;
  Hdfg hdfg;
};

/// The preset names: "opu1024", "tiny".
std::vector<std::string> HwConfigPresetNames();

/// A preset by name; NotFound lists the presets.
Expected<HwConfig> HwConfigPreset(std::string_view name);

/// Whether the feature-map buffer keeps even and odd units in two banks
/// (hw/rtl's FM_PAIRS: where the depthwise window has line buffers). The
/// window then reads a pair of pixels a cycle at stride 2, and a compact
/// load without zeros between its pixels writes a pair a cycle.
inline bool FeatureMapPairs(const HwConfig& hw) {
  return hw.ipa.depthwise_line > 1 && hw.array.input_channels >= 16;
}

/// The seed's HDFG (the graph in the comment of hdfg.h): the original
/// OPU's datapath, with a pre-adder and pre-multiplier before the padding.
Hdfg DefaultHdfg();

/// The HDFG of opuc's datapath, which the presets take: the seed's without
/// add_pre and mul_pre (no instruction runs them; mem_rd feeds pad).
Hdfg DatapathHdfg();

/// Checks every field; the message names it ("array.input_channels is 0;
/// expected at least 1", "hdfg.stages[3].successors[0] is 12; ...").
Status ValidateHwConfig(const HwConfig& config);

/// Reads a config from JSON text; `where` prefixes messages (a file name).
Expected<HwConfig> ParseHwConfigJson(std::string_view text, std::string_view where = "");

/// A preset name, or else a JSON file's path.
Expected<HwConfig> LoadHwConfig(const std::string& name_or_path);

/// The config as JSON that ParseHwConfigJson reads back to the same config.
std::string HwConfigToJson(const HwConfig& config);

}  // namespace opuc

#endif  // OPUC_OPU_HW_CONFIG_H
