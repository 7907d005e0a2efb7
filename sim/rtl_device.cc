//===- sim/rtl_device.cc - The "rtl" device -------------------------------===//
//
// The RTL is Verilated once per preset at build time (sim/CMakeLists.txt),
// so a program runs on it only when its HwConfig is one of those presets,
// field for field but for what only the partitioner and codegen read (the
// ipa's limits, which values a group may store: the program's instructions
// say what it does); any other config gets an error that says so. The
// device keeps one session for a program's steps, and names each step's
// next OPU step to it, as a runtime on the hardware would: the fetch unit
// reads that step's first words while the step before runs.
//
//===----------------------------------------------------------------------===//
#include <algorithm>
#include "opuc/runtime/device.h"
#include "rtl.h"
#include "support/format.h"

namespace opuc::rtl {

std::unique_ptr<RtlSession> MakeRtlSession_tiny(const HwConfig& hw, bool traced);
std::unique_ptr<RtlSession> MakeRtlSession_opu1024(const HwConfig& hw, bool traced);

namespace {

class RtlDevice final : public Device {
 public:
  explicit RtlDevice(DeviceOptions options) : options_(std::move(options)) {}
  std::string_view name() const override { return "rtl"; }
  Status RunOpuStep(const Program& program, const ProgramStep& step, std::vector<uint8_t>& dram,
                    OpuCounters* counters) override {
    RtlStats stats;
    std::string trace_path;
    const size_t index = StepIndex(program, step);
    const std::vector<size_t>& chosen = options_.trace_steps;
    if (!options_.trace_path.empty() &&
        (chosen.empty() || std::find(chosen.begin(), chosen.end(), index) != chosen.end()))
      trace_path = StepTracePath(options_.trace_path, index);
    if (!session_ || program_ != &program) {
      Expected<std::unique_ptr<RtlSession>> session =
          MakeRtlSession(program.hw(), !options_.trace_path.empty());
      if (!session.ok()) return session.status();
      session_ = std::move(*session);
      program_ = &program;
    }
    const ProgramStep* next = NextOpuStep(program, step);
    const std::vector<isa::Word> next_words = next ? next->Words() : std::vector<isa::Word>{};
    OPUC_RETURN_IF_ERROR(
        session_->Run(step.Words(), next ? &next_words : nullptr, dram, &stats, trace_path));
    if (counters) {
      *counters = stats.counters;
      counters->group_cycles = GroupCycles(step, stats);
    }
    return OkStatus();
  }

 private:
  // A step of several groups: each group's cycles, from the one before's
  // end to the retirement of its own last instruction, the last group's
  // to the step's end.
  static std::vector<int64_t> GroupCycles(const ProgramStep& step, const RtlStats& stats) {
    std::vector<int64_t> cycles;
    if (step.groups.size() < 2) return cycles;
    std::array<size_t, isa::kNumEngines> count{};  // each engine's instructions so far
    int64_t done = 0;
    for (const StepGroup& g : step.groups) {
      for (size_t w = g.first_word; w < g.first_word + g.words; ++w)
        if (Expected<isa::Instruction> insn = isa::Decode(step.word(w)); insn.ok())
          ++count[static_cast<size_t>(isa::EngineOf(*insn))];
      int64_t end = done;
      for (size_t e = 0; e < count.size(); ++e)
        if (count[e] > 0 && count[e] <= stats.retired_at[e].size())
          end = std::max(end, stats.retired_at[e][count[e] - 1]);
      end = &g == &step.groups.back() ? stats.cycles : std::min(end, stats.cycles);
      cycles.push_back(end - done);
      done = end;
    }
    return cycles;
  }

  // The program's first OPU step after `step`, or none (the last, or a
  // step that is not one of the program's).
  static const ProgramStep* NextOpuStep(const Program& program, const ProgramStep& step) {
    const std::vector<ProgramStep>& steps = program.steps();
    size_t at = steps.size();
    for (size_t i = 0; i < steps.size(); ++i)
      if (&steps[i] == &step) at = i;
    for (size_t i = at + 1; i < steps.size(); ++i)
      if (steps[i].kind == StepKind::kOpu) return &steps[i];
    return nullptr;
  }

  // The step's place in the program, when it is one of the program's own
  // steps (the runtime passes those); else the count of steps run so far.
  size_t StepIndex(const Program& program, const ProgramStep& step) {
    const std::vector<ProgramStep>& steps = program.steps();
    const size_t ran = runs_++;
    for (size_t i = 0; i < steps.size(); ++i)
      if (&steps[i] == &step) return i;
    return ran;
  }
  size_t runs_ = 0;
  DeviceOptions options_;
  std::unique_ptr<RtlSession> session_;
  const Program* program_ = nullptr;  // the program session_ last ran a step of
};

}  // namespace

std::string StepTracePath(const std::string& path, size_t step) {
  const size_t slash = path.find_last_of('/');
  const size_t dot = path.find_last_of('.');
  const bool has_ext = dot != std::string::npos && (slash == std::string::npos || dot > slash);
  const std::string stem = has_ext ? path.substr(0, dot) : path;
  return Cat(stem, ".step", step, has_ext ? path.substr(dot) : std::string(".fst"));
}

Expected<std::unique_ptr<RtlSession>> MakeRtlSession(const HwConfig& hw, bool traced) {
  Expected<HwConfig> preset = HwConfigPreset(hw.name);
  HwConfig datapath = hw;
  if (preset.ok()) {
    datapath.ipa = preset->ipa;
    datapath.store = preset->store;
  }
  if (!preset.ok() || HwConfigToJson(*preset) != HwConfigToJson(datapath))
    return InvalidArgument(Cat("the RTL is built for the presets tiny and opu1024; hw '", hw.name,
                               "' is not one of them field for field"));
  if (hw.name == "tiny") return MakeRtlSession_tiny(hw, traced);
  return MakeRtlSession_opu1024(hw, traced);
}

Status RunRtl(const HwConfig& hw, const std::vector<isa::Word>& program, std::vector<uint8_t>& dram,
              RtlStats* stats, const RtlOptions& options) {
  Expected<std::unique_ptr<RtlSession>> session = MakeRtlSession(hw, !options.trace_path.empty());
  if (!session.ok()) return session.status();
  return (*session)->Run(program, nullptr, dram, stats, options.trace_path);
}

void RegisterRtlDevice() {
  RegisterDevice("rtl", [](const DeviceOptions& options) -> Expected<std::unique_ptr<Device>> {
    return std::unique_ptr<Device>(std::make_unique<RtlDevice>(options));
  });
}

}  // namespace opuc::rtl
