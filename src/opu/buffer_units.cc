//===- src/opu/buffer_units.cc - The OPU's buffers in their units ---------===//
#include "opuc/opu/buffer_units.h"

namespace opuc {

OpuBufferUnits BufferUnits(const HwConfig& hw) {
  OpuBufferUnits u;
  u.lanes = hw.array.input_channels;
  u.out_lanes = hw.array.output_channels;
  const auto bytes = [](const BufferSpec& b) { return b.bytes_per_bank * b.banks; };
  u.fm_rows = bytes(hw.buffers.feature_map) / u.lanes;
  u.weight_rows = bytes(hw.buffers.weight) / (u.lanes * u.out_lanes);
  u.param_rows = bytes(hw.buffers.bias) / (u.out_lanes * 8);
  u.acc_entries = bytes(hw.buffers.partial_sum) / (u.out_lanes * 6);  // 48-bit lanes
  return u;
}

}  // namespace opuc
