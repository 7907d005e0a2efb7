//===- src/opu/hw_config_fields.cc - The field table ----------------------===//
#include "hw_config_fields.h"

namespace opuc {

// #member is the path: HW_FIELD(array.clock_mhz, 0) names "array.clock_mhz".
#define HW_FIELD(member, minimum)                                          \
  HwField {                                                                \
#member, [](HwConfig & c) -> HwFieldRef { return &c.member; }, minimum \
  }

const std::vector<HwField>& HwConfigFields() {
  static const std::vector<HwField> fields = {
      HW_FIELD(array.input_channels, 1),
      HW_FIELD(array.output_channels, 1),
      HW_FIELD(array.clock_mhz, 0),
      HW_FIELD(ipa.depthwise, 0),
      HW_FIELD(ipa.transpose_conv, 0),
      HW_FIELD(ipa.max_kernel, 1),
      HW_FIELD(ipa.max_stride, 1),
      HW_FIELD(ipa.max_dilation, 1),
      HW_FIELD(compare.lookup_table, 0),
      HW_FIELD(buffers.feature_map.bytes_per_bank, 1),
      HW_FIELD(buffers.feature_map.banks, 1),
      HW_FIELD(buffers.weight.bytes_per_bank, 1),
      HW_FIELD(buffers.weight.banks, 1),
      HW_FIELD(buffers.bias.bytes_per_bank, 1),
      HW_FIELD(buffers.bias.banks, 1),
      HW_FIELD(buffers.partial_sum.bytes_per_bank, 1),
      HW_FIELD(buffers.partial_sum.banks, 1),
      HW_FIELD(dram.word_bits, 8),
      HW_FIELD(dram.bandwidth_gb_per_s, 0),
      HW_FIELD(dram.latency_cycles, 0),
      HW_FIELD(store.max_outputs, 1),
  };
  return fields;
}

#undef HW_FIELD

}  // namespace opuc
