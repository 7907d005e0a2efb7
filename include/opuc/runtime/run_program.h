//===- opuc/runtime/run_program.h - Running and verifying a program -*- C++ -*-===//
//
// A ProgramRunner runs a program's steps in order on one device: OPU steps
// on the device's DRAM image, CPU steps on the host's integer reference
// executor. Between steps the values cross as DRAM does in a real system:
// what a CPU step makes is written into its region before an OPU step
// reads it, and what an OPU step writes is read back for the host and
// stays in DRAM for the OPU steps after (never written again from the
// host's copy: a later step reads the bytes the OPU wrote, a doubled map's
// copies included). A value is dropped after the last step that reads it.
//
// VerifyProgram runs several devices in lockstep and stops at the first
// step whose outputs differ, naming the element and both values.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_RUNTIME_RUN_PROGRAM_H
#define OPUC_RUNTIME_RUN_PROGRAM_H

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "opuc/program/program.h"
#include "opuc/runtime/device.h"
#include "opuc/tensor_io/host_tensor.h"

namespace opuc {

class ProgramRunner {
 public:
  /// Checks `inputs` against the graph's inputs (count, dtype, shape).
  static Expected<ProgramRunner> Start(const Program& program, Device& device,
                                       std::vector<HostTensor> inputs);

  bool done() const { return next_ >= program_->steps().size(); }
  size_t next_step() const { return next_; }
  /// Runs the next step; errors name the step and its group.
  Status Step();
  /// The value of `tensor` if it is live (made and still to be read), else nullptr.
  const HostTensor* Value(TensorId tensor) const;
  /// The graph's outputs, once done().
  Expected<std::vector<HostTensor>> Outputs() const;
  /// Per step: what the device's engines did (zero for CPU steps).
  const std::vector<OpuCounters>& counters() const { return counters_; }

 private:
  ProgramRunner(const Program& program, Device& device);
  Status RunOpu(const ProgramStep& step);

  const Program* program_;
  Device* device_;
  std::vector<uint8_t> dram_;
  std::map<TensorId, HostTensor> values_;
  std::vector<bool> in_dram_;      ///< Per tensor: an OPU step wrote it to its region.
  std::vector<size_t> last_read_;  ///< Per tensor: the last step reading it (graph outputs: all).
  std::vector<OpuCounters> counters_;
  size_t next_ = 0;
};

struct ProgramRun {
  std::vector<HostTensor> outputs;
  std::vector<OpuCounters> counters;  ///< Per step.
};

/// Runs every step; the graph's outputs and each step's counters.
Expected<ProgramRun> RunProgram(const Program& program, Device& device,
                                std::vector<HostTensor> inputs);

/// Where two devices first disagreed.
struct Divergence {
  size_t step = 0;
  int32_t group = -1;
  TensorId tensor = kNoTensor;
  int64_t element = 0;            ///< Row-major index into the tensor.
  std::vector<int64_t> index;     ///< The same, per dimension.
  std::string devices[2];         ///< The first device and the one that differs.
  double values[2] = {0.0, 0.0};  ///< What each computed.
  int64_t differing = 0;          ///< Elements of the tensor that differ.
};

struct VerifyResult {
  std::optional<Divergence> divergence;  ///< Empty when all devices agreed bit for bit.
  int64_t steps_run = 0;
  int64_t tensors_compared = 0;
};

/// Runs `devices` (at least two) in lockstep from `inputs`, comparing each
/// step's outputs byte for byte; stops at the first difference.
Expected<VerifyResult> VerifyProgram(const Program& program,
                                     const std::vector<std::unique_ptr<Device>>& devices,
                                     const std::vector<HostTensor>& inputs);

}  // namespace opuc

#endif  // OPUC_RUNTIME_RUN_PROGRAM_H
