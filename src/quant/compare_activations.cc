//===- src/quant/compare_activations.cc - Error of every activation -------===//
#include <cmath>
#include <map>

#include "opuc/cpu/executor.h"
#include "opuc/quant/accuracy.h"
#include "support/format.h"

namespace opuc {
namespace {

/// The float name an integer tensor stands for.
std::string FloatName(const std::string& name) {
  const std::string suffix = "/int8";
  if (name.size() > suffix.size() &&
      name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
    return name.substr(0, name.size() - suffix.size());
  return name;
}

bool IsActivationFormat(DType dtype) {
  return dtype == DType::kI8 || dtype == DType::kU8 || dtype == DType::kI16;
}

template <typename T>
void Scale(const HostTensor& q, int bits, float* out) {
  for (int64_t i = 0; i < q.elements(); ++i)
    out[i] = std::ldexp(static_cast<float>(q.data<T>()[i]), -bits);
}

/// q · 2^-bits for an i8, u8 or i16 tensor (exact in float).
Expected<HostTensor> Dequantized(const HostTensor& q, int bits) {
  OPUC_ASSIGN_OR_RETURN(HostTensor real, HostTensor::Zeros(DType::kF32, q.shape()));
  float* out = real.data<float>();
  if (q.dtype() == DType::kU8)
    Scale<uint8_t>(q, bits, out);
  else if (q.dtype() == DType::kI16)
    Scale<int16_t>(q, bits, out);
  else
    Scale<int8_t>(q, bits, out);
  return real;
}

}  // namespace

Expected<std::vector<OutputAccuracy>> CompareActivations(
    const Graph& float_graph, const Graph& quantized_graph,
    const std::vector<std::vector<HostTensor>>& samples) {
  std::vector<std::string> order;
  std::map<std::string, AccuracyMeter> meters;
  for (const Node& node : quantized_graph.nodes)
    for (TensorId t : node.outputs) {
      const Tensor& tensor = quantized_graph.tensor(t);
      if (IsActivationFormat(tensor.dtype) && tensor.fixed_point.fraction_bits.size() == 1) {
        order.push_back(tensor.name);
        meters[tensor.name];
      }
    }
  for (size_t s = 0; s < samples.size(); ++s) {
    std::map<std::string, HostTensor> reference;
    const TensorObserver keep = [&](TensorId t, const HostTensor& value) {
      if (value.dtype() == DType::kF32) reference[float_graph.tensor(t).name] = value;
      return OkStatus();
    };
    Expected<std::vector<HostTensor>> ref = RunCpu(float_graph, samples[s], keep);
    if (!ref.ok()) return ref.status().WithContext(Cat("sample ", s, ", float graph"));
    const TensorObserver compare = [&](TensorId t, const HostTensor& value) {
      const Tensor& tensor = quantized_graph.tensor(t);
      auto meter = meters.find(tensor.name);
      if (meter == meters.end()) return OkStatus();
      auto it = reference.find(FloatName(tensor.name));
      if (it == reference.end()) return OkStatus();  // no float twin (a new tensor)
      OPUC_ASSIGN_OR_RETURN(HostTensor real,
                            Dequantized(value, tensor.fixed_point.fraction_bits[0]));
      return meter->second.Add(it->second, real);
    };
    Expected<std::vector<HostTensor>> got = RunCpu(quantized_graph, samples[s], compare);
    if (!got.ok()) return got.status().WithContext(Cat("sample ", s, ", quantized graph"));
  }
  std::vector<OutputAccuracy> result;
  for (const std::string& name : order) result.push_back(meters[name].Finish(name));
  return result;
}

}  // namespace opuc
