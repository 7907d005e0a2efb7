//===- src/opu/hw_config_fields.cc - The field table ----------------------===//
#include "hw_config_fields.h"

#include <cstdint>

namespace opuc {

// #member is the path: HW_FIELD(array.clock_mhz, 0, kMaxClockMhz) names "array.clock_mhz".
#define HW_FIELD(member, minimum, maximum)                                                 \
  HwField {                                                                                \
#member, [](HwConfig & c) -> HwFieldRef { return &c.member; }, minimum, maximum, false \
  }
#define HW_FIELD_ADDED_LATER(member, minimum, maximum)                                    \
  HwField {                                                                               \
#member, [](HwConfig & c) -> HwFieldRef { return &c.member; }, minimum, maximum, true \
  }

namespace {
// Generous next to opu1024 (64 x 16 lanes, 512 KiB banks, 512-bit words).
constexpr int64_t kMaxLanes = 4096;
constexpr int64_t kMaxBanks = 16;
constexpr int64_t kMaxWordBits = 8192;  // DRAM regions align to a word
constexpr int64_t kMaxWindow = 1024;    // kernel, stride, dilation per axis
// A clock, a bandwidth and a latency far beyond any FPGA's, so that cycle
// counts (estimates, bounds) stay far inside int64.
constexpr int64_t kMaxClockMhz = 100'000;
constexpr int64_t kMaxBandwidthGbPerS = 1'000'000;
constexpr int64_t kMaxLatencyCycles = 1'000'000;
}  // namespace

const std::vector<HwField>& HwConfigFields() {
  static const std::vector<HwField> fields = {
      HW_FIELD(array.input_channels, 1, kMaxLanes),
      HW_FIELD(array.output_channels, 1, kMaxLanes),
      HW_FIELD(array.clock_mhz, 0, kMaxClockMhz),
      HW_FIELD(ipa.depthwise, 0, 1),
      HW_FIELD(ipa.transpose_conv, 0, 1),
      HW_FIELD_ADDED_LATER(ipa.depthwise_window, 0, 8),   // Gemm.window_h: 3 bits
      HW_FIELD_ADDED_LATER(ipa.depthwise_line, 0, 4096),  // Gemm.fm_pitch: 12 bits
      HW_FIELD(ipa.max_kernel, 1, kMaxWindow),
      HW_FIELD(ipa.max_stride, 1, kMaxWindow),
      HW_FIELD(ipa.max_dilation, 1, kMaxWindow),
      HW_FIELD(compare.lookup_table, 0, 1),
      HW_FIELD(buffers.feature_map.bytes_per_bank, 1, kMaxBufferBytes),
      HW_FIELD(buffers.feature_map.banks, 1, kMaxBanks),
      HW_FIELD(buffers.weight.bytes_per_bank, 1, kMaxBufferBytes),
      HW_FIELD(buffers.weight.banks, 1, kMaxBanks),
      HW_FIELD(buffers.bias.bytes_per_bank, 1, kMaxBufferBytes),
      HW_FIELD(buffers.bias.banks, 1, kMaxBanks),
      HW_FIELD(buffers.partial_sum.bytes_per_bank, 1, kMaxBufferBytes),
      HW_FIELD(buffers.partial_sum.banks, 1, kMaxBanks),
      HW_FIELD(dram.word_bits, 8, kMaxWordBits),
      HW_FIELD(dram.bandwidth_gb_per_s, 0, kMaxBandwidthGbPerS),
      HW_FIELD(dram.latency_cycles, 0, kMaxLatencyCycles),
      HW_FIELD(store.max_outputs, 1, 1024),
  };
  return fields;
}

#undef HW_FIELD
#undef HW_FIELD_ADDED_LATER

}  // namespace opuc
