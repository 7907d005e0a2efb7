//===- sim/rtl_device.cc - The "rtl" device -------------------------------===//
//
// The RTL is Verilated once per preset at build time (sim/CMakeLists.txt),
// so a program runs on it only when its HwConfig is one of those presets,
// field for field; any other config gets an error that says so.
//
//===----------------------------------------------------------------------===//
#include "opuc/runtime/device.h"
#include "rtl.h"
#include "support/format.h"

namespace opuc::rtl {

Status RunRtl_tiny(const HwConfig&, const std::vector<isa::Word>&, std::vector<uint8_t>&,
                   RtlStats*);
Status RunRtl_opu1024(const HwConfig&, const std::vector<isa::Word>&, std::vector<uint8_t>&,
                      RtlStats*);

namespace {

class RtlDevice final : public Device {
 public:
  std::string_view name() const override { return "rtl"; }
  Status RunOpuStep(const Program& program, const ProgramStep& step, std::vector<uint8_t>& dram,
                    OpuCounters* counters) override {
    RtlStats stats;
    OPUC_RETURN_IF_ERROR(RunRtl(program.hw(), step.Words(), dram, &stats));
    if (counters) *counters = stats.counters;
    return OkStatus();
  }
};

}  // namespace

std::vector<std::string> RtlPresets() { return {"tiny", "opu1024"}; }

Status RunRtl(const HwConfig& hw, const std::vector<isa::Word>& program, std::vector<uint8_t>& dram,
              RtlStats* stats) {
  Expected<HwConfig> preset = HwConfigPreset(hw.name);
  if (!preset.ok() || HwConfigToJson(*preset) != HwConfigToJson(hw))
    return InvalidArgument(Cat("the RTL is built for the presets tiny and opu1024; hw '", hw.name,
                               "' is not one of them field for field"));
  if (hw.name == "tiny") return RunRtl_tiny(hw, program, dram, stats);
  return RunRtl_opu1024(hw, program, dram, stats);
}

void RegisterRtlDevice() {
  RegisterDevice("rtl", [] { return std::unique_ptr<Device>(std::make_unique<RtlDevice>()); });
}

}  // namespace opuc::rtl
