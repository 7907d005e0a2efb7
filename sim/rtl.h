//===- sim/rtl.h - Running a program on the Verilated OPU ---------*- C++ -*-===//
//
// RunRtl runs an instruction stream on the RTL of hw/rtl, built by
// Verilator for the HwConfig's preset (tiny or opu1024), with the harness's
// clock, reset, DRAM model (sim/dram_model.h) and watchdog: a design that
// stops making progress is an error naming each engine's state and the last
// instruction it retired. RegisterRtlDevice makes it the runtime's "rtl"
// device (opuc run --device rtl, opuc verify --devices ref,fsim,rtl).
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_SIM_RTL_H
#define OPUC_SIM_RTL_H

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "dram_model.h"
#include "opuc/fsim/fsim.h"
#include "opuc/isa/isa.h"

namespace opuc::rtl {

struct RtlEngineStats {
  int64_t busy_cycles = 0;   ///< Running an instruction.
  int64_t token_cycles = 0;  ///< An instruction waiting for a token.
  int64_t dram_cycles = 0;   ///< Running, and waiting for DRAM.
  int64_t retired = 0;
  int64_t last_retired = -1;  ///< Index in the program; -1 before the first.
};

struct RtlStats {
  int64_t cycles = 0;  ///< From start to done.
  std::array<RtlEngineStats, isa::kNumEngines> engines{};
  /// Per engine, the cycle from the start at which each of its
  /// instructions retired, in order (where a run's groups end).
  std::array<std::vector<int64_t>, isa::kNumEngines> retired_at;
  OpuCounters counters;  ///< What the functional simulator counts too.
  DramStats dram;
};

/// Cycles without progress (no instruction retired, no buffer or
/// accumulator written, no DRAM transfer) after which the run is a hang.
/// The longest quiet stretch a correct design has is one pool window's
/// taps (at most 1023 x 1023).
inline constexpr int64_t kStallLimit = int64_t{1} << 21;

struct RtlOptions {
  std::string trace_path;  ///< Where to write an FST waveform of the run; none when empty.
};

/// A Verilated OPU kept from one program to the next, as the runtime keeps
/// the hardware. A run may name the program the caller will run next: the
/// fetch unit then reads that one's first words while this one runs, and a
/// run of it starts with them (opu_fetch.sv, "Prefetch").
class RtlSession {
 public:
  virtual ~RtlSession() = default;
  /// Runs `program` over `dram`; `next` (may be null) is the program the
  /// next run is likely to be, `stats` (may be null) this run's figures, and
  /// a non-empty `trace_path` where its FST waveform goes (a session made
  /// with tracing only).
  virtual Status Run(const std::vector<isa::Word>& program, const std::vector<isa::Word>* next,
                     std::vector<uint8_t>& dram, RtlStats* stats,
                     const std::string& trace_path) = 0;
};

/// A session on the RTL for `hw` (one of the presets the RTL is built for),
/// whose runs may write traces when `traced`.
Expected<std::unique_ptr<RtlSession>> MakeRtlSession(const HwConfig& hw, bool traced);

/// Runs `program` alone (a session of one run) on the RTL for `hw` over
/// `dram`. `stats` may be null.
Status RunRtl(const HwConfig& hw, const std::vector<isa::Word>& program, std::vector<uint8_t>& dram,
              RtlStats* stats = nullptr, const RtlOptions& options = {});

/// Where the trace of step `step` goes for `--trace path`: the step's index
/// before the extension ("run.fst" -> "run.step3.fst").
std::string StepTracePath(const std::string& path, size_t step);

/// Adds the "rtl" device to MakeDevice and DeviceNames.
void RegisterRtlDevice();

}  // namespace opuc::rtl

#endif  // OPUC_SIM_RTL_H
