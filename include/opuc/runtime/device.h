//===- opuc/runtime/device.h - What runs an OPU step --------------*- C++ -*-===//
//
// A Device runs one OPU step of a program on a DRAM image: it reads the
// step's inputs from their regions and writes its outputs to theirs, as the
// OPU would. The devices: "ref", the integer reference executor running the
// step's graph nodes (the definition of the results); "fsim", the
// functional simulator running the step's instruction words; "cpu", the CPU
// executor running the step's graph nodes (the same bits as ref, faster);
// and, where the build has Verilator, "rtl": the Verilated datapath of
// hw/rtl, which lives outside the library (sim/) and registers itself
// (RegisterDevice). CPU steps run on the CPU executor, the same for every
// device.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_RUNTIME_DEVICE_H
#define OPUC_RUNTIME_DEVICE_H

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "opuc/opu/counters.h"
#include "opuc/program/program.h"
#include "opuc/status.h"

namespace opuc {

class Device {
 public:
  virtual ~Device() = default;
  virtual std::string_view name() const = 0;
  /// Runs OPU step `step` of `program` on `dram` (program.dram_bytes()
  /// long). Counters (may be null) are the engines' where the device has
  /// engines, left zero otherwise. The runtime runs a program's steps in
  /// order, so a device with a fetch unit may name the program's next OPU
  /// step to it while this one runs (the rtl device does: docs/rtl.md,
  /// "Prefetch").
  virtual Status RunOpuStep(const Program& program, const ProgramStep& step,
                            std::vector<uint8_t>& dram, OpuCounters* counters) = 0;
};

/// What a device may be asked for besides running steps.
struct DeviceOptions {
  /// An FST waveform of each OPU step (rtl only): `PATH` with the step's
  /// index before the extension ("run.fst" -> "run.step3.fst").
  std::string trace_path;
  /// The OPU steps to trace, by index (empty: every one).
  std::vector<size_t> trace_steps;
};

/// Makes a device that MakeDevice then knows by `name`; a second
/// registration of a name replaces the first. A device refuses options it
/// cannot honour, naming them.
using DeviceFactory = std::function<Expected<std::unique_ptr<Device>>(const DeviceOptions&)>;
void RegisterDevice(std::string name, DeviceFactory factory);

/// "ref", "fsim", "cpu" or a registered name; InvalidArgument listing the
/// names otherwise.
Expected<std::unique_ptr<Device>> MakeDevice(std::string_view name,
                                             const DeviceOptions& options = {});

/// The names MakeDevice knows, in the order the docs list them.
std::vector<std::string> DeviceNames();

}  // namespace opuc

#endif  // OPUC_RUNTIME_DEVICE_H
