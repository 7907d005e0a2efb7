//===- src/tensor_io/random_input.cc - Reproducible inputs ------------------===//
#include "opuc/tensor_io/random_input.h"

#include "support/format.h"

namespace opuc {
namespace {

template <typename T>
void FillIntegers(HostTensor& tensor, SplitMix64& rng) {
  T* out = tensor.data<T>();
  constexpr int kShift = 64 - 8 * static_cast<int>(sizeof(T));
  for (int64_t i = 0; i < tensor.elements(); ++i)
    out[i] = static_cast<T>(static_cast<int64_t>(rng.Next() >> kShift) -
                            (int64_t{1} << (8 * sizeof(T) - 1)));
}

}  // namespace

Expected<HostTensor> RandomTensor(DType dtype, const Shape& shape, uint64_t seed) {
  if (dtype == DType::kF16)
    return Unsupported("random f16 tensors are not implemented; give the input as a file");
  OPUC_ASSIGN_OR_RETURN(HostTensor tensor, HostTensor::Zeros(dtype, shape));
  SplitMix64 rng(seed);
  switch (dtype) {
    case DType::kF32: {
      float* out = tensor.data<float>();
      for (int64_t i = 0; i < tensor.elements(); ++i) out[i] = rng.UniformSigned();
      break;
    }
    case DType::kI8: FillIntegers<int8_t>(tensor, rng); break;
    case DType::kI16: FillIntegers<int16_t>(tensor, rng); break;
    case DType::kI32: FillIntegers<int32_t>(tensor, rng); break;
    case DType::kU8: FillIntegers<uint8_t>(tensor, rng); break;
    case DType::kF16: break;
  }
  return tensor;
}

uint64_t InputSeed(uint64_t seed, size_t index) {
  return seed + static_cast<uint64_t>(index) * 0x9E3779B97F4A7C15ull;
}

Expected<std::vector<HostTensor>> RandomInputs(const Graph& graph, uint64_t seed) {
  std::vector<HostTensor> inputs;
  for (size_t i = 0; i < graph.inputs.size(); ++i) {
    const Tensor& t = graph.tensor(graph.inputs[i]);
    Expected<HostTensor> tensor = RandomTensor(t.dtype, t.shape, InputSeed(seed, i));
    if (!tensor.ok()) return tensor.status().WithContext(Cat("input ", i, " '", t.name, "'"));
    inputs.push_back(std::move(tensor).value());
  }
  return inputs;
}

}  // namespace opuc
