//===- src/fsim/machine.cc - The buffers and checked access to them ---===//
#include "machine.h"

namespace opuc {

namespace fsim {

Machine::Machine(const HwConfig& hw, bool checks_only) : units(BufferUnits(hw)), dry(checks_only) {
  line_writer.assign(static_cast<size_t>(units.line_columns), -1);
  if (dry) return;
  line.assign(static_cast<size_t>(units.line_buffers * units.line_columns * units.out_lanes), 0);
  fm.assign(static_cast<size_t>(units.fm_rows * units.lanes), 0);
  weight.assign(static_cast<size_t>(units.weight_rows * units.lanes * units.out_lanes), 0);
  param.assign(static_cast<size_t>(units.param_rows * units.out_lanes * 8), 0);
  acc.assign(static_cast<size_t>(units.acc_entries * units.out_lanes), 0);
}

Status Machine::InRange(std::string_view field, int64_t first, int64_t count, int64_t size,
                        std::string_view what) const {
  if (count <= 0) return OkStatus();
  if (first < 0 || first + count > size)
    return Fail(Cat(field, " reaches ", what, " ", first + count - 1, "; there are ", size));
  return OkStatus();
}

Status Machine::CheckPost(int64_t acc_addr, int64_t count, int64_t lo, int64_t hi) const {
  if (lo > hi) return Fail(Cat("lo ", lo, " is above hi ", hi));
  return InRange("acc_addr", acc_addr, count, units.acc_entries, "accumulator entry");
}

int32_t Machine::Bias(int64_t row, int64_t lane) const {
  const uint8_t* p = &param[static_cast<size_t>((row * units.out_lanes + lane) * 8)];
  return static_cast<int32_t>(static_cast<uint32_t>(p[0]) | static_cast<uint32_t>(p[1]) << 8 |
                              static_cast<uint32_t>(p[2]) << 16 |
                              static_cast<uint32_t>(p[3]) << 24);
}

int32_t Machine::SecondBias(int64_t row, int64_t lane) const {
  const uint8_t* p = &param[static_cast<size_t>((row * units.out_lanes + lane) * 8 + 4)];
  return static_cast<int32_t>(static_cast<uint32_t>(p[0]) | static_cast<uint32_t>(p[1]) << 8 |
                              static_cast<uint32_t>(p[2]) << 16 |
                              static_cast<uint32_t>(p[3]) << 24);
}

int32_t Machine::Multiplier(int64_t row, int64_t lane) const {
  const uint8_t* p = &param[static_cast<size_t>((row * units.out_lanes + lane) * 8 + 4)];
  return static_cast<int16_t>(static_cast<uint16_t>(p[0] | p[1] << 8));
}

int Machine::Shift(int64_t row, int64_t lane) const {
  return static_cast<int8_t>(param[static_cast<size_t>((row * units.out_lanes + lane) * 8 + 6)]);
}

int Machine::Alpha(int64_t row, int64_t lane) const {
  return static_cast<int8_t>(param[static_cast<size_t>((row * units.out_lanes + lane) * 8 + 7)]);
}

}  // namespace fsim
}  // namespace opuc
