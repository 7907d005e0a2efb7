//===- oracle/armnn_runner.cc - A .tflite on Arm NN's CpuRef --------===//
#include "oracle/armnn_runner.h"

#include <armnn/ArmNN.hpp>
#include <armnnTfLiteParser/ITfLiteParser.hpp>
#include <exception>
#include <utility>

namespace opuc::oracle {
namespace {

// The process's one runtime (see the header), never destroyed.
armnn::IRuntime& Runtime() {
  static armnn::IRuntime* runtime = armnn::IRuntime::CreateRaw(armnn::IRuntime::CreationOptions());
  return *runtime;
}

Shape ShapeOf(const armnn::TensorInfo& info) {
  Shape shape;
  for (unsigned i = 0; i < info.GetNumDimensions(); ++i) shape.push_back(info.GetShape()[i]);
  return shape;
}

}  // namespace

struct ArmnnModel::State {
  armnnTfLiteParser::ITfLiteParserPtr parser{nullptr, nullptr};
  armnn::NetworkId id = 0;
  std::vector<std::string> inputs;
  std::vector<std::string> outputs;
  std::string name;
};

ArmnnModel::ArmnnModel(std::unique_ptr<State> state) : state_(std::move(state)) {}

ArmnnModel::~ArmnnModel() {
  if (state_) Runtime().UnloadNetwork(state_->id);
}

const std::vector<std::string>& ArmnnModel::input_names() const { return state_->inputs; }

Expected<std::unique_ptr<ArmnnModel>> ArmnnModel::Load(const std::vector<uint8_t>& tflite,
                                                       std::string_view name) {
  auto state = std::make_unique<State>();
  state->name = std::string(name);
  try {
    state->parser = armnnTfLiteParser::ITfLiteParser::Create();
    armnn::INetworkPtr network = state->parser->CreateNetworkFromBinary(tflite);
    armnn::IOptimizedNetworkPtr optimized =
        armnn::Optimize(*network, {armnn::BackendId("CpuRef")}, Runtime().GetDeviceSpec());
    std::string message;
    if (Runtime().LoadNetwork(state->id, std::move(optimized), message) != armnn::Status::Success)
      return InternalError(state->name + ": Arm NN LoadNetwork failed: " + message);
    state->inputs = state->parser->GetSubgraphInputTensorNames(0);
    state->outputs = state->parser->GetSubgraphOutputTensorNames(0);
  } catch (const std::exception& e) {
    return Unsupported(state->name + ": Arm NN: " + e.what());
  }
  return std::unique_ptr<ArmnnModel>(new ArmnnModel(std::move(state)));
}

Expected<std::vector<ArmnnOutput>> ArmnnModel::Run(const std::vector<HostTensor>& inputs) {
  const State& s = *state_;
  if (inputs.size() != s.inputs.size())
    return InvalidArgument(s.name + ": " + std::to_string(inputs.size()) + " inputs for " +
                           std::to_string(s.inputs.size()));
  std::vector<ArmnnOutput> results(s.outputs.size());
  try {
    armnn::InputTensors bound_inputs;
    for (size_t i = 0; i < inputs.size(); ++i) {
      const auto [id, info] = s.parser->GetNetworkInputBindingInfo(0, s.inputs[i]);
      if (inputs[i].dtype() != DType::kF32 || inputs[i].shape() != ShapeOf(info))
        return InvalidArgument(s.name + ": input '" + s.inputs[i] + "' is " +
                               DescribeType(inputs[i]) + "; Arm NN binds f32 of " +
                               std::to_string(info.GetNumElements()) + " elements");
      bound_inputs.emplace_back(id, armnn::ConstTensor(info, inputs[i].data<float>()));
    }
    armnn::OutputTensors bound_outputs;
    for (size_t i = 0; i < s.outputs.size(); ++i) {
      const auto [id, info] = s.parser->GetNetworkOutputBindingInfo(0, s.outputs[i]);
      results[i].name = s.outputs[i];
      results[i].shape = ShapeOf(info);
      results[i].values.resize(info.GetNumElements());
      bound_outputs.emplace_back(id, armnn::Tensor(info, results[i].values.data()));
    }
    if (Runtime().EnqueueWorkload(s.id, bound_inputs, bound_outputs) != armnn::Status::Success)
      return InternalError(s.name + ": Arm NN EnqueueWorkload failed");
  } catch (const std::exception& e) {
    return InternalError(s.name + ": Arm NN: " + e.what());
  }
  return results;
}

}  // namespace opuc::oracle
