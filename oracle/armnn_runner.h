//===- oracle/armnn_runner.h - A .tflite on Arm NN's CpuRef -*- C++ -*-===//
//
// Parses a .tflite with Arm NN 20.08's TFLite parser, optimizes it for the
// CpuRef backend and runs it: the independent float implementation the
// oracle tests hold opuc's reference executor against. Arm NN's headers stay
// in armnn_runner.cc.
//
// Arm NN allows one IRuntime per process: a second one, created after the
// first is destroyed, finds no CpuRef backend factory (environment.md §4).
// Every ArmnnModel therefore shares one runtime that lives until the
// process ends.
//
//===----------------------------------------------------------------------===//
#ifndef OPUC_ORACLE_ARMNN_RUNNER_H
#define OPUC_ORACLE_ARMNN_RUNNER_H

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "opuc/status.h"
#include "opuc/tensor_io/host_tensor.h"

namespace opuc::oracle {

/// One output of a run: the subgraph output's name, shape and values.
struct ArmnnOutput {
  std::string name;
  Shape shape;
  std::vector<float> values;
};

class ArmnnModel {
 public:
  /// Parses and loads the model `tflite` on CpuRef. Arm NN's exceptions
  /// become errors naming `name`.
  static Expected<std::unique_ptr<ArmnnModel>> Load(const std::vector<uint8_t>& tflite,
                                                    std::string_view name);
  ~ArmnnModel();
  ArmnnModel(const ArmnnModel&) = delete;
  ArmnnModel& operator=(const ArmnnModel&) = delete;

  /// The subgraph's input names, in order.
  const std::vector<std::string>& input_names() const;

  /// Runs the model on `inputs` (f32, in input order, each of the shape Arm
  /// NN's binding has) and returns the outputs in subgraph order.
  Expected<std::vector<ArmnnOutput>> Run(const std::vector<HostTensor>& inputs);

 private:
  struct State;
  explicit ArmnnModel(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace opuc::oracle

#endif  // OPUC_ORACLE_ARMNN_RUNNER_H
